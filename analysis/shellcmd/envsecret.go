package shellcmd

import (
	"github.com/massgen/massgen-hook/internal/lazy"
	"regexp"
	"strings"
)

// A secret in an environment variable is read when a command prints it:
// its value lands in the transcript as surely as a file's. Printing is
// what echo, printf and print do with their arguments, printenv with the
// names it is given, and env, printenv, set, export -p and declare -x with
// no names (they print every variable). The output piped into a program
// that only counts or filters it by a pattern with no secret word in it
// (wc, grep python) is not printed; one piped into a program that passes
// text through (cat, base64, tr, ...) still is.

// SecretPrint is one command that prints a secret environment variable,
// or every variable.
type SecretPrint struct {
	Cmd *Command
	// Var is the variable printed, "" for a dump of every variable.
	Var string
}

// secretWords are the parts of a variable's name (split at _) that mark
// it as a secret: OPENAI_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
// DB_PASSWORD, NPM_AUTH.
var secretWords = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"KEY": true, "KEYS": true, "APIKEY": true, "TOKEN": true, "TOKENS": true, "SECRET": true, "SECRETS": true,
		"PASSWORD": true, "PASSWD": true, "PASS": true, "PASSPHRASE": true, "CREDENTIAL": true,
		"CREDENTIALS": true, "CREDS": true, "PRIVATE": true, "AUTH": true, "COOKIE": true, "PAT": true,
	}
}}

// SecretName reports whether a variable's name marks it as a secret.
func SecretName(name string) bool {
	for _, part := range strings.Split(strings.ToUpper(name), "_") {
		if secretWords.Get()[part] {
			return true
		}
	}
	return false
}

// varRef finds the variables a word's unknown text refers to.
var varRef = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`\$\{?!?([A-Za-z_][A-Za-z0-9_]*)`) }}

// secretVars are the secret-named variables whose values a word would
// hold: only in a word that is not known (a single-quoted "$X" is text).
func secretVars(w Word) []string {
	if w.Known {
		return nil
	}
	var out []string
	for _, m := range varRef.Get().FindAllStringSubmatch(w.Value, -1) {
		if SecretName(m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// SecretPrints lists the commands of s that print a secret environment
// variable, or every variable.
func SecretPrints(s *Script) []SecretPrint {
	var out []SecretPrint
	for i, c := range s.Commands {
		p, ok := printsSecret(c)
		if !ok || consumed(s.Commands, i, p.Var == "") {
			continue
		}
		out = append(out, p)
	}
	return out
}

// printsSecret says whether c prints a secret variable or every variable.
func printsSecret(c *Command) (SecretPrint, bool) {
	operands := func() []Word {
		var ops []Word
		for _, a := range c.Args {
			if !a.Known || !strings.HasPrefix(a.Value, "-") {
				ops = append(ops, a)
			}
		}
		return ops
	}
	switch c.Base() {
	case "echo", "printf", "print":
		for _, a := range c.Args {
			if v := secretVars(a); len(v) > 0 {
				return SecretPrint{Cmd: c, Var: v[0]}, true
			}
		}
	case "printenv":
		ops := operands()
		if len(ops) == 0 {
			return SecretPrint{Cmd: c}, true
		}
		for _, a := range ops {
			if !a.Known || SecretName(a.Value) {
				return SecretPrint{Cmd: c, Var: a.Value}, true
			}
		}
	case "env":
		// env runs its command when it has one: the walker lists that
		// command instead, so an env listed here runs nothing and prints.
		for _, a := range c.Args {
			if !strings.HasPrefix(a.Value, "-") && !strings.Contains(a.Value, "=") {
				return SecretPrint{}, false
			}
		}
		return SecretPrint{Cmd: c}, true
	case "set":
		if len(c.Args) == 0 {
			return SecretPrint{Cmd: c}, true
		}
	case "export", "declare", "typeset":
		names := 0
		dump := len(c.Args) == 0
		for _, a := range c.Args {
			switch {
			case !a.Known:
				names++
			case a.Value == "-p" || c.Base() != "export" && (a.Value == "-x" || a.Value == "-px" || a.Value == "-xp"):
				dump = true
			case !strings.HasPrefix(a.Value, "-"):
				names++
			}
		}
		if dump && names == 0 {
			return SecretPrint{Cmd: c}, true
		}
	}
	return SecretPrint{}, false
}

// consumed reports whether the output of the command at i goes, through a
// pipe, to a program that does not pass it on: wc, or (for a dump) grep
// with a literal pattern and no secret word in it, which prints only the
// lines it matches.
func consumed(cmds []*Command, i int, dump bool) bool {
	c := cmds[i]
	if c.Stages < 2 || c.Stage == c.Stages-1 || stdoutToFile(c) {
		return false
	}
	for _, n := range cmds[i+1:] {
		if n.Pipeline != c.Pipeline || n.Stage != c.Stage+1 {
			continue
		}
		switch n.Base() {
		case "wc":
			return true
		case "grep", "egrep", "fgrep", "rg":
			return dump && grepPatternHarmless(n)
		}
		return !passesOn(n.Base())
	}
	return false
}

// passesOn: programs that print what they read, whole or transformed.
func passesOn(base string) bool {
	switch base {
	case "cat", "tee", "base64", "base32", "xxd", "od", "hexdump", "rev", "tr", "sed", "awk", "gawk",
		"head", "tail", "cut", "fold", "sort", "uniq", "nl", "paste", "less", "more", "column",
		"jq", "strings", "tac", "fmt", "expand", "iconv", "gzip", "bzip2", "xz", "openssl", "grep",
		"egrep", "fgrep", "rg", "xargs", "sh", "bash", "zsh", "dash", "python", "python3", "perl",
		"ruby", "node", "":
		return true
	}
	return false
}

// grepPatternHarmless: a grep given one known pattern with no secret
// word in it, not inverted (-v prints every other line).
func grepPatternHarmless(g *Command) bool {
	pattern := ""
	for i := 0; i < len(g.Args); i++ {
		a := g.Args[i]
		if !a.Known {
			return false
		}
		switch {
		case a.Value == "-e" || a.Value == "--regexp" || a.Value == "-f" || a.Value == "--file":
			return false
		case strings.HasPrefix(a.Value, "--invert") || strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.Contains(a.Value, "v"):
			return false
		case strings.HasPrefix(a.Value, "-"):
		case pattern == "":
			pattern = a.Value
		default:
			return false // a file operand: it greps that, not the input
		}
	}
	if pattern == "" {
		return false
	}
	for _, part := range nonWord.Get().Split(strings.ToUpper(pattern), -1) {
		if secretWords.Get()[part] {
			return false
		}
		for _, w := range secretStems {
			if strings.Contains(part, w) {
				return false
			}
		}
	}
	return true
}

var nonWord = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9]+`) }}

// secretStems are the secret words a grep pattern may hold inside a
// longer word (apikey, passwd, credentials).
var secretStems = []string{"KEY", "TOKEN", "SECRET", "PASS", "CRED", "AUTH", "PRIVATE", "COOKIE"}

// stdoutToFile reports whether c's standard output goes to a file rather
// than down its pipe: what it prints is then kept there, not consumed.
func stdoutToFile(c *Command) bool {
	for _, r := range c.Redirects {
		switch {
		case r.Op == "&>" || r.Op == "&>>":
			return true
		case (r.Fd == "" || r.Fd == "1") && (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == ">&"):
			return true
		}
	}
	return false
}
