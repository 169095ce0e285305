package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// KeepsGlobDefaults reports whether running src surely leaves the shell's
// file name expansion as the shell started with it: nothing in src can
// turn on bash's dotglob (shopt, GLOBIGNORE, BASHOPTS) or zsh's GLOB_DOTS
// (setopt, set -o, the options array) before a glob of it is expanded.
//
// Both shells can assign a variable whose name is built at run time in
// more places than a parser can follow: arithmetic (((GLOBIGNORE=1)),
// an index a[x] whose x holds an assignment, a special variable such as
// RANDOM whose value is evaluated, zsh's numeric arguments), prompts
// (PS4, ${x@P}), zsh's glob qualifiers. So src must be literal: no
// expansion of any kind ($x, $(...), $((...)), an extended glob), no
// assignment, no arithmetic; every command a program (it runs in a
// process of its own and cannot change the shell) or one of the few
// builtins that leave the shell alone (see plainBuiltin); no name or
// text that spells dotglob, GLOB_DOTS or GLOBIGNORE. Quotes, pipes,
// lists, redirections to files, loops and branches are literal too. A
// source bash cannot parse is not surely anything.
//
// A word run by a shell that src starts (bash -c '...') is expanded by
// that shell, whose options the command line can set with its own
// flags: the caller looks at the word's wrappers for that.
func KeepsGlobDefaults(src string) bool {
	if MentionsGlobbing(src) {
		return false
	}
	f, err := parse(src, syntax.LangBash, false)
	if err != nil {
		return false
	}
	keeps := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !keeps {
			return false
		}
		switch n := n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob,
			*syntax.Assign, *syntax.DeclClause, *syntax.ArithmCmd, *syntax.LetClause, *syntax.WordIter,
			*syntax.ArrayExpr, *syntax.TestDecl, *syntax.CoprocClause:
			keeps = false
		case *syntax.ForClause: // select prompts with PS3; for ((...)) is arithmetic
			keeps = !n.Select
		case *syntax.BinaryTest: // [[ a -eq b ]] evaluates both sides as arithmetic
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				keeps = false
			}
		case *syntax.UnaryTest: // [[ -v a[x] ]]: the index is arithmetic
			keeps = n.Op != syntax.TsVarSet && n.Op != syntax.TsRefVar
		case *syntax.Redirect: // cmd {GLOBIGNORE}>f sets the variable to a file descriptor
			keeps = n.N == nil || !strings.HasPrefix(n.N.Value, "{")
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				keeps = plainCall(n.Args)
			}
		}
		return keeps
	})
	return keeps
}

// MentionsGlobbing reports whether text names an option or variable that
// changes what a glob matches (dotglob, GLOB_DOTS, GLOBIGNORE, BASHOPTS)
// in any spelling: quotes, backslashes, case and zsh's underscores
// dropped. A name built at run time passes it.
func MentionsGlobbing(text string) bool {
	norm := strings.Map(func(r rune) rune {
		switch r {
		case '"', '\'', '\\', '_':
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, text)
	for _, name := range []string{"dotglob", "globdots", "globignore", "bashopts"} {
		if strings.Contains(norm, name) {
			return true
		}
	}
	return false
}

// plainCall: a command whose name is written out and cannot change the
// shell's globbing: a program, or a builtin that leaves it alone.
func plainCall(args []*syntax.Word) bool {
	name, ok := literalWord(args[0])
	if !ok && args[0].Lit() == "[" {
		name, ok = "[", true
	}
	if !ok {
		return false
	}
	if !shellBuiltin(name) {
		return true // a program: it runs in a process of its own
	}
	return plainBuiltin(name, args[1:])
}

// plainBuiltin reports whether the builtin name, given args (all
// literal: the caller has seen to it), leaves the shell's options and
// variables alone, in bash and in zsh alike. zsh evaluates a builtin's
// numeric argument, and test's -eq, as arithmetic, so a number must be
// digits.
func plainBuiltin(name string, args []*syntax.Word) bool {
	lits := make([]string, len(args))
	for i, a := range args {
		v, ok := literalWord(a)
		if !ok && a.Lit() == "]" {
			v, ok = "]", true
		}
		if !ok {
			return false
		}
		lits[i] = v
	}
	switch name {
	case ":", "true", "false", "echo", "cd", "pwd", "type", "which", "whence", "where":
		return true
	case "printf", "print":
		// Not printf -v VAR, print -v VAR; and no argument that zsh's
		// %d or print -P could evaluate (a[...], $...).
		for _, v := range lits {
			if (strings.HasPrefix(v, "-") && strings.ContainsAny(v, "vP")) || strings.ContainsAny(v, "[]$`") {
				return false
			}
		}
		return true
	case "exit", "return", "shift", "break", "continue":
		return len(lits) == 0 || (len(lits) == 1 && strings.Trim(lits[0], "0123456789") == "" && lits[0] != "")
	case "command": // command -v jq: it only says where a program is
		return len(lits) > 0 && (lits[0] == "-v" || lits[0] == "-V")
	case "test", "[":
		for _, v := range lits {
			switch v {
			case "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v", "-R":
				return false
			}
			if v != "[" && v != "]" && strings.ContainsAny(v, "[]") {
				return false
			}
		}
		return true
	case "set":
		// set -euo pipefail and the like; zsh's set -o globdots (and its
		// one-character form, set -4) are not, nor set -x (it expands
		// PS4 as a prompt before each command).
		for _, v := range lits {
			if !plainSetArg(v) {
				return false
			}
		}
		return true
	}
	return false
}

// plainSetArg: an option of set that leaves globbing alone (-e, -u, -v,
// -o, combined, or any of those and x with +; pipefail, errexit, nounset,
// verbose after -o).
func plainSetArg(v string) bool {
	switch v {
	case "pipefail", "errexit", "nounset", "verbose":
		return true
	}
	if len(v) < 2 || (v[0] != '-' && v[0] != '+') {
		return false
	}
	if v[0] == '+' {
		return strings.Trim(v[1:], "euxvo") == "" // +x turns tracing off
	}
	return strings.Trim(v[1:], "euvo") == ""
}

// shellBuiltin reports whether bash or zsh runs name in the shell itself
// rather than as a program: a builtin, a reserved word that heads a
// command, or one of zsh's precommand modifiers.
func shellBuiltin(name string) bool {
	switch name {
	// bash's builtins and reserved words.
	case ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen",
		"complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec",
		"exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let",
		"local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
		"return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type",
		"typeset", "ulimit", "umask", "unalias", "unset", "wait", "coproc", "function", "select", "time":
		return true
	// zsh's, and its precommand modifiers.
	case "-", "autoload", "bindkey", "bye", "cap", "chdir", "clone", "comparguments", "compcall", "compctl",
		"compdescribe", "compfiles", "compgroups", "compquote", "comptags", "comptry", "compvalues",
		"disable", "echotc", "echoti", "emulate", "float", "functions", "getcap", "getln", "integer",
		"limit", "noglob", "nocorrect", "print", "private", "pushln", "r", "rehash", "repeat",
		"sched", "setcap", "setopt", "ttyctl", "unfunction", "unhash", "unlimit", "unsetopt",
		"vared", "whence", "where", "which", "zcompile", "zformat", "zftp", "zle", "zmodload",
		"zparseopts", "zprof", "zpty", "zregexparse", "zselect", "zsocket", "zstyle", "ztcp", "foreach":
		return true
	}
	return false
}
