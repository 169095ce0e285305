package shellcmd

import (
	"path"

	"mvdan.cc/sh/v3/syntax"
)

// Dir tracking follows the path a command line takes when every cd
// succeeds, the way its author expects it to run; where the paths through a
// construct can end in different directories (an if without else, `cd a ||
// echo failed`), the directory becomes unknown rather than guessed.

// merge returns the directory after two paths that may each have run.
func merge(a, b string) string {
	if a == b {
		return a
	}
	return ""
}

// terminates reports whether s leaves the script or function (exit,
// return), so that in `cd DIR || exit` only the path through cd goes on.
func terminates(s *syntax.Stmt) bool {
	if s == nil {
		return false
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			return false
		}
		name := x.Args[0].Lit()
		return name == "exit" || name == "return"
	case *syntax.Block:
		return len(x.Stmts) > 0 && terminates(x.Stmts[len(x.Stmts)-1])
	}
	return false
}

// cdDir returns the directory `cd args` moves the shell to from dir, or ""
// when it cannot be known. CDPATH is not consulted.
func cdDir(args []Word, home, dir string) string {
	switch ops := args[cdOptions.Parse(args).Rest:]; len(ops) {
	case 0:
		return home
	case 1:
		if ops[0].Known && ops[0].Value == "-" {
			return "" // $OLDPWD
		}
		if ops[0].Known && ops[0].Value == "" {
			return dir // bash leaves the directory alone
		}
		return chdir(dir, ops[0])
	default:
		return "" // an error in bash, a substitution in zsh
	}
}

// cdOptions: bash's cd takes -L, -P, -e and -@, none with an argument.
var cdOptions = &OptionTable{Short: "LPe@"}

// chdir resolves to against dir like chdir(2) with logical .. handling,
// as bash's cd does by default. It returns "" when either is unknown.
func chdir(dir string, to Word) string {
	if !to.Known || to.Glob || to.Value == "" {
		return ""
	}
	if path.IsAbs(to.Value) {
		return path.Clean(to.Value)
	}
	if dir == "" {
		return ""
	}
	return path.Join(dir, to.Value)
}
