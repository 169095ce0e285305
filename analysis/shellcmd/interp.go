package shellcmd

import (
	"strings"
)

// Lang is the language of code handed to an interpreter (python3 -c,
// perl -e, node -e, ...): the shell guards judge what a command does, and
// an interpreter fed code does whatever the code says.
type Lang uint8

const (
	Python Lang = iota + 1
	Perl
	Ruby
	JavaScript // node, deno, bun
	PHP
)

func (l Lang) String() string {
	switch l {
	case Python:
		return "python"
	case Perl:
		return "perl"
	case Ruby:
		return "ruby"
	case JavaScript:
		return "javascript"
	case PHP:
		return "php"
	}
	return "?"
}

// interpreter is the language of the code a program runs, by its base name
// without a version suffix.
func interpreter(name string) (Lang, bool) {
	switch name {
	case "python", "pypy", "ipython":
		return Python, true
	case "perl":
		return Perl, true
	case "ruby", "jruby":
		return Ruby, true
	case "node", "nodejs", "deno", "bun":
		return JavaScript, true
	case "php":
		return PHP, true
	}
	return 0, false
}

// LangOf says which language a program runs: python, python3,
// python3.12, pypy3, perl, perl5.36, ruby, ruby3.2, node, nodejs, deno,
// bun, php, php8.2. program is a base name (Command.Base).
func LangOf(program string) (Lang, bool) {
	name := strings.TrimRight(program, "0123456789.")
	if name != program && !strings.ContainsAny(program[len(name):len(name)+1], "0123456789") {
		return 0, false // "python." is no version
	}
	return interpreter(name)
}

// CodeScan is what a static scan of interpreter code finds. It is a scan,
// not a run: what the code computes at run time is not known, and every
// place where that matters is reported as not known rather than left out,
// so that a guard can refuse what it cannot read.
type CodeScan struct {
	// Effects are what the code does to files, in the terms of
	// Command.Effects: Delete (Tree for a recursive delete: shutil.rmtree,
	// rm_rf, rmSync with recursive), Move, Read, Write, Meta, Link. A path
	// that is not a string literal is listed with Known false; its Value
	// and Raw are then the argument's source text.
	Effects []Effect
	// Runs are the commands the code runs.
	Runs []CodeRun
	// Opaque lists the constructs the scan cannot follow: code built at
	// run time and evaluated, modules loaded by a computed name, a module
	// that can delete files or run commands handed around as a value,
	// reflection, and code the scan gave up on. What such code does is
	// not known at all.
	Opaque []Opaque
}

// CodeRun is one command that interpreter code runs.
type CodeRun struct {
	// Call is the function that runs it, as the scan resolved it:
	// "subprocess.run", "child_process.execSync", "system", "`...`".
	Call string
	// Shell: Line is a command line handed to /bin/sh (os.system,
	// backticks, exec with shell=True). Otherwise Argv is the program and
	// its arguments, run without a shell.
	Shell bool
	Line  Word
	Argv  []Word
	// Known: the command is exactly known: Line.Known, or the list is a
	// literal and each of its elements Known. When the list itself is not
	// a literal, Argv is empty.
	Known bool
}

// Opaque is one construct that a scan cannot follow.
type Opaque struct {
	What string // what it is, for a person: "exec of code built at run time"
	Raw  string // its source text, cut to a readable length
}

// ScanCode reads code written in lang and lists, as far as a static scan
// can tell, the files it deletes, reads and writes, the commands it runs,
// and what it cannot follow. Code evaluated from a string literal (eval,
// exec, new Function, s///e) is scanned too, a few levels deep.
//
// It is a tokenizer that knows each language's strings, comments and
// interpolation, with a table of the functions that delete, read, write,
// run commands or evaluate code; not a parser. It does not see a program
// written to disk and run later, a script file's content (python3 x.py:
// the file is not read), values carried in variables (a path assigned to
// a variable and then deleted is a delete of a path not known), or code
// written to deceive a tokenizer. See docs/guards-interpreters.md.
func ScanCode(lang Lang, code string) CodeScan {
	var out CodeScan
	scanCode(lang, code, 0, &out)
	return out
}

// maxCodeDepth bounds how deep eval("...") of a literal is followed; each
// level is a substring of the one above, so the work stays linear.
const maxCodeDepth = 3

func scanCode(lang Lang, code string, depth int, out *CodeScan) {
	spec := langSpecOf(lang)
	switch {
	case spec == nil:
		out.Opaque = append(out.Opaque, Opaque{What: "code in a language the scan does not know", Raw: cut(code)})
		return
	case len(code) > maxCode:
		out.Opaque = append(out.Opaque, Opaque{What: "code too long to scan", Raw: cut(code)})
		return
	}
	b := &budget{left: workPerByte*len(code) + workBase}
	l := lex(lang, code, b)
	out.Opaque = append(out.Opaque, l.notes...)
	s := &scanner{lang: lang, spec: spec, src: code, toks: l.toks, out: out, depth: depth,
		done: make([]bool, len(l.toks)), alias: map[string]val{}, budget: b}
	s.run()
	for _, sub := range l.subs {
		s.evalCode(Word{Raw: sub.raw, Value: sub.code, Known: true}, sub.raw)
	}
}

// maxCode bounds the code a scan reads (its tokens take some twenty
// times its size): a longer program is not read at all.
const maxCode = 1 << 20

// The work a scan may do: every step of the tokenizer's look-aheads and
// of the scanner's walks over tokens takes one. Ordinary and pathological
// code alike stay far below it (TestScanCodeLinear); code built to make a
// step superlinear runs out, and is reported as too complex.
const (
	workPerByte = 64
	workBase    = 4096
)

type budget struct{ left int }

// take spends n steps and reports whether any were left.
func (b *budget) take(n int) bool {
	b.left -= n
	return b.left >= 0
}

// cut shortens source text for a message.
func cut(s string) string {
	const max = 80
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && s[i]&0xc0 == 0x80 { // not inside a UTF-8 sequence
		i--
	}
	return s[:i] + "…"
}
