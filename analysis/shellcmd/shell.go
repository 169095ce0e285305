package shellcmd

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// isShell reports whether name is a program whose -c string is a script
// we parse. A shell without -c (`curl x | bash`, `bash script.sh`) is an
// ordinary command.
func isShell(name string) bool {
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "su", "ash", "rbash", "yash",
		"posh", "csh", "tcsh", "oksh", "loksh", "pdksh":
		return true
	}
	return false
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

// shell lists the commands of the code a shell runs and reports whether
// it did. The code is its -c string; else its script operand when this
// command line made it (a file it wrote, a process substitution); else,
// without an operand, what the line gives it on stdin (a heredoc, a
// here-string, an earlier pipeline stage). When that code is not known,
// it returns the Code to list the shell with, so that guards see a shell
// running code they cannot read. A script on disk before the line ran is
// not read (nil Code). Nesting too deep, or code that runs no command (so
// that the shell's redirections are still seen), lists the shell itself.
func (w *walker) shell(base string, args []Word, redirs []Redirect, c ctx, wrappers []string, dir string) (bool, *Code) {
	code := w.shellCode(base, args, c, dir)
	if code != nil && code.Text.spliced {
		return false, splicedCode(code)
	}
	if code == nil || !code.Text.Known {
		return false, code
	}
	if w.depth >= maxDepth {
		return false, tooDeep(code)
	}
	lang := syntax.LangBash
	if base == "zsh" {
		lang = syntax.LangZsh
	}
	tag := base + " -c"
	if code.From != "-c" {
		tag = base + " " + code.From
	}
	n := len(w.script.Commands)
	ic := w.innerCtx(tag, redirs, c, wrappers)
	if code.From != "-c" {
		ic.stdin = nil // the script is what it read
	}
	saved, wasZsh := w.saveVars(), w.zsh
	w.vars = nil // a new shell: only the environment
	w.zsh = base == "zsh"
	w.inner(tag, code.Text.Value, lang, ic, dir)
	w.vars, w.zsh = saved, wasZsh
	return len(w.script.Commands) > n || w.err != nil, nil
}

// splicedCode is code built from the input of xargs or parallel: data
// run as code, judged as code only known at run time whatever the data
// is, since the same line runs whatever the input holds.
func splicedCode(code *Code) *Code {
	out := *code
	out.From = "input"
	out.Text.Known = false
	return &out
}

// shellCode finds the code a shell runs (see shell), or nil.
func (w *walker) shellCode(base string, args []Word, c ctx, dir string) *Code {
	if script, ok := shellScript(base, args); ok {
		return &Code{Lang: "sh", From: "-c", Text: script}
	}
	if base == "su" || base == "fish" {
		return nil
	}
	op, ok := shellOperand(args)
	if ok && !(op.Known && stdinPath(op.Value)) {
		return w.scriptFile("sh", op, c, dir)
	}
	return stdinCode("sh", c.stdin)
}

// shellOperand returns an sh-style shell's first operand, its script,
// when it has one and no -c or -s.
func shellOperand(args []Word) (Word, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case !a.Known || len(v) < 2 || (v[0] != '-' && v[0] != '+'):
			return a, true
		case v == "--":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return Word{}, false
		case v == "--rcfile" || v == "--init-file":
			i++
		case v[0] == '-' && v[1] == '-':
		default:
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 's':
					if v[0] == '-' {
						return Word{}, false // the script is stdin
					}
				case 'o', 'O':
					i++
				}
			}
		}
	}
	return Word{}, false
}

