package fspath

import (
	"path/filepath"
	"strings"
)

// Within reports whether the clean absolute path p is root or inside it
// (by name: resolve both first). With fold, names are compared as a
// case-insensitive folder compares them.
func Within(p, root string, fold bool) bool {
	_, ok := Rel(p, root, fold)
	return ok
}

// Rel is the clean absolute path p relative to root, slash-separated ("."
// for root itself); false when p is not root or inside it. With fold,
// names are compared regardless of case, and the part after root keeps
// p's spelling.
func Rel(p, root string, fold bool) (string, bool) {
	sep := string(filepath.Separator)
	prefix := strings.TrimSuffix(root, sep)
	equal := func(a, b string) bool { return a == b || fold && strings.EqualFold(a, b) }
	switch {
	case equal(p, root) || equal(p, prefix):
		return ".", true
	case len(p) > len(prefix) && strings.HasPrefix(p[len(prefix):], sep) && equal(p[:len(prefix)], prefix):
		return filepath.ToSlash(p[len(prefix)+1:]), true
	}
	return "", false
}
