package guard

import (
	"os/exec"
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// A line sent to a running process (Desktop Commander's
// interact_with_process, the table's "input" role) may be Bash or code of
// another language: what the guards read in it besides Bash.

// isBash reports whether line parses as Bash.
func isBash(line string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	return err == nil
}

// codeNames are the names a line of code may open files by: each
// quoted string, as written and with its escapes undone ("\x2eenv" is
// .env), and each word outside quotes and comments (between spaces and
// punctuation); .env when it loads one by the dotenv libraries' idiom.
// A name that holds a glob's characters (*, ?, [) is none: code does not
// expand them (SELECT * FROM t, a * b). The quoted strings that read as
// a command line (a program on PATH, then its arguments: os.system) are
// commands it may run.
func codeNames(line string) (names, commands []string) {
	var code []string
	for _, l := range strings.Split(line, "\n") {
		if t := strings.TrimSpace(l); !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "//") {
			code = append(code, l)
		}
	}
	line = strings.Join(code, "\n")
	var outside strings.Builder
	for rest := line; ; {
		i := strings.IndexAny(rest, "'\"`")
		if i < 0 {
			outside.WriteString(rest)
			break
		}
		outside.WriteString(rest[:i])
		outside.WriteByte(' ')
		q := rest[i]
		end := i + 1
		for end < len(rest) && rest[end] != q {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(rest) {
			outside.WriteString(rest[i+1:])
			break
		}
		lit := rest[i+1 : end]
		names = append(names, lit)
		if u := unescapeLiteral(lit); u != lit {
			names = append(names, u)
		}
		if commandLineText(lit) {
			commands = append(commands, lit)
		}
		rest = rest[end+1:]
	}
	names = append(names, strings.FieldsFunc(outside.String(), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("()[]{},;=+*%<>|&!^:", r) // not / ~ - . _: a path's
	})...)
	if strings.Contains(line, "load_dotenv") || strings.Contains(line, "dotenv_values") || strings.Contains(line, `dotenv").config(`) || strings.Contains(line, `dotenv').config(`) ||
		strings.Contains(line, "dotenv/config") {
		names = append(names, ".env")
	}
	kept := names[:0]
	for _, n := range names {
		if n != "" && !strings.ContainsAny(n, "*?[") {
			kept = append(kept, n)
		}
	}
	return kept, commands
}

// commandLineText reports whether a string in code reads as a command
// line: it parses as Bash, holds a space, and starts with a program on
// PATH (a sentence such as "add .env to gitignore" does not).
func commandLineText(s string) bool {
	fields := strings.Fields(s)
	if len(fields) < 2 || !isBash(s) {
		return false
	}
	_, err := exec.LookPath(fields[0])
	return err == nil
}

// bashLine reports whether a line sent to a process is judged as Bash:
// it parses as Bash, and is not an assignment in another language (x =
// 'id_rsa' would run a program x in Bash, which no one types there), nor
// a line with a glob's characters that starts with no program or shell
// word (SELECT * FROM t; from os import *; 2 * 3), whose * would be
// expanded as Bash expands it.
func bashLine(line string) bool {
	f := strings.Fields(line)
	if len(f) > 1 && f[1] == "=" {
		return false
	}
	if len(f) > 0 && strings.ContainsAny(line, "*?[") && !slices.Contains(shellWords, f[0]) {
		if _, err := exec.LookPath(f[0]); err != nil {
			return false
		}
	}
	return isBash(line)
}

// shellWords are Bash's keywords and the builtins a line typed into a
// shell starts with.
var shellWords = []string{"if", "for", "while", "until", "case", "select", "function", "{", "(", "[[", "[", "!",
	"cd", "echo", "printf", "export", "unset", "set", "shopt", "source", ".", "eval", "exec", "read", "test",
	"alias", "local", "declare", "typeset", "let", "pushd", "popd", "type", "command", "builtin", "time"}

// unescapeLiteral undoes the escapes of a string literal that Python and
// JavaScript share with C: \xHH, \uHHHH, \u{H...}, octal \NNN, and a
// backslash before any other character.
func unescapeLiteral(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		digits := func(from, n, base int) (int, int) {
			v, k := 0, 0
			for ; k < n && from+k < len(s); k++ {
				d := strings.IndexByte("0123456789abcdef"[:base], lower(s[from+k]))
				if d < 0 {
					break
				}
				v = v*base + d
			}
			return v, k
		}
		switch c := s[i]; {
		case c == 'u' && i+1 < len(s) && s[i+1] == '{':
			if end := strings.IndexByte(s[i:], '}'); end > 0 {
				if v, k := digits(i+2, end-2, 16); k == end-2 && k > 0 {
					b.WriteRune(rune(v))
					i += end
					continue
				}
			}
			b.WriteByte(c)
		case c == 'x' || c == 'u':
			width := 2 // \xHH
			if c == 'u' {
				width = 4 // \uHHHH
			}
			if v, k := digits(i+1, width, 16); k == width {
				b.WriteRune(rune(v))
				i += width
				continue
			}
			b.WriteByte(c)
		case '0' <= c && c <= '7':
			v, k := digits(i, 3, 8)
			b.WriteRune(rune(v))
			i += k - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// lower is an ASCII letter in lower case.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// bareWord reports whether a name in code is a bare word: no /, and not
// .name or ~..., which names a file only when it is there.
func bareWord(p string) bool {
	return !strings.ContainsRune(p, '/') && !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "~")
}
