package shellcmd

import "strings"

// find is not read with an option table: after its own -H, -L, -P, -D
// and -O options come the starting points, then an expression of tests
// and actions, each a word of its own (GNU findutils 4.9).
//
// It writes the files of its -fprint, -fprint0, -fprintf and -fls
// actions, and with -delete deletes what it finds below its starting
// points (the points themselves included). The commands of -exec,
// -execdir, -ok and -okdir are listed as commands of their own, right
// after find (see the walker).
func findEffects(c *Command) []Effect {
	roots, expr := findParts(c.Args)
	var out []Effect
	deletes := false
	for i := 0; i < len(expr); i++ {
		if !expr[i].Known {
			continue
		}
		switch expr[i].Value {
		case "-delete":
			deletes = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(expr) {
				out = append(out, Effect{Op: Write, Path: expr[i+1]})
				i++
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			for i+1 < len(expr) && !(expr[i+1].Known && (expr[i+1].Value == ";" || expr[i+1].Value == "+")) {
				i++ // the command's words are not find's
			}
		}
	}
	if deletes {
		out = append(out, all(Delete, true, roots)...)
	}
	return out
}

// findParts splits find's arguments into its starting points (". " when
// none is given) and its expression.
func findParts(args []Word) (roots, expr []Word) {
	i := 0
	for i < len(args) && args[i].Known {
		v := args[i].Value
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") {
			i++
		} else if v == "-D" {
			i = min(i+2, len(args)) // -D debugopts
		} else {
			break
		}
	}
	start := i
	for i < len(args) && !findExpr(args[i]) {
		i++
	}
	roots = args[start:i:i]
	if len(roots) == 0 {
		roots = []Word{{Value: ".", Known: true}}
	}
	return roots, args[i:]
}

// findExpr reports whether a starts find's expression.
func findExpr(a Word) bool {
	if !a.Known {
		return false
	}
	v := a.Value
	return (len(v) > 1 && v[0] == '-') || v == "(" || v == "!" || v == ","
}
