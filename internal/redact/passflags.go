package redact

import (
	"path"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Rule 6: passwords that programs take by a flag whose name says nothing
// (redis-cli -a, sshpass -p, docker login -p, mysql -pSECRET). A -p or -a
// alone means nothing, so the rule reads the command line: it finds each
// simple command's program (after assignments and wrappers such as sudo
// and env) and reads that program's flags only, as the program does.

// passFlags says how one program takes a password.
type passFlags struct {
	next     []string // flags whose value is the next word: -a, --pass
	attached string   // a flag whose value may follow it in the same word: -pSECRET
	// sub: the flags count only after this subcommand (docker login).
	sub string
	// opts: the flags count only among the program's own options, before
	// its first operand: sshpass -p X ssh -p 22 runs ssh with its own -p.
	opts bool
	// valued are the program's other options that take the next word as
	// their value, so that value is not taken for an operand.
	valued []string
}

var (
	loginFlags   = &passFlags{next: []string{"-p"}, attached: "-p", sub: "login"}
	mysqlFlags   = &passFlags{attached: "-p"} // -p alone prompts, and -p NAME names the database
	passPrograms = &lazy.Value[map[string]*passFlags]{New: func() map[string]*passFlags {
		return map[string]*passFlags{
			"redis-cli": {next: []string{"-a", "--pass"}},
			"sshpass":   {next: []string{"-p"}, attached: "-p", opts: true, valued: []string{"-f", "-d", "-P"}},
			"docker":    loginFlags, "podman": loginFlags, "nerdctl": loginFlags, "buildah": loginFlags,
			"mysql": mysqlFlags, "mysqldump": mysqlFlags, "mysqladmin": mysqlFlags, "mysqlimport": mysqlFlags,
			"mysqlshow": mysqlFlags, "mysqlcheck": mysqlFlags, "mysqlpump": mysqlFlags, "mysqlslap": mysqlFlags,
			"mysqlbinlog": mysqlFlags, "mariadb": mysqlFlags, "mariadb-dump": mysqlFlags,
			"mariadb-admin": mysqlFlags, "mariadb-import": mysqlFlags, "mariadb-show": mysqlFlags,
			"mariadb-check": mysqlFlags, "mariadb-slap": mysqlFlags,
		}
	}}
	// wrappers run the command after them (and their own options).
	wrappers = &lazy.Value[map[string]bool]{New: func() map[string]bool {
		return map[string]bool{
			"sudo": true, "doas": true, "env": true, "exec": true, "nohup": true, "time": true,
			"command": true, "nice": true, "ionice": true, "timeout": true, "stdbuf": true, "xargs": true,
		}
	}}
)

// maxQuoteDepth bounds how deep quoted command lines are read
// (bash -c "ssh h 'redis-cli -a x'").
const maxQuoteDepth = 4

// cmdState is where a simple command is in its words.
type cmdState struct {
	prefix   bool       // before the program: assignments, wrappers and their options
	afterOpt bool       // the previous prefix word was an option, which may take this word
	prog     *passFlags // the program's flags, or nil when it takes none
	inSub    bool       // the subcommand was seen (or none is needed)
	lastOpt  bool       // the previous word was an option
	skip     bool       // this word is the value of an option that is not a password
	maskNext bool       // this word is the password
}

func (c *cmdState) reset() { *c = cmdState{prefix: true} }

// maskPasswordFlags applies rule 6. A word that opens with a quote is a
// command line of its own (sh -c "mysql -pX") and is read as one.
func maskPasswordFlags(s string, depth int) string {
	var b []byte
	copied := 0
	var c cmdState
	c.reset()
	mask := func(vs, ve int) {
		if vs >= ve || vs < copied || s[vs:ve] == Mask {
			return
		}
		b = append(b, s[copied:vs]...)
		b = append(b, Mask...)
		copied = ve
	}
	for i := 0; i < len(s); {
		switch ch := s[i]; {
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
			continue
		case ch == '\n' || isOneOf(ch, ";|&()`"):
			c.reset()
			i++
			continue
		}
		ws := i
		we := wordEnd(s, i)
		i = we
		word := s[ws:we]
		switch {
		case c.maskNext:
			c.maskNext = false
			vs, ve := unquoted(s, ws, we)
			mask(vs, ve)
			continue
		case c.skip:
			c.skip = false
			continue
		}
		if isQuote(word[0]) && depth < maxQuoteDepth {
			// A quoted word may be a command line: mask inside it.
			vs, ve := unquoted(s, ws, we)
			if inner := maskPasswordFlags(s[vs:ve], depth+1); inner != s[vs:ve] {
				b = append(b, s[copied:vs]...)
				b = append(b, inner...)
				copied = ve
			}
		}
		if c.prefix {
			c.program(word)
			continue
		}
		if c.prog == nil {
			continue
		}
		if vs, ok := c.flag(word); ok {
			mask(unquoted(s, ws+vs, we)) // -p'a b' keeps its quotes, as rule 2 does
		}
	}
	if b == nil {
		return s
	}
	return string(append(b, s[copied:]...))
}

// program reads a word before the program: an assignment, a wrapper or
// its option (or the option's value), or the program itself.
func (c *cmdState) program(word string) {
	base := path.Base(unquote(word))
	if p, ok := passPrograms.Get()[base]; ok {
		c.prefix, c.prog, c.inSub = false, p, p.sub == ""
		return
	}
	switch {
	case isAssign(word), wrappers.Get()[base]:
		c.afterOpt = false
	case strings.HasPrefix(word, "-"):
		c.afterOpt = !strings.Contains(word, "=")
	case c.afterOpt:
		c.afterOpt = false // sudo -u root: the option's value
	default:
		c.prefix = false // a program that takes no password by a flag
	}
}

// flag reads one of the program's words. It reports the offset of a
// password attached to the word, if there is one.
func (c *cmdState) flag(word string) (int, bool) {
	p := c.prog
	isOpt := strings.HasPrefix(word, "-") && word != "-"
	if !c.inSub {
		switch {
		case word == p.sub:
			c.inSub = true
		case !isOpt && !c.lastOpt:
			c.prog = nil // another subcommand: docker run -p 8080:80
		}
		c.lastOpt = isOpt && !strings.Contains(word, "=")
		return 0, false
	}
	if !isOpt {
		if p.opts {
			c.prog = nil // the first operand: what follows is another command's
		}
		return 0, false
	}
	for _, f := range p.next {
		if word == f {
			c.maskNext = true
			return 0, false
		}
	}
	for _, f := range p.valued {
		if word == f {
			c.skip = true
			return 0, false
		}
	}
	if a := p.attached; a != "" && len(word) > len(a) && strings.HasPrefix(word, a) {
		return len(a), true
	}
	return 0, false
}

// wordEnd finds the end of the shell word at i: quotes and backslashes
// keep blanks and separators inside it.
func wordEnd(s string, i int) int {
	for i < len(s) {
		switch ch := s[i]; {
		case ch == '\\':
			i += 2
			continue
		case ch == '\'' || ch == '"':
			j := strings.IndexByte(s[i+1:], ch)
			if ch == '"' {
				j = closingDQ(s, i+1)
			}
			if j < 0 {
				return len(s)
			}
			i += j + 2
			continue
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || isOneOf(ch, ";|&()`"):
			return i
		}
		i++
	}
	return min(i, len(s))
}

// closingDQ finds the closing double quote after from, past backslash
// escapes, relative to from; -1 when there is none.
func closingDQ(s string, from int) int {
	for j := from; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j - from
		}
	}
	return -1
}

// unquoted is the span of a word's value: inside its quotes when the
// whole word is one quoted string.
func unquoted(s string, ws, we int) (int, int) {
	if we-ws >= 2 && isQuote(s[ws]) && s[we-1] == s[ws] {
		return ws + 1, we - 1
	}
	return ws, we
}

func unquote(w string) string {
	if len(w) >= 2 && isQuote(w[0]) && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1]
	}
	return w
}

// isAssign reports NAME=value.
func isAssign(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		if !isIdent(w[i]) || w[i] == '-' {
			return false
		}
	}
	return true
}