// eval lists the commands of eval's arguments, joined with spaces, and
// returns the directory after them (eval runs in this shell). ok is false
// when they were not listed; code is then the Code to list eval with
// when its text is not known.
func (w *walker) eval(args []Word, redirs []Redirect, c ctx, wrappers []string, dir string) (after string, ok bool, code *Code) {
	if len(args) > 0 && args[0].Known && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return dir, false, nil
	}
	var b strings.Builder
	known := true
	var raws []string
	for i, a := range args {
		known = known && a.Known && !a.Glob
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Value)
		raws = append(raws, a.Raw)
	}
	text := Word{Raw: strings.Join(raws, " "), Value: b.String(), Known: known}
	if len(args) == 1 {
		text = args[0]
	}
	if !known {
		return dir, false, &Code{Lang: "sh", From: "eval", Text: text}
	}
	if w.depth >= maxDepth {
		return dir, false, tooDeep(&Code{Lang: "sh", From: "eval", Text: text})
	}
	n := len(w.script.Commands)
	after = w.inner("eval", b.String(), syntax.LangBash, w.innerCtx("eval", redirs, c, wrappers), dir)
	return after, len(w.script.Commands) > n || w.err != nil, nil
}

// source reads `source FILE` / `. FILE` when this command line made the
// file (or it is a process substitution): it runs in this shell, like
// eval. A file on disk before is not read.
func (w *walker) source(base string, file Word, redirs []Redirect, c ctx, wrappers []string, dir string) (after string, ok bool, code *Code) {
	code = w.scriptFile("sh", file, c, dir)
	if code != nil && code.From == "file" {
		code.From = "source"
	}
	if code == nil || !code.Text.Known {
		return dir, false, code
	}
	if w.depth >= maxDepth {
		return dir, false, tooDeep(code)
	}
	n := len(w.script.Commands)
	ic := w.innerCtx(base, redirs, c, wrappers)
	after = w.inner(base, code.Text.Value, syntax.LangBash, ic, dir)
	return after, len(w.script.Commands) > n || w.err != nil, nil
}

// runFile reads a program named by its path when this command line wrote
// it: a shell script (a #! line naming a shell, or none) is listed as its
// commands; any other is listed with its Code.
func (w *walker) runFile(prog Word, redirs []Redirect, c ctx, wrappers []string, dir string) (bool, *Code) {
	s := w.file(prog, dir)
	if s == nil {
		return false, nil
	}
	text := s.word(prog.Raw)
	if !text.Known {
		return false, &Code{Lang: "sh", From: "file", Text: text}
	}
	lang := shebangLang(text.Value)
	if lang != "sh" {
		if lang == "" {
			return false, nil
		}
		return false, &Code{Lang: lang, From: "file", Text: text}
	}
	if w.depth >= maxDepth {
		return false, tooDeep(&Code{Lang: "sh", From: "file", Text: text})
	}
	n := len(w.script.Commands)
	tag := prog.Value
	saved := w.saveVars()
	w.vars = nil
	w.inner(tag, text.Value, syntax.LangBash, w.innerCtx(tag, redirs, c, wrappers), dir)
	w.vars = saved
	return len(w.script.Commands) > n || w.err != nil, nil
}

// subshell walks stmts in a subshell (a substitution): its variables do
// not come back. It returns the stream its output went to.
func (w *walker) subshell(stmts []*syntax.Stmt, c ctx, dir string) *stream {
	saved := w.saveVars()
	w.stmts(stmts, c, dir)
	w.vars = saved
	return c.out
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
	if !w.readAgain(src) {
		return dir
	}
	f, err := parse(src, lang, w.zsh)
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("%s string: %w", tag, err)
		}
		return dir
	}
	w.depth++
	defer func() { w.depth-- }()
	c.src = src
	w.scanAssigned(f)
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
			end := skipAssigns(args, i)
			u.env, u.rest = args[i:end], args[end:]
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

// tooDeep marks code nested deeper than maxDepth as not known: it is not
// read, so it must not pass as read.
func tooDeep(code *Code) *Code {
	c := *code
	c.Text.Known = false
	return &c
}

// stdinPath reports whether a script operand names the shell's stdin.
func stdinPath(p string) bool {
	return p == "-" || p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0"
}
