package shellcmd

import (
	"maps"

	"mvdan.cc/sh/v3/syntax"
)

// Variables are followed the way the directory is: a plain assignment of
// a known value (D=/tmp/x, tmp=$(mktemp -d), export D=x) makes $D known
// from there on in the same shell; anything else that may set a variable
// (read, a loop, an assignment on only some branches, a function, an
// unknown source, an assignment in front of a command) makes it unknown.
// A variable the line never assigns has the value the environment gives
// it when the caller knows it (HOME, and what Options.Env lists), and is
// unknown otherwise. A value is never guessed.

// scanAssigned records in w.assigned every name f may assign, wherever it
// is: those never take their value from the environment.
func (w *walker) scanAssigned(f *syntax.File) {
	if w.assigned == nil {
		w.assigned = map[string]bool{}
	}
	for name := range assignedIn(f) {
		w.assigned[name] = true
	}
	if w.fromData == nil {
		w.fromData = map[string]bool{}
	}
	for name := range dataValued(f) {
		w.fromData[name] = true
	}
}

// assignedIn lists the names node may assign: assignments, declarations,
// for-loop variables, read, mapfile, getopts and printf -v operands,
// arithmetic assignments.
func assignedIn(node syntax.Node) map[string]bool {
	names := map[string]bool{}
	if node == nil {
		return names
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				names[x.Name.Value] = true
			}
		case *syntax.WordIter:
			if x.Name != nil {
				names[x.Name.Value] = true
			}
		case *syntax.BinaryArithm:
			if w, ok := x.X.(*syntax.Word); ok && x.Op >= syntax.Assgn && x.Op <= syntax.ShrAssgn {
				names[w.Lit()] = true
			}
		case *syntax.UnaryArithm:
			if w, ok := x.X.(*syntax.Word); ok && (x.Op == syntax.Inc || x.Op == syntax.Dec) {
				names[w.Lit()] = true
			}
		case *syntax.CallExpr:
			addSetNames(names, x, setter)
		}
		return true
	})
	return names
}

// addSetNames adds to names the variables call sets when sets holds for
// its command: its operands that are plain variable names.
func addSetNames(names map[string]bool, call *syntax.CallExpr, sets func(builtin string) bool) {
	if len(call.Args) > 0 && sets(call.Args[0].Lit()) {
		for _, l := range nameOperands(call) {
			names[l] = true
		}
	}
}

// nameOperands are the operands of call that are plain variable names.
func nameOperands(call *syntax.CallExpr) []string {
	var out []string
	for _, a := range call.Args[1:] {
		if l := a.Lit(); syntax.ValidName(l) {
			out = append(out, l)
		}
	}
	return out
}

// setter says whether builtin assigns (or unsets) the names its operands
// give.
func setter(builtin string) bool {
	switch builtin {
	case "read", "mapfile", "readarray", "getopts", "printf", "unset",
		"local", "declare", "typeset", "export", "readonly", "let":
		return true
	}
	return false
}

// lookup returns what is known of $name: its value (Known false when it
// is not known) and whether it is set. An unknown one is reported set.
func (w *walker) lookup(name string) (Word, bool) {
	if v, ok := w.vars[name]; ok {
		return v, true
	}
	if w.assigned[name] || w.unknownVars {
		return Word{}, true
	}
	switch name {
	case "HOME":
		if w.opts.Home != "" {
			return Word{Value: w.opts.Home, Known: true}, true
		}
		return Word{}, true
	}
	if v, ok := w.opts.Env[name]; ok {
		return Word{Value: v, Known: true}, v != ""
	}
	return Word{}, true
}

// setVar records an assignment in the current shell. A value longer
// than maxStream is recorded as unknown, as a stream that long is: a
// value doubled by assignment after assignment (A=$A$A) would otherwise
// grow to gigabytes in a few hundred bytes of command, past the time an
// agent waits for the hook.
func (w *walker) setVar(name string, v Word) {
	if w.vars == nil {
		w.vars = map[string]Word{}
	}
	if len(v.Value) > maxStream {
		v = Word{}
	}
	v.Inner, v.Raw = nil, ""
	w.vars[name] = v
}

// forget makes names unknown in the current shell.
func (w *walker) forget(names map[string]bool) {
	for n := range names {
		w.setVar(n, Word{})
	}
}

// saveVars returns a copy of the variables, to restore after a subshell
// or to merge after a branch.
func (w *walker) saveVars() map[string]Word { return maps.Clone(w.vars) }

// mergeVars makes the variables what they are after either of two paths
// through the line: a value both paths agree on stays, any other is
// unknown.
func (w *walker) mergeVars(other map[string]Word) {
	for n, v := range other {
		if cur, ok := w.vars[n]; !ok || !sameValue(cur, v) {
			w.setVar(n, Word{})
		}
	}
	for n := range w.vars {
		if _, ok := other[n]; !ok {
			w.setVar(n, Word{})
		}
	}
}

// sameValue reports whether two stored values are the same.
func sameValue(a, b Word) bool {
	return a.Value == b.Value && a.Known == b.Known && a.Glob == b.Glob && a.Temp == b.Temp
}
