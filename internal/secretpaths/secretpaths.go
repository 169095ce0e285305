// Package secretpaths is the default list of secret files, kept as data in
// secret-paths.txt so that adding a credential file is one line there.
package secretpaths

import (
	_ "embed"
	"slices"
	"strings"
)

//go:embed secret-paths.txt
var list string

var defaults = parse(list)

// Default returns the default secret paths, a fresh slice each time.
func Default() []string { return slices.Clone(defaults) }

func parse(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}
