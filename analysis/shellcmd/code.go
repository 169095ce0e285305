package shellcmd

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code is program text that a shell or an interpreter is given to run:
// on its command line (-c, -e), on stdin (a heredoc, a here-string, an
// earlier pipeline stage), or in a file the same command line wrote.
type Code struct {
	// Lang is "sh" for the shells (and eval and source), else the
	// interpreter's language: "python", "perl", "ruby", "javascript",
	// "php" (Lang.String).
	Lang string
	// From says where the text comes from: "-c", "-e", "heredoc",
	// "here-string", "pipe", "file" (< FILE or a script this command line
	// wrote), "<(...)", "eval", "source", "command name" (a command
	// named by data, runtime_name.go).
	From string
	// Text is the program; Known is false when it is only known at run
	// time (a command's output, a variable, a download).
	Text Word
	// Scan is what ScanCode found in an interpreter's known program: the
	// files it touches (in Command.Effects), the commands it runs (listed
	// after the interpreter, as commands of their own) and what it does
	// that a scan cannot follow. Nil for shell code, which is parsed.
	Scan *CodeScan
}

// interpreterLang returns the language of an interpreter's program name
// (python3.12 is python, nodejs is javascript), or "".
func interpreterLang(base string) string {
	if l, ok := LangOf(base); ok {
		return l.String()
	}
	return ""
}

// Option tables of the interpreters: CPython 3, perl 5 (edit.go), Ruby
// 3, Node.js 20 and PHP 8 manuals. Each program option ends the options.
var (
	pythonOptions = &OptionTable{Short: "bBdEhiIOPqsSuvVxc:m:W:X:", Long: "help help-env help-xoptions help-all version check-hash-based-pycs="}
	rubyOptions   = &OptionTable{Short: "acdlnpsSvwWyhUe:E:F:i::I:r:x::C:K:T::0::",
		Long: "copyright enable= disable= external-encoding= internal-encoding= encoding= dump= jit yjit verbose version help backtrace-limit= crash-report="}
	nodeOptions = &OptionTable{Short: "e:p:r:cihv",
		Long: "eval= print= require= import= input-type= check interactive help version test watch env-file= conditions= loader= experimental-loader= inspect[=] inspect-brk[=] enable-source-maps no-warnings trace-warnings stack-trace-limit= max-old-space-size="}
	phpOptions = &OptionTable{Short: "aCc:d:ef:hilmnqr:svwzB:E:F:R:S:t:", Long: "ini info help version"}
)

// langNamed is the Lang whose String is name.
func langNamed(name string) (Lang, bool) {
	for _, l := range []Lang{Python, Perl, Ruby, JavaScript, PHP} {
		if l.String() == name {
			return l, true
		}
	}
	return 0, false
}

// interpreted reads the program an interpreter command was given in full:
// ScanCode lists what it does, recorded on the command's Code, and each
// command line the program runs is listed after the interpreter, as a
// command of its own (a shell line parsed as the script it is, an argv
// run as a program), so the guards judge `python -c "os.system('rm -rf
// /')"` as they judge rm -rf /. What is not known stays in Scan for the
// guards to refuse.
func (w *walker) interpreted(cmd *Command, c ctx, dir string) {
	code := cmd.Code
	lang, ok := langNamed(code.Lang)
	if !ok || !code.Text.Known {
		return
	}
	scan := ScanCode(lang, code.Text.Value)
	code.Scan = &scan
	for _, r := range scan.Runs {
		tag := cmd.Base() + " " + r.Call
		switch {
		case !r.Known || w.depth >= maxDepth:
		case r.Shell:
			w.inner(tag, r.Line.Value, syntax.LangBash, w.innerCtx(tag, nil, c, cmd.Wrappers), dir)
		case len(r.Argv) > 0:
			w.run(r.Argv, nil, w.innerCtx(tag, nil, c, cmd.Wrappers), dir)
		}
	}
}

