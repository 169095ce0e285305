package shellcmd

import (
	"path"
	"strings"
)

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
	deletes, narrowed := false, true
	name := ""
	for i := 0; i < len(expr); i++ {
		if !expr[i].Known {
			continue
		}
		v := expr[i].Value
		switch {
		case v == "-delete":
			// -delete removes what the tests before it select: one -name
			// narrows that to the files so named (-delete removes a
			// folder only when it is empty, so never a tree).
			n, ok := findName(expr[:i])
			if deletes && (!ok || n != name) {
				ok = false
			}
			deletes, narrowed, name = true, narrowed && ok, n
		case v == "-fprint" || v == "-fprint0" || v == "-fprintf" || v == "-fls":
			if i+1 < len(expr) {
				out = append(out, Effect{Op: Write, Path: expr[i+1]})
			}
			i += findArgs(v)
		case v == "-files0-from":
			// The starting points are read from a file: not known.
			if i+1 < len(expr) {
				roots = []Word{inputItem("find -files0-from")}
			}
			i++
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			i = execEnd(expr, i+1) // the command's words are not find's
		default:
			i += findArgs(v)
		}
	}
	if deletes && narrowed {
		for _, root := range roots {
			if !root.Known {
				out = append(out, Effect{Op: Delete, Path: root, Tree: true})
				continue
			}
			out = append(out, Effect{Op: Delete, Path: findMatches(root, name)})
			if ok, _ := path.Match(name, path.Base(root.Value)); ok {
				out = append(out, Effect{Op: Delete, Path: root}) // find tests its starting point too
			}
		}
	} else if deletes {
		out = append(out, all(Delete, true, roots)...)
	}
	return out
}

// findMatches is the glob of the files below root that a -name pattern
// selects, at any depth (root itself included when it matches).
func findMatches(root Word, name string) Word {
	return Word{Raw: root.Raw, Value: strings.TrimSuffix(root.Value, "/") + "/**/" + name, Known: true, Glob: true}
}

// findArgs returns how many words follow find's primary p as its
// arguments, so that `-name -delete` is a test of the name "-delete", not
// the action (GNU findutils 4.9).
func findArgs(p string) int {
	switch p {
	case "-fprintf":
		return 2
	case "-amin", "-anewer", "-atime", "-cmin", "-cnewer", "-context", "-ctime", "-fstype", "-gid",
		"-group", "-ilname", "-iname", "-inum", "-ipath", "-iregex", "-iwholename", "-links", "-lname",
		"-mmin", "-mtime", "-name", "-newer", "-path", "-perm", "-regex", "-samefile", "-size", "-type",
		"-uid", "-used", "-user", "-wholename", "-xtype", "-maxdepth", "-mindepth", "-regextype",
		"-printf", "-fprint", "-fprint0", "-fls", "-files0-from":
		return 1
	}
	if len(p) == len("-newerXY") && strings.HasPrefix(p, "-newer") {
		return 1
	}
	return 0
}

// execEnd returns the index of the ";" or "{} +" that ends the command
// of an -exec starting at start (len(args) when none does).
func execEnd(args []Word, start int) int {
	end := start
	for ; end < len(args); end++ {
		v := args[end]
		if v.Known && (v.Value == ";" || (v.Value == "+" && end > start && args[end-1].Value == "{}")) {
			break
		}
	}
	return end
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
	for j := i; j < len(args); j++ {
		if args[j].Known && args[j].Value == "-files0-from" {
			return []Word{inputItem("find -files0-from")}, args[i:]
		}
		if args[j].Known && (args[j].Value == "-exec" || args[j].Value == "-execdir" || args[j].Value == "-ok" || args[j].Value == "-okdir") {
			j = execEnd(args, j+1)
		} else if args[j].Known {
			j += findArgs(args[j].Value)
		}
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
