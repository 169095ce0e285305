package shellcmd

import (
	"path"

	"mvdan.cc/sh/v3/syntax"
)

// Absent is a path a command runs only without: the statement around it
// tests that the path exists and runs the command when the test fails,
// as in `[ -f .env ] || cp .env.example .env` or `[ ! -e out ] && mkdir
// out`. File: the test is -f (a regular file, links followed); otherwise
// -e (anything).
type Absent struct {
	Path string // absolute, cleaned
	File bool
}

// Skipped reports whether the effect e of c can never happen: its path is
// one that c runs only without, and exists(path, file) says it exists
// now. Only the effect on the tested path itself is skipped; whatever
// else c does is judged as usual. A caller asks only about paths that no
// command it lets through can remove (protected ones), or another call
// could remove the path between the check and the run.
func (c *Command) Skipped(e Effect, exists func(abs string, file bool) bool) bool {
	if len(c.OnlyIfAbsent) == 0 {
		return false
	}
	p, ok := absPath(e.Path, c.Dir)
	if !ok {
		return false
	}
	for _, a := range c.OnlyIfAbsent {
		if a.Path == p && exists(a.Path, a.File) {
			return true
		}
	}
	return false
}

// existsTest reads s as a test of whether one literal path exists:
// `[ -f P ]`, `[ -e P ]`, `test -f P`, `[[ -e P ]]`, or their negation
// with `!`. It returns the path made absolute from dir, whether the test
// is -f, and whether it is negated.
func existsTest(s *syntax.Stmt, dir string) (a Absent, negated, ok bool) {
	if s == nil || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || dir == "" {
		return Absent{}, false, false
	}
	var op, operand string
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Assigns) > 0 {
			return Absent{}, false, false
		}
		var words []string
		for _, w := range x.Args {
			v, lit := literalWord(w)
			if l := w.Lit(); l == "[" || l == "]" {
				v, lit = l, true
			}
			if !lit {
				return Absent{}, false, false
			}
			words = append(words, v)
		}
		switch {
		case len(words) > 0 && words[0] == "[" && words[len(words)-1] == "]":
			words = words[1 : len(words)-1]
		case len(words) > 0 && words[0] == "test":
			words = words[1:]
		default:
			return Absent{}, false, false
		}
		if len(words) == 3 && words[0] == "!" {
			negated, words = true, words[1:]
		}
		if len(words) != 2 {
			return Absent{}, false, false
		}
		op, operand = words[0], words[1]
	case *syntax.TestClause:
		u, isUnary := x.X.(*syntax.UnaryTest)
		if isUnary && u.Op == syntax.TsNot {
			negated = true
			u, isUnary = u.X.(*syntax.UnaryTest)
		}
		if !isUnary {
			return Absent{}, false, false
		}
		w, isWord := u.X.(*syntax.Word)
		if !isWord {
			return Absent{}, false, false
		}
		v, lit := literalWord(w)
		if !lit {
			return Absent{}, false, false
		}
		switch u.Op {
		case syntax.TsRegFile:
			op = "-f"
		case syntax.TsExists:
			op = "-e"
		}
		operand = v
	default:
		return Absent{}, false, false
	}
	if op != "-f" && op != "-e" || operand == "" {
		return Absent{}, false, false
	}
	p := operand
	if !path.IsAbs(p) {
		p = path.Join(dir, p)
	}
	return Absent{Path: path.Clean(p), File: op == "-f"}, negated, true
}

// literalWord is the value of a word made only of plain text and quotes
// around plain text: no expansion, glob or tilde, so it means the same
// whatever the shell's state.
func literalWord(w *syntax.Word) (string, bool) {
	s := ""
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			for _, r := range x.Value {
				switch r {
				case '*', '?', '[', '~', '\\', '$', '{':
					return "", false
				}
			}
			s += x.Value
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			s += x.Value
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit {
					return "", false
				}
				for _, r := range l.Value {
					if r == '\\' || r == '$' || r == '`' {
						return "", false
					}
				}
				s += l.Value
			}
		default:
			return "", false
		}
	}
	return s, true
}

// withAbsent returns c with one more path its commands run only without.
func (c ctx) withAbsent(a Absent) ctx {
	c.absent = appendClip(c.absent, a)
	return c
}