// interpreterProgram finds where an interpreter takes its program from:
// an option's argument (-c, -e, -r), a script operand (a file this command
// line wrote, or a process substitution), or stdin. It returns nil for a
// script on disk, a module (-m), or a stdin the command line does not
// give.
func (w *walker) interpreterProgram(lang string, args []Word, c ctx, dir string) *Code {
	var l Line
	var codeOpts []Opt
	switch lang {
	case Python.String():
		l = pythonOptions.Parse(args)
		for _, o := range l.Opts {
			if o.Is('m', "") {
				return nil
			}
			if o.Is('c', "") && o.HasVal {
				codeOpts = append(codeOpts, o)
			}
		}
	case Perl.String():
		l = perlOptions.Parse(args)
		for _, o := range l.Opts {
			if (o.Is('e', "") || o.Is('E', "")) && o.HasVal {
				codeOpts = append(codeOpts, o)
			}
		}
	case Ruby.String():
		l = rubyOptions.Parse(args)
		for _, o := range l.Opts {
			if o.Is('e', "") && o.HasVal {
				codeOpts = append(codeOpts, o)
			}
		}
	case JavaScript.String():
		l = nodeOptions.Parse(args)
		for _, o := range l.Opts {
			if (o.Is('e', "eval") || o.Is('p', "print")) && o.HasVal {
				codeOpts = append(codeOpts, o)
			}
		}
	case PHP.String():
		l = phpOptions.Parse(args)
		for _, o := range l.Opts {
			if (o.Is('r', "") || o.Is('B', "") || o.Is('R', "") || o.Is('E', "")) && o.HasVal {
				codeOpts = append(codeOpts, o)
			}
			if o.Is('f', "") && o.HasVal {
				return w.scriptFile(lang, o.Val, c, dir)
			}
		}
	}
	if len(codeOpts) > 0 {
		text := Word{Known: true}
		var raws []string
		for i, o := range codeOpts {
			if i > 0 {
				text.Value += "\n"
			}
			text.Value += o.Val.Value
			text.Known = text.Known && o.Val.Known
			raws = append(raws, o.Val.Raw)
		}
		text.Raw = strings.Join(raws, " ")
		if len(codeOpts) == 1 {
			text = codeOpts[0].Val
		}
		code := &Code{Lang: lang, From: "-" + string(optLetter(codeOpts[0])), Text: text}
		for _, o := range codeOpts {
			if o.Val.spliced {
				return splicedCode(code)
			}
		}
		return code
	}
	if l.Rest < len(args) {
		op := args[l.Rest]
		if !(op.Known && stdinPath(op.Value)) {
			return w.scriptFile(lang, op, c, dir)
		}
	}
	return stdinCode(lang, c.stdin)
}

// stdinCode is the code a program reads on stdin: none when the line
// gives it nothing, or a file on disk (< script.sh, as script.sh).
func stdinCode(lang string, in *Input) *Code {
	if in == nil || in.disk {
		return nil
	}
	return &Code{Lang: lang, From: in.From, Text: in.Text}
}

func optLetter(o Opt) byte {
	if o.Short != 0 {
		return o.Short
	}
	return o.Long[0]
}

// scriptFile returns the code of a script operand when the command line
// made it: a file it wrote earlier, or a process substitution. A script
// that was on disk before returns nil: what it does is not seen.
func (w *walker) scriptFile(lang string, op Word, c ctx, dir string) *Code {
	if op.proc != nil {
		text := op.proc.word(op.Raw)
		text.Inner = op.Inner
		return &Code{Lang: lang, From: "<(...)", Text: text}
	}
	if s := w.file(op, dir); s != nil {
		return &Code{Lang: lang, From: "file", Text: s.word(op.Raw)}
	}
	if op.Known && stdinPath(op.Value) && op.Value != "-" && c.stdin != nil {
		return &Code{Lang: lang, From: c.stdin.From, Text: c.stdin.Text}
	}
	return nil
}

// shebangLang reads the language a script's #! line names: "sh" for a
// shell or none, an interpreter's language, or "" for another program.
func shebangLang(text string) string {
	line, ok := strings.CutPrefix(text, "#!")
	if !ok {
		return "sh"
	}
	line, _, _ = strings.Cut(line, "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return "sh"
	}
	prog := path.Base(f[0])
	if prog == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") {
				prog = a
				break
			}
		}
	}
	if isShell(prog) {
		return "sh"
	}
	return interpreterLang(prog)
}
