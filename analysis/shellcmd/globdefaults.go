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
// It is a list of what is known to be harmless, not of what is known to
// be harmful. A program runs in a process of its own and cannot change
// the shell; a builtin of bash or zsh runs in the shell, and only those
// known to leave its options and variables alone pass (cd, echo, test,
// ...: see harmlessBuiltin). So every command, in substitutions and
// function bodies too, must have a name written out that is no other
// builtin, keyword or precommand modifier. No variable that changes
// globbing or runs code later may be assigned (specialVar), nor any
// variable through arithmetic, which bash evaluates in many places
// (((GLOBIGNORE=1)), an index a[x] whose x holds an assignment, ${a:x})
// and which is therefore not allowed at all, nor an expansion that runs
// its value as a prompt (${x@P}). A source bash cannot parse is not
// surely anything.
//
// A word run by a shell that src starts (bash -c '...') is expanded by
// that shell, whose options the command line can set with its own
// flags: the caller looks at the word's wrappers for that.
func KeepsGlobDefaults(src string) bool {
	if namesGlobbing(src) {
		return false
	}
	f, err := parse(src, syntax.LangBash)
	if err != nil {
		return false
	}
	keeps := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !keeps {
			return false
		}
		switch n := n.(type) {
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.BinaryArithm,
			*syntax.UnaryArithm, *syntax.ParenArithm, *syntax.TestDecl, *syntax.CoprocClause:
			keeps = false
		case *syntax.BinaryTest: // [[ a -eq b ]] evaluates both sides as arithmetic
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				keeps = false
			}
		case *syntax.UnaryTest: // [[ -v a[x] ]]: the index is arithmetic
			keeps = n.Op != syntax.TsVarSet && n.Op != syntax.TsRefVar
		case *syntax.ParamExp:
			keeps = plainParam(n)
		case *syntax.ForClause: // select expands PS3 as a prompt: ${GLOBIGNORE:=x}
			keeps = !n.Select
		case *syntax.WordIter: // for x in ...
			keeps = !specialVar(n.Name.Value)
		case *syntax.ArrayElem: // a=([x]=1): the index is arithmetic, x's value too
			keeps = n.Index == nil
		case *syntax.Redirect: // cmd {GLOBIGNORE}>f sets the variable to a file descriptor
			keeps = n.N == nil || !strings.HasPrefix(n.N.Value, "{")
		case *syntax.Assign:
			keeps = n.Name != nil && n.Index == nil && !specialVar(n.Name.Value)
		case *syntax.DeclClause:
			// export FOO=1, local x: each argument an assignment of a
			// name written out (an option such as -n, a nameref, or -i,
			// whose variables are assigned by arithmetic, is not).
			for _, a := range n.Args {
				if a.Name == nil {
					keeps = false
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				keeps = plainCall(n.Args)
			}
		}
		return keeps
	})
	return keeps
}

// namesGlobbing reports whether src names an option or variable that
// changes globbing in any spelling (quotes, backslashes, case and zsh's
// underscores dropped): whatever the parse says of it, such a command is
// not taken as plain. A name built at run time passes this; the parse's
// allow-list is what holds.
func namesGlobbing(src string) bool {
	norm := strings.Map(func(r rune) rune {
		switch r {
		case '"', '\'', '\\', '_':
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, src)
	for _, name := range []string{"dotglob", "globdots", "globignore", "bashopts"} {
		if strings.Contains(norm, name) {
			return true
		}
	}
	return false
}

// plainParam: an expansion that evaluates no arithmetic and assigns
// nothing but an ordinary variable ($x, ${x}, ${x:-d}, ${#x}, ${x%.c},
// ${a[@]}, ${y:=1}).
func plainParam(p *syntax.ParamExp) bool {
	if p.Excl || p.Slice != nil || p.Flags != nil || p.NestedParam != nil {
		return false
	}
	if p.Index != nil {
		w, ok := p.Index.(*syntax.Word)
		if !ok || (w.Lit() != "@" && w.Lit() != "*") {
			return false
		}
	}
	if p.Exp == nil {
		return true
	}
	switch p.Exp.Op {
	case syntax.OtherParamOps: // ${x@P} expands x's value as a prompt, which may assign
		return false
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return p.Param != nil && !specialVar(p.Param.Value)
	}
	return true
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
	return harmlessBuiltin(name, args[1:])
}

// harmlessBuiltin reports whether the builtin name, given args, leaves the
// shell's options and variables alone (but for ordinary variables it is
// told to set by name).
func harmlessBuiltin(name string, args []*syntax.Word) bool {
	switch name {
	case ":", "true", "false", "echo", "cd", "pwd", "pushd", "popd", "dirs", "exit", "return",
		"shift", "break", "continue", "kill", "ulimit", "umask", "times", "type", "which", "whence", "where", "help":
		return true
	case "printf", "print", "wait": // printf -v VAR, zsh's print -v VAR, wait -p VAR
		for _, a := range args {
			if v, ok := literalWord(a); !ok || (strings.HasPrefix(v, "-") && strings.ContainsAny(v, "vp")) {
				return false
			}
		}
		return true
	case "command": // command -v jq: it only says where a program is
		v, ok := "", len(args) > 0
		if ok {
			v, ok = literalWord(args[0])
		}
		return ok && (v == "-v" || v == "-V")
	case "read": // read -r line: names written out, no index (a[x] is arithmetic)
		for _, a := range args {
			v, ok := literalWord(a)
			if !ok || strings.ContainsAny(v, "[]") || specialVar(v) {
				return false
			}
		}
		return true
	case "test", "[", "unset":
		// test -v 'a[x]', unset 'a[x]': an array's index is arithmetic.
		for _, a := range args {
			if v, ok := literalWord(a); !ok || (v != "]" && strings.ContainsAny(v, "[]")) {
				return false
			}
		}
		return true
	case "set":
		// set -euo pipefail and the like; zsh's set -o globdots (and its
		// one-character form, set -4) are not, nor set -x (it expands
		// PS4 as a prompt before each command).
		for _, a := range args {
			v, ok := literalWord(a)
			if !ok || !plainSetArg(v) {
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

// specialVar reports whether assigning name may change globbing or run
// code later: GLOBIGNORE, the option lists, BASH_ENV and ENV (a file run
// first), the prompts (expanded later, and they may assign), bash's
// BASH_ALIASES and POSIXLY_CORRECT (aliases, and their expansion), zsh's
// options, functions and aliases arrays and its hook functions.
func specialVar(name string) bool {
	switch name {
	case "GLOBIGNORE", "SHELLOPTS", "POSIXLY_CORRECT", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "FPATH", "fpath",
		"options", "functions", "aliases", "galiases", "saliases", "builtins", "commands", "modules":
		return true
	}
	return strings.HasPrefix(name, "BASH") || strings.HasPrefix(name, "PS") || strings.HasPrefix(name, "ZSH") ||
		strings.HasPrefix(name, "dis_") || strings.HasSuffix(name, "_functions")
}
