package shellcmd

import (
	"regexp"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// awk and sed programs can do what their command line does not show: awk
// runs commands (system(), a pipe to or from a command) and reads and
// writes files by name (getline < "f", print > "f"); GNU sed runs commands
// (the e command, the s///e flag) and reads and writes files (r, R, w, W,
// s///w). The files a literal program names are its effects; a program
// that runs commands is code whose commands are only known at run time
// (they are built from the input), so the guards refuse it. A program from
// a file (-f) is a script on disk, which is not read.

// awkScript returns awk's program from the command line, if it has one;
// l is args parsed by awkOptions.
func awkScript(l Line, args []Word) (Word, bool) {
	if l.Has('f', "file") || l.Has('E', "exec") {
		return Word{}, false
	}
	if src := l.Vals('e', "source"); len(src) > 0 {
		return src[0], true
	}
	if ops := args[l.Rest:]; len(ops) > 0 {
		return ops[0], true
	}
	return Word{}, false
}

// sedScripts returns sed's scripts from the command line; l is its
// arguments parsed by sedOptions (after bsdInPlace).
func sedScripts(l Line) []Word {
	if scripts := l.Vals('e', "expression"); len(scripts) > 0 || l.Has('f', "file") {
		return scripts
	}
	if len(l.Operands) > 0 {
		return l.Operands[:1]
	}
	return nil
}

// awkPatterns are compiled on first use: a hook that never sees awk never
// pays for them.
var awkPatterns = &lazy.Value[awkRegexps]{New: func() (p awkRegexps) {
	p.runs = regexp.MustCompile(`\bsystem\s*\(|\|\s*getline|\|&|\b(?:print|printf)\b[^;{}\n]*[^|]\|[^|]`)
	p.writes = regexp.MustCompile(`\b(?:print|printf)\b[^;{}\n]*?>>?\s*"([^"]*)"`)
	p.reads = regexp.MustCompile(`\bgetline\b[^;{}\n]*?<\s*"([^"]*)"`)
	return p
}}

type awkRegexps struct{ runs, writes, reads *regexp.Regexp }

// awkProgram reads a known awk program: the files it names, and whether
// it runs commands.
func awkProgram(text string) (effects []Effect, runs bool) {
	p := awkPatterns.Get()
	for _, m := range p.writes.FindAllStringSubmatch(text, -1) {
		effects = append(effects, Effect{Op: Write, Path: Word{Raw: m[1], Value: m[1], Known: true}})
	}
	for _, m := range p.reads.FindAllStringSubmatch(text, -1) {
		effects = append(effects, Effect{Op: Read, Path: Word{Raw: m[1], Value: m[1], Known: true}})
	}
	return effects, p.runs.MatchString(text)
}

// sedProgram reads a known sed script command by command (GNU sed 4):
// the files its r, R, w, W commands and s///w flags name, and whether an e
// command or an s///e flag runs a command.
func sedProgram(text string) (effects []Effect, runs bool) {
	file := func(op Op, name string) {
		name = strings.TrimSpace(name)
		effects = append(effects, Effect{Op: op, Path: Word{Raw: name, Value: name, Known: name != ""}})
	}
	s := sedScanner{text: text}
	for s.next() {
		switch cmd := s.command(); cmd {
		case 'e':
			runs = true
			s.toEOL()
		case 'r', 'R':
			file(Read, s.toEOL())
		case 'w', 'W':
			file(Write, s.toEOL())
		case 's':
			flags, w := s.substitution()
			if strings.ContainsRune(flags, 'e') {
				runs = true
			}
			if w != "" || strings.ContainsRune(flags, 'w') {
				file(Write, w)
			}
		case 'y':
			s.delimited(2)
		case 'a', 'i', 'c', ':', 'b', 't', 'T', 'l', 'L', 'q', 'Q', 'v':
			s.toEnd(cmd == 'a' || cmd == 'i' || cmd == 'c')
		}
	}
	return effects, runs
}

// sedScanner walks a sed script.
type sedScanner struct {
	text string
	i    int
}

// next skips separators and addresses to the next command; false at the end.
func (s *sedScanner) next() bool {
	for s.i < len(s.text) {
		switch c := s.text[s.i]; {
		case c == ';' || c == '\n' || c == ' ' || c == '\t' || c == '{' || c == '}' || c == '!' || c == ',' || c == '~' || c == '$' || c >= '0' && c <= '9':
			s.i++
		case c == '/':
			s.i++
			s.until('/')
		case c == '\\' && s.i+1 < len(s.text):
			d := s.text[s.i+1]
			s.i += 2
			s.until(d)
		case c == '#':
			s.toEOL()
		default:
			return true
		}
	}
	return false
}

func (s *sedScanner) command() byte {
	c := s.text[s.i]
	s.i++
	return c
}

// until moves past the next unescaped delimiter d.
func (s *sedScanner) until(d byte) {
	for s.i < len(s.text) {
		c := s.text[s.i]
		s.i++
		if c == '\\' && s.i < len(s.text) {
			s.i++
			continue
		}
		if c == d {
			return
		}
	}
}

// toEOL returns the rest of the line: a file name or command text.
func (s *sedScanner) toEOL() string {
	start := s.i
	for s.i < len(s.text) && s.text[s.i] != '\n' {
		s.i++
	}
	return s.text[start:s.i]
}

// toEnd skips a command's argument: text to the end of the line (a, i, c)
// or a label or number to the next ; or line.
func (s *sedScanner) toEnd(text bool) {
	for s.i < len(s.text) && s.text[s.i] != '\n' && (text || s.text[s.i] != ';' && s.text[s.i] != '}') {
		s.i++
	}
}

// delimited skips n parts of a command delimited by the character after it.
func (s *sedScanner) delimited(n int) {
	if s.i >= len(s.text) {
		return
	}
	d := s.text[s.i]
	s.i++
	for range n {
		s.until(d)
	}
}

// substitution skips s's pattern and replacement and returns its flags,
// with the file of a w flag, which runs to the end of the line.
func (s *sedScanner) substitution() (flags, file string) {
	s.delimited(2)
	start := s.i
	for s.i < len(s.text) && strings.IndexByte(";\n}", s.text[s.i]) < 0 {
		if s.text[s.i] == 'w' {
			flags = s.text[start : s.i+1]
			s.i++
			return flags, s.toEOL()
		}
		s.i++
	}
	return s.text[start:s.i], ""
}

// editorCode is the code an awk program or a sed script runs: nil when it
// runs no command, else shell code only known at run time (the commands
// are built from the input, or the program itself is not known).
func editorCode(base string, args []Word) *Code {
	switch base {
	case "awk", "gawk", "mawk", "nawk":
		prog, ok := awkScript(awkOptions.Parse(args), args)
		if !ok {
			return nil
		}
		if _, runs := awkProgram(prog.Value); runs || !prog.Known {
			return &Code{Lang: "sh", From: "awk", Text: Word{Raw: prog.Raw, Value: prog.Raw}}
		}
	case "sed", "gsed":
		for _, sc := range sedScripts(sedOptions.Parse(bsdInPlace(args))) {
			if _, runs := sedProgram(sc.Value); runs || !sc.Known {
				return &Code{Lang: "sh", From: "sed", Text: Word{Raw: sc.Raw, Value: sc.Raw}}
			}
		}
	}
	return nil
}
