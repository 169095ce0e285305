package shellcmd

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// xargs and GNU parallel build command lines from their input. Where the
// input is known (`echo / | xargs rm -rf`, `parallel rm -rf ::: /`), the
// commands they run are listed with it; where it is not (another
// command's output, an argument file), each item is a Word with Known
// false, so that a rule judging its operands sees a path it cannot know.

// maxItems bounds the input items (or, for parallel, the combinations of
// its input sources) listed one by one; beyond it the input counts as
// unknown.
const maxItems = 32

var xargsOptions = &OptionTable{Short: "0a:d:E:e::I:i::L:l::n:oP:prs:txJ:R:S:", Abbrev: true,
	Long: "null arg-file= delimiter= eof[=] replace[=] max-lines[=] max-args= open-tty " +
		"max-procs= interactive process-slot-var= no-run-if-empty max-chars= show-limits " +
		"verbose exit help version"}

// inputItem stands for an item of input that is only known at run time.
func inputItem(of string) Word {
	raw := "<input of " + of + ">"
	return Word{Raw: raw, Value: raw}
}

// xargs lists the command xargs runs: its command line (echo if none)
// with the input items appended, or with -I/-i/--replace (BSD -J) put in
// place of the replacement string. Its child's stdin is /dev/null.
func (w *walker) xargs(args []Word, redirs []Redirect, c ctx, wrappers []string, dir string) {
	l := xargsOptions.Parse(args)
	cmd := args[l.Rest:]
	if len(cmd) == 0 {
		cmd = []Word{{Raw: "echo", Value: "echo", Known: true}}
	}
	var repl string
	replace, whole := false, false
	sep, nul := "", false
	for _, o := range l.Opts {
		switch {
		case o.Is('I', "") && o.HasVal:
			repl, replace = o.Val.Value, o.Val.Known
			if !o.Val.Known {
				repl, replace = "", true
			}
		case o.Is('i', "replace"):
			repl, replace = "{}", true
			if o.HasVal && o.Val.Value != "" {
				repl = o.Val.Value
			}
		case o.Is('J', "") && o.HasVal:
			repl, replace, whole = o.Val.Value, true, true
		case o.Is('0', "null"):
			nul = true
		case o.Is('d', "delimiter") && o.HasVal:
			sep = delimiter(o.Val)
		}
	}
	var items []Word
	known := false
	switch files := l.Vals('a', "arg-file"); {
	case len(files) > 0:
		if s := w.file(files[len(files)-1], dir); s != nil && s.known {
			items, known = splitItems(s.b.String(), nul, sep, replace)
		}
	case c.stdin != nil && c.stdin.Text.Known:
		items, known = splitItems(c.stdin.Text.Value, nul, sep, replace)
	}
	if !known || len(items) > maxItems {
		items = []Word{inputItem("xargs")}
	}
	ec := c
	ec.wrappers = wrappers
	ec.stdin = nil
	if !replace {
		words := append([]Word(nil), cmd...)
		for _, it := range items {
			it.spliced = true
			words = append(words, it)
		}
		w.run(words, redirs, ec, dir)
		return
	}
	for _, it := range items {
		words := make([]Word, len(cmd))
		for i, a := range cmd {
			words[i] = a
			if i == 0 && whole {
				continue
			}
			if repl == "" || !a.Known {
				continue
			}
			if whole && a.Value != repl {
				continue
			}
			words[i] = substitute(a, repl, it)
		}
		w.run(words, redirs, ec, dir)
	}
}

// delimiter reads xargs -d's argument: one character, or a C escape.
func delimiter(d Word) string {
	if !d.Known {
		return "\x00unknown"
	}
	var b strings.Builder
	ansiC(&b, d.Value)
	return b.String()
}

