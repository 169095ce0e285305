package shellcmd

import (
	"strings"
	"unicode/utf8"
)

// The parser keeps backslashes as written; these undo them the way bash
// does inside each kind of quoting.

// dqUnescape writes s, a literal inside double quotes, where a backslash
// only quotes $ ` " \ and newline.
func dqUnescape(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue // line continuation
			}
		}
		b.WriteByte(s[i])
	}
}

// ansiC writes the value of $'s': bash's ANSI-C escapes decoded. An
// unknown escape stays as written, as in bash.
func ansiC(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			} else {
				b.WriteString(`\c`)
			}
		case 'x', 'u', 'U':
			width := 2
			if c == 'u' {
				width = 4
			} else if c == 'U' {
				width = 8
			}
			v, n := digits(s[i+1:], 16, width)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
				break
			}
			i += n
			if c == 'x' {
				b.WriteByte(byte(v))
			} else if utf8.ValidRune(rune(v)) {
				b.WriteRune(rune(v))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := digits(s[i:], 8, 3)
			i += n - 1
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
}

// digits reads up to width digits of base from the start of s.
func digits(s string, base, width int) (v, n int) {
	for n < width && n < len(s) {
		d := digitVal(s[n])
		if d < 0 || d >= base {
			break
		}
		v = v*base + d
		n++
	}
	return v, n
}

func digitVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
