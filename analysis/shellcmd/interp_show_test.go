package shellcmd

import (
	"strings"
)

// showScan renders a scan, one finding per line, for table tests:
//
//	delete PATH       an Effect (delete-r for a Tree); PATH? when not Known
//	sh LINE           a Run through the shell
//	run ARG ARG       a Run of argv; a trailing ? when the command is not Known
//	opaque WHAT       an Opaque
func showScan(s CodeScan) []string {
	var out []string
	for _, e := range s.Effects {
		op := e.Op.String()
		if e.Tree {
			op += "-r"
		}
		out = append(out, op+" "+showCodeWord(e.Path))
	}
	for _, r := range s.Runs {
		if r.Shell {
			out = append(out, "sh "+showCodeWord(r.Line))
			continue
		}
		parts := []string{"run"}
		for _, w := range r.Argv {
			parts = append(parts, showCodeWord(w))
		}
		if !r.Known {
			parts = append(parts, "?")
		}
		out = append(out, strings.Join(parts, " "))
	}
	for _, o := range s.Opaque {
		out = append(out, "opaque "+o.What)
	}
	return out
}

func showCodeWord(w Word) string {
	if !w.Known {
		return w.Raw + "?"
	}
	return w.Value
}
