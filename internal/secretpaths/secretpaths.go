// Package secretpaths is the default list of secret files, kept as data in
// secret-paths.txt so that adding a credential file is one line there.
package secretpaths

import (
	_ "embed"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

//go:embed secret-paths.txt
var list string

// defaults are read on first use: a hook that judges no path pays nothing.
var defaults = &lazy.Value[[]string]{New: func() []string { return parse(list) }}

// Default returns the default secret paths, a fresh slice each time.
func Default() []string { return slices.Clone(defaults.Get()) }

// Shared returns the default secret paths without a copy, for a reader
// that keeps them: every caller gets the same array, so none may change
// an element. Its capacity is its length, so an append copies it.
func Shared() []string { return slices.Clip(defaults.Get()) }

func parse(text string) []string {
	out := make([]string, 0, strings.Count(text, "\n")+1)
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}