// splitItems splits xargs' input: at NULs (-0), at a delimiter (-d), at
// newlines (-I), or at blanks and newlines. Quotes and backslashes, which
// xargs reads in the last case, make the items unknown.
func splitItems(text string, nul bool, sep string, lines bool) ([]Word, bool) {
	var parts []string
	switch {
	case sep == "\x00unknown":
		return nil, false
	case nul:
		parts = strings.Split(text, "\x00")
	case sep != "":
		parts = strings.Split(text, sep)
	default:
		if strings.ContainsAny(text, `"'\`) {
			return nil, false
		}
		if lines {
			parts = strings.Split(text, "\n")
			for i, p := range parts {
				parts[i] = strings.TrimLeft(p, " \t")
			}
		} else {
			parts = strings.Fields(text)
		}
	}
	var out []Word
	for _, p := range parts {
		if p != "" || sep != "" || nul {
			out = append(out, Word{Raw: p, Value: p, Known: true})
		}
	}
	if (nul || sep != "") && len(out) > 0 && out[len(out)-1].Value == "" {
		out = out[:len(out)-1]
	}
	return out, true
}

// substitute puts val in place of every tok in a.
func substitute(a Word, tok string, val Word) Word {
	if !strings.Contains(a.Value, tok) {
		return a
	}
	out := a
	out.spliced = true
	out.Value = strings.ReplaceAll(a.Value, tok, val.Value)
	out.Known = a.Known && val.Known
	out.Glob = a.Glob || val.Glob
	out.Temp = val.Temp && a.Value == tok
	if !val.Known && !out.Temp {
		out.Value = strings.ReplaceAll(a.Value, tok, val.Raw)
	}
	return out
}

// GNU parallel 20221122: Getopt::Long with bundling and require_order.
var parallelOptions = &OptionTable{Short: "0a:C:d:E:hI:i::j:kL:l::mMn:N:P:pqrs:S:tuvVXx", Abbrev: true,
	Long: "null arg-file= arg-file-sep= arg-sep= bar basefile= bf= basenamereplace= bnr= " +
		"basenameextensionreplace= bner= bin= block= block-size= blocktimeout= bt= cat cleanup colsep= " +
		"compress compress-program= decompress-program= ctag ctagstring= delimiter= dirnamereplace= dnr= " +
		"dry-run env= eta fg fifo filter-hosts gnu group group-by= header= help halt= halt-on-error= " +
		"hostgroups hgrp joblog= jobs= max-procs= keep-order line-buffer lb link xapply load= " +
		"controlmaster max-args= max-replace-args= max-lines[=] max-chars= memfree= memsuspend= " +
		"minversion= nonall onall output-as-files outputasfiles files files0 pipe spreadstdin pipepart " +
		"plain plus progress interactive quote no-run-if-empty noswap record-env recstart= recend= " +
		"regexp remove-rec-sep rrs results= res= resume resume-failed retry-failed retries= return= " +
		"round-robin round rpl= semaphore semaphorename= id= seqreplace= shebang shebang-wrap " +
		"shellquote shuf skip-first-line sshdelay= sshlogin= sshloginfile= slf= silent tag tagstring= " +
		"tee termseq= tmpdir= tempdir= tmux tmuxpane timeout= verbose transfer transferfile= tf= trc= " +
		"trim= ungroup extensionreplace= er= use-cpus-instead-of-cores use-cores-instead-of-threads " +
		"use-sockets-instead-of-threads version workdir= wd= wait xargs exit will-cite citation " +
		"delay= fast-disk-check replace[=] max-line-length-allowed number-of-cpus number-of-cores " +
		"number-of-threads number-of-sockets nice= plus rpl= parens= tmpl= ssh= workdir= sqlmaster= " +
		"sqlworker= sqlandworker= csv shard= template="}

// parallelModelled are the options of GNU parallel whose effect on what
// runs is modelled here (how many at once, output order and progress,
// which items go to one command line, where the items come from): any
// other is judged as running commands only known at run time.
func parallelModelled(o Opt) bool {
	if o.Short != 0 {
		return strings.IndexByte("0aIijkLlmnNPqrtuvXxhVp", o.Short) >= 0
	}
	return parallelModelledLong.Get()[o.Long]
}

var parallelModelledLong = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"null": true, "arg-file": true, "arg-file-sep": true, "arg-sep": true, "bar": true, "eta": true,
		"progress": true, "group": true, "ungroup": true, "line-buffer": true, "lb": true, "keep-order": true,
		"jobs": true, "max-procs": true, "max-args": true, "max-replace-args": true, "max-lines": true,
		"no-run-if-empty": true, "quote": true, "replace": true, "timeout": true, "retries": true,
		"verbose": true, "halt": true, "halt-on-error": true, "memfree": true, "load": true, "delay": true,
		"tag": true, "dry-run": true, "xargs": true, "link": true, "xapply": true, "nice": true,
		"will-cite": true, "citation": true, "silent": true, "shuf": true, "round-robin": true, "round": true,
		"pipe": true, "spreadstdin": true, "block": true, "block-size": true, "version": true, "help": true,
		"gnu": true, "interactive": true, "fast-disk-check": true, "number-of-cpus": true,
		"number-of-cores": true, "number-of-threads": true, "number-of-sockets": true,
		"use-cpus-instead-of-cores": true, "use-cores-instead-of-threads": true,
		"use-sockets-instead-of-threads": true,
	}
}}

// parallelItem is the shell word parallel's command line gets for an
// input item that is only known at run time: a quoted parameter no line
// can set, so the item is one word, as parallel quotes it.
const parallelItem = `"${PARALLEL_INPUT}"`

// replacement strings: {}, {.}, {/}, {//}, {/.}, {#}, {%}, their
// positional forms {1}, {2.}..., and {= perl =}.
var replacementRE = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`\{(\d*)(\.|/|//|/\.|#|%)?\}|\{=.*?=\}`)
}}

// parallel lists the command lines GNU parallel runs and reports whether
// it did. Without -q, parallel joins its command's words with spaces and
// runs the line with a shell, the input items quoted in place of the
// replacement strings (or appended); without a command, each input line
// is a command line. Input comes from ::: ARGS, :::: FILES, -a FILE, or
// stdin.
func (w *walker) parallel(args []Word, redirs []Redirect, c ctx, wrappers []string, dir string) bool {
	l := parallelOptions.Parse(args)
	quote := l.Has('q', "quote")
	argSep, fileSep := ":::", "::::"
	repl := "{}"
	for _, o := range l.Opts {
		switch {
		case o.Is(0, "arg-sep") && o.HasVal:
			argSep = o.Val.Value
		case o.Is(0, "arg-file-sep") && o.HasVal:
			fileSep = o.Val.Value
		case o.Is('I', "") && o.HasVal:
			repl = o.Val.Value
		case o.Is('i', "replace") && o.HasVal && o.Val.Value != "":
			repl = o.Val.Value
		case o.Unknown || !parallelModelled(o):
			// An option that changes what runs, where, or how the items
			// are put in (--wd, --rpl, --plus, --colsep, --ssh, ...), or
			// one not known at all: what runs is not known here.
			name := "-" + string(o.Short)
			if o.Short == 0 {
				name = "--" + o.Long
			}
			w.emitCode(Word{Raw: "parallel", Value: "parallel", Known: true}, args, redirs, c.wrappers, c, dir,
				&Code{Lang: "sh", From: "parallel option", Text: Word{Raw: name, Value: name}})
			return true
		}
	}
	rest := args[l.Rest:]
	cmdEnd := len(rest)
	for i, a := range rest {
		if a.Known && (a.Value == argSep || a.Value == fileSep || a.Value == argSep+"+" || a.Value == fileSep+"+") {
			cmdEnd = i
			break
		}
	}
	cmd := rest[:cmdEnd]
	// The input sources, each a list of items (nil: not known).
	var sources [][]Word
	known := true
	for i := cmdEnd; i < len(rest); {
		sepWord := rest[i].Value
		j := i + 1
		for j < len(rest) && !(rest[j].Known && (rest[j].Value == argSep || rest[j].Value == fileSep || rest[j].Value == argSep+"+" || rest[j].Value == fileSep+"+")) {
			j++
		}
		if strings.HasPrefix(sepWord, fileSep) && sepWord != argSep && sepWord != argSep+"+" {
			known = false
		} else {
			sources = append(sources, rest[i+1:j])
		}
		i = j
	}
	if len(l.Vals('a', "arg-file")) > 0 {
		known = false
	}
	pipe := l.Has(0, "pipe") || l.Has(0, "spreadstdin") || l.Has(0, "pipepart")
	if cmdEnd == len(rest) && len(l.Vals('a', "arg-file")) == 0 && !pipe {
		// Input from stdin, a line each.
		if c.stdin == nil || !c.stdin.Text.Known {
			known = false
		} else {
			items, _ := splitItems(c.stdin.Text.Value, l.Has('0', "null"), "\n", false)
			sources = append(sources, items)
		}
	}
	for _, s := range sources {
		for _, it := range s {
			known = known && it.Known && !it.Glob
		}
	}
	// exact: every item is a plain word given on the command line (:::),
	// so that quoted or not it is the same text, and code with the items
	// put in is known exactly; from stdin it would depend on how each
	// parallel splits and unquotes lines, so it stays input spliced in.
	exact := known && cmdEnd < len(rest)
	for _, s := range sources {
		exact = exact && plainWords(s)
	}
	combos := [][]Word{{}}
	for _, s := range sources {
		var next [][]Word
		for _, cmb := range combos {
			for _, it := range s {
				next = append(next, append(append([]Word(nil), cmb...), it))
			}
		}
		combos = next
		if len(combos) > maxItems {
			known = false
			break
		}
	}
	if !known {
		combos = [][]Word{nil}
	}
	ec := c
	ec.wrappers = wrappers
	if !pipe {
		ec.stdin = nil
	}
	if len(cmd) == 0 {
		if !known {
			w.emitCode(Word{Raw: "parallel", Value: "parallel", Known: true}, args, redirs, c.wrappers, c, dir,
				&Code{Lang: "sh", From: "parallel input", Text: inputItem("parallel")})
			return true
		}
		for _, cmb := range combos {
			var parts []string
			for _, it := range cmb {
				parts = append(parts, it.Value)
			}
			w.parallelLine(strings.Join(parts, " "), redirs, ec, dir)
		}
		return true
	}
	for _, a := range cmd {
		if !a.Known && !quote {
			// The word's text is only known at run time, and the shell
			// reads it as code: list it as such.
			w.emitCode(Word{Raw: "parallel", Value: "parallel", Known: true}, args, redirs, c.wrappers, c, dir,
				&Code{Lang: "sh", From: "parallel", Text: Word{Raw: a.Raw, Value: a.Raw}})
			return true
		}
	}
	if quote || plainWords(cmd) {
		// -q passes each word as it is; and where the shell would read the
		// joined words back as the same words, both readings are one.
		w.parallelWords(cmd, repl, combos, known, exact, redirs, ec, dir)
		return true
	}
	for _, cmb := range combos {
		var b strings.Builder
		used := false
		for i, a := range cmd {
			if i > 0 {
				b.WriteByte(' ')
			}
			v, u := replaceItems(a.Value, repl, cmb, known, true)
			used = used || u
			b.WriteString(v)
		}
		if !used {
			for i := range cmb {
				b.WriteByte(' ')
				b.WriteString(itemText(cmb, i, "", known))
			}
			if !known {
				b.WriteString(" " + parallelItem)
			}
		}
		w.parallelLine(b.String(), redirs, ec, dir)
	}
	// Other parallels, and GNU's with -q, pass each word as it is: a
	// shell's -c string stays one word with the items put in it. Which
	// one runs is not known here, so both readings are judged.
	w.parallelWords(cmd, repl, combos, known, exact, redirs, ec, dir)
	return true
}

// replaceItems puts the items of a combination in place of the
// replacement strings in v (repl, or {} and its forms), quoted for the
// shell when quoted is set, and reports whether v had any.
func replaceItems(v, repl string, cmb []Word, known, quoted bool) (string, bool) {
	used := false
	if repl != "{}" {
		if strings.Contains(v, repl) {
			used = true
			v = strings.ReplaceAll(v, repl, itemValue(cmb, 0, "", known, quoted))
		}
		return v, used
	}
	v = replacementRE.Get().ReplaceAllStringFunc(v, func(m string) string {
		used = true
		sub := replacementRE.Get().FindStringSubmatch(m)
		if strings.HasPrefix(m, "{=") {
			return parallelItem
		}
		n := 0
		if sub[1] != "" {
			for _, d := range sub[1] {
				n = n*10 + int(d-'0')
			}
			n--
		}
		switch sub[2] {
		case "#", "%":
			return "1"
		}
		return itemValue(cmb, n, sub[2], known, quoted)
	})
	return v, used
}

// plainWords reports whether joining words with spaces and reading the
// line again as the shell does gives the same words back: then GNU
// parallel's reading and the word-for-word one agree.
func plainWords(words []Word) bool {
	for _, a := range words {
		v := replacementRE.Get().ReplaceAllString(a.Value, "x")
		if !a.Known || v == "" || strings.ContainsAny(v, " \t\n'\"\\$`;&|<>()*?[]{}~#=%!") {
			return false
		}
	}
	return true
}

// parallelWords lists the commands parallel runs when it passes its
// command's words as they are, the input items put in place of the
// replacement strings or appended (as GNU parallel -q does).
func (w *walker) parallelWords(cmd []Word, repl string, combos [][]Word, known, exact bool, redirs []Redirect, c ctx, dir string) {
	for _, cmb := range combos {
		words := make([]Word, len(cmd))
		used := false
		for i, a := range cmd {
			words[i] = a
			if v, u := replaceItems(a.Value, repl, cmb, known, false); u {
				raw := a.Raw
				if a.Known && known {
					// Shown as the word that runs, items put in.
					raw = shellQuote(v)
				}
				words[i] = Word{Raw: raw, Value: v, Known: a.Known && known, spliced: !exact}
				used = true
			}
		}
		if !used {
			for _, it := range cmb {
				it.spliced = !exact
				words = append(words, it)
			}
			if !known {
				it := inputItem("parallel")
				it.spliced = true
				words = append(words, it)
			}
		}
		w.run(words, redirs, c, dir)
	}
}

// itemText is input item n of a combination, transformed as a
// replacement string asks (. / // /.), quoted for the shell.
func itemText(cmb []Word, n int, how string, known bool) string {
	return itemValue(cmb, n, how, known, true)
}

// itemValue is input item n of a combination, transformed as a
// replacement string asks (. / // /.), quoted for the shell if quoted.
func itemValue(cmb []Word, n int, how string, known, quoted bool) string {
	if !known || n < 0 || n >= len(cmb) {
		if known {
			return ""
		}
		if !quoted {
			return inputItem("parallel").Value
		}
		return parallelItem
	}
	v := cmb[n].Value
	switch how {
	case ".":
		v = noExt(v)
	case "/":
		v = path.Base(v)
	case "//":
		v = path.Dir(v)
	case "/.":
		v = noExt(path.Base(v))
	}
	if !quoted {
		return v
	}
	return shellQuote(v)
}

// noExt drops the extension of a path's last element.
func noExt(v string) string {
	slash := strings.LastIndexByte(v, '/')
	if dot := strings.LastIndexByte(v, '.'); dot > slash+1 {
		return v[:dot]
	}
	return v
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// parallelLine lists the commands of one command line parallel runs in a
// new shell.
func (w *walker) parallelLine(line string, redirs []Redirect, c ctx, dir string) {
	if w.depth >= maxDepth {
		w.emitCode(Word{Raw: "parallel", Value: "parallel", Known: true}, nil, redirs, c.wrappers[:len(c.wrappers)-1], c, dir,
			tooDeep(&Code{Lang: "sh", From: "parallel", Text: Word{Raw: line, Value: line, Known: true}}))
		return
	}
	ic := w.innerCtx("parallel", redirs, c, c.wrappers[:len(c.wrappers)-1])
	ic.stdin = c.stdin
	saved := w.saveVars()
	w.vars = nil
	w.inner("parallel", line, syntax.LangBash, ic, dir)
	w.vars = saved
}
