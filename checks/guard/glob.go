package guard

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globFiles is what a path pattern matches on disk now, as the shell (or
// find, for the DIR/**/NAME a find -name -exec gives) would find it: **
// crosses folders, including none, which filepath.Glob cannot do. A
// pattern it cannot read matches nothing, as a glob that matches nothing
// stays a word of its own.
func globFiles(pattern string) []string {
	var m []string
	var err error
	if strings.Contains(pattern, "**") {
		m, err = doublestar.FilepathGlob(pattern, doublestar.WithNoFollow())
	} else {
		m, err = filepath.Glob(pattern)
	}
	if err != nil {
		return nil
	}
	return m
}

// escapeGlob quotes the characters filepath.Match treats as special.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
