package shellcmd

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shells are the programs whose -c string is a script we parse. A shell
// without -c (`curl x | bash`, `bash script.sh`) is an ordinary command.
var shells = map[string]bool{
	"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true,
	"mksh": true, "fish": true, "su": true,
}

var (
	// suOptions: util-linux su permutes, so `su - user -c CMD` works.
	suOptions = &OptionTable{Short: "c:flmPps:g:G:w:hV", Abbrev: true, Permute: true,
		Long: "command= session-command= fast group= supp-group= login preserve-environment pty " +
			"shell= whitelist-environment= help version"}
	fishOptions = &OptionTable{Short: "c:C:d:D:o:ilnpPvhf:", Abbrev: true,
		Long: "command= init-command= debug= debug-output= debug-stack-frames= features= interactive " +
			"login no-execute profile= profile-startup= private print-rusage-self no-config version help"}
)

// shellScript finds the -c string of a shell's arguments.
func shellScript(base string, args []Word) (Word, bool) {
	switch base {
	case "su", "fish":
		opts := suOptions
		if base == "fish" {
			opts = fishOptions
		}
		for _, o := range opts.Parse(args).Opts {
			if o.Is('c', "command") && o.HasVal {
				return o.Val, true
			}
		}
		return Word{}, false
	}
	// sh-style: options (clusters of - or + letters, -o/-O taking a name)
	// until the first operand; with -c anywhere among them, that operand is
	// the script and the rest are $0, $1, ...
	cmd := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case !a.Known || len(v) < 2 || v == "--" || (v[0] != '-' && v[0] != '+'):
			if cmd && a.Known && (v == "--" || v == "-") {
				i++
			}
			if cmd && i < len(args) {
				return args[i], true
			}
			return Word{}, false
		case v == "--rcfile" || v == "--init-file":
			i++
		case v[0] == '-' && v[1] == '-':
		default:
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'c':
					cmd = cmd || v[0] == '-'
				case 'o', 'O':
					i++
				}
			}
		}
	}
	return Word{}, false
}

// shell lists the commands of `sh -c STRING` and reports whether it did.
// It does not when there is no -c, when STRING is not known (its
// substitutions were listed with the word; the shell is then listed as
// itself, so that guards see a script they cannot read), when the nesting
// is too deep, or when the script runs no command (so that the shell's
// redirections are still seen).
func (w *walker) shell(base string, args []Word, redirs []Redirect, c ctx, wrappers []string, dir string) bool {
	script, ok := shellScript(base, args)
	if !ok || !script.Known || w.depth >= maxDepth {
		return false
	}
	lang := syntax.LangBash
	if base == "zsh" {
		lang = syntax.LangZsh
	}
	n := len(w.script.Commands)
	w.inner(base+" -c", script.Value, lang, w.innerCtx(base+" -c", redirs, c, wrappers), dir)
	return len(w.script.Commands) > n || w.err != nil
}

// eval lists the commands of eval's arguments, joined with spaces, and
// returns the directory after them (eval runs in this shell). ok is false
// as for shell.
func (w *walker) eval(args []Word, redirs []Redirect, c ctx, wrappers []string, dir string) (after string, ok bool) {
	if len(args) > 0 && args[0].Known && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) == 0 || w.depth >= maxDepth {
		return dir, false
	}
	var b strings.Builder
	for i, a := range args {
		if !a.Known {
			return dir, false
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Value)
	}
	n := len(w.script.Commands)
	after = w.inner("eval", b.String(), syntax.LangBash, w.innerCtx("eval", redirs, c, wrappers), dir)
	return after, len(w.script.Commands) > n || w.err != nil
}

// innerCtx is the context of a script run by an unlisted shell or eval: it
// inherits the redirections and, inside a real pipeline, the stage.
func (w *walker) innerCtx(tag string, redirs []Redirect, c ctx, wrappers []string) ctx {
	c.wrappers = appendClip(wrappers, tag)
	c.redirs = (*inherited)(nil).inherit(redirs)
	if c.stages <= 1 {
		c.pipe, c.stage, c.stages = -1, 0, 0
	}
	return c
}

// inner parses src as a script run by tag and walks it.
func (w *walker) inner(tag, src string, lang syntax.LangVariant, c ctx, dir string) string {
	f, err := parse(src, lang)
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("%s string: %w", tag, err)
		}
		return dir
	}
	w.depth++
	defer func() { w.depth-- }()
	c.src = src
	return w.stmts(f.Stmts, c, dir)
}

var envOptions = &OptionTable{Short: "i0u:C:S:vP:a:", Abbrev: true,
	Long: "ignore-environment null unset= chdir= split-string= argv0= block-signal[=] " +
		"default-signal[=] ignore-signal[=] list-signal-handling debug help version"}

// unwrapEnv reads env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]...
// CMD. The words of -S STRING come before the remaining arguments, and
// are read again for options, as GNU env does.
func (w *walker) unwrapEnv(args []Word, c ctx, dir string) wrapped {
	var u wrapped
	for range maxDepth { // each -S round reads a shorter string
		l := envOptions.Parse(args)
		i := l.Rest
		var split []Word
		splitting := false
		for _, o := range l.Opts {
			switch {
			case o.Is('C', "chdir") && o.HasVal:
				u.dir, u.hasDir = o.Val, true
			case o.Is('S', "split-string") && o.HasVal:
				var ok bool
				if split, ok = w.splitString(o.Val, c, dir); !ok {
					return wrapped{}
				}
				splitting = true
			}
		}
		if i < len(args) && args[i].Known && args[i].Value == "-" {
			i++ // same as -i
		}
		if !splitting {
			u.rest = args[skipAssigns(args, i):]
			return u
		}
		args = append(split, args[i:]...)
	}
	return wrapped{}
}

// splitString splits the argument of env -S into words. env does no
// command substitution, so the words are read with a walker of their own
// whose commands are dropped. ok is false when the string is not known or
// not plain words.
func (w *walker) splitString(s Word, c ctx, dir string) (words []Word, ok bool) {
	if !s.Known {
		return nil, false
	}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	syntax.Variant(syntax.LangBash)(p)
	scratch := walker{opts: w.opts, script: &Script{}}
	c.src = s.Value
	for sw, err := range p.WordsSeq(strings.NewReader(s.Value)) {
		if err != nil {
			return nil, false
		}
		words = append(words, scratch.word(sw, c, dir))
	}
	return words, true
}
