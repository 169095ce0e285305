//go:build !linux

package fspath

// firstEntry is the first of dir's first n names, in the folder's own
// order, that ok accepts; "" if none does or dir cannot be read.
func firstEntry(dir string, n int, ok func(string) bool) string { return readdirFirst(dir, n, ok) }
