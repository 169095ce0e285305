package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// KeepsGlobDefaults reports whether running src surely leaves the shell's
// file name expansion as the shell started with it: nothing in src can
// turn on bash's dotglob (shopt, GLOBIGNORE, BASHOPTS) or zsh's GLOB_DOTS
// (setopt, set -o, emulate) before a glob of it is expanded.
//
// It is a list of what is known to be harmless, not of what is known to
// be harmful: every command, in substitutions too, must have a name
// written out, and none may be a builtin that changes the shell's options
// or runs code in the shell itself (source, eval, trap, alias, ...) or
// sets a variable by a name it is given (read, printf -v, declare -n,
// ...). No arithmetic may run (bash assigns in it: (( GLOBIGNORE=1 )), and
// a variable's value is itself evaluated there, ${a:x}), nor ${x:=v},
// ${!x}, a function definition or [[ ]]. An assignment may set any
// variable but those that change globbing. A source bash cannot parse is
// not surely anything.
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
			*syntax.UnaryArithm, *syntax.ParenArithm, *syntax.FuncDecl, *syntax.TestClause,
			*syntax.TestDecl, *syntax.CoprocClause:
			keeps = false
		case *syntax.ParamExp:
			keeps = plainParam(n)
		case *syntax.ForClause: // select expands PS3 as a prompt: ${GLOBIGNORE:=x}
			keeps = !n.Select
		case *syntax.WordIter: // for x in ...
			keeps = !globbingVar(n.Name.Value)
		case *syntax.ArrayElem: // a=([x]=1): the index is arithmetic, x's value too
			keeps = n.Index == nil
		case *syntax.Redirect: // cmd {GLOBIGNORE}>f sets the variable to a file descriptor
			keeps = n.N == nil || !strings.HasPrefix(n.N.Value, "{")
		case *syntax.Assign:
			keeps = n.Name != nil && n.Index == nil && !globbingVar(n.Name.Value)
		case *syntax.DeclClause:
			// export FOO=1, local x: each argument an assignment of a
			// name written out (an option such as -n, a nameref, is not).
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
// not taken as plain.
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
// nothing ($x, ${x}, ${x:-d}, ${#x}, ${x%.c}, ${a[@]}).
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
	// ${x@P} expands x's value as a prompt, which may assign.
	return p.Exp == nil || (p.Exp.Op != syntax.AssignUnset && p.Exp.Op != syntax.AssignUnsetOrNull && p.Exp.Op != syntax.OtherParamOps)
}

// plainCall: a command whose name is written out and cannot change the
// shell's globbing.
func plainCall(args []*syntax.Word) bool {
	name, ok := literalWord(args[0])
	if !ok && args[0].Lit() != "[" {
		return false
	} else if !ok {
		name = "["
	}
	switch name {
	case "shopt", "setopt", "unsetopt", "emulate", "source", ".", "eval", "trap", "alias", "enable",
		"builtin", "command", "exec", "read", "mapfile", "readarray", "getopts", "let", "fc",
		"declare", "typeset", "local", "export", "readonly", "bind", "hash", "compgen",
		"autoload", "zmodload", "integer", "float", "vared", "zparseopts", "zstyle":
		return false
	case "printf", "print", "wait": // printf -v VAR, zsh's print -v VAR, wait -p VAR
		for _, a := range args[1:] {
			if v, ok := literalWord(a); !ok || (strings.HasPrefix(v, "-") && strings.ContainsAny(v, "vp")) {
				return false
			}
		}
	case "test", "[", "unset":
		// test -v 'a[x]', unset 'a[x]': an array's index is arithmetic.
		for _, a := range args[1:] {
			if v, ok := literalWord(a); !ok || (v != "]" && strings.ContainsAny(v, "[]")) {
				return false
			}
		}
	case "set":
		// set -euo pipefail and the like; zsh's set -o globdots (and its
		// one-character form, set -4) are not, nor set -x (it expands
		// PS4 as a prompt before each command).
		for _, a := range args[1:] {
			v, ok := literalWord(a)
			if !ok || !plainSetArg(v) {
				return false
			}
		}
	}
	return true
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

// globbingVar: variables whose value changes what a glob matches, as the
// shell or one it starts reads them: BASH_ENV and ENV name a file run
// first, the prompts are expanded later (and may assign), zsh's options
// array sets options.
func globbingVar(name string) bool {
	switch name {
	case "GLOBIGNORE", "BASHOPTS", "SHELLOPTS", "BASH_ENV", "ENV", "ZDOTDIR",
		"PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND", "options":
		return true
	}
	return false
}
