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
		switch v := expr[i].Value; v {
		case "-delete":
			deletes = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(expr) {
				out = append(out, Effect{Op: Write, Path: expr[i+1]})
			}
			i += findArgs[v]
		case "-exec", "-execdir", "-ok", "-okdir":
			for i+1 < len(expr) && !(expr[i+1].Known && (expr[i+1].Value == ";" || expr[i+1].Value == "+")) {
				i++ // the command's words are not find's
			}
		default:
			i += findArgs[v] // -name -delete: "-delete" is the name
			if len(v) == len("-newerXY") && strings.HasPrefix(v, "-newer") {
				i++
			}
		}
	}
	if deletes {
		out = append(out, all(Delete, true, roots)...)
	}
	return out
}

// findArgs is how many words follow each of find's tests and actions
// that take any: the words are arguments, whatever they look like.
var findArgs = map[string]int{
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1,
	"-regex": 1, "-iregex": 1, "-regextype": 1, "-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1,
	"-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-perm": 1, "-size": 1, "-links": 1, "-inum": 1,
	"-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1, "-ctime": 1, "-cmin": 1, "-used": 1,
	"-newer": 1, "-anewer": 1, "-cnewer": 1, "-samefile": 1, "-fstype": 1, "-context": 1,
	"-maxdepth": 1, "-mindepth": 1, "-files0-from": 1, "-printf": 1,
	"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2,
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
