//go:build !linux

package fspath

import "os"

// firstEntry is the first of dir's first n names, in the folder's own
// order, that ok accepts; "" if none does or dir cannot be read.
func firstEntry(dir string, n int, ok func(string) bool) string {
	f, err := os.Open(dir)
	if err != nil {
		return ""
	}
	defer f.Close()
	names, _ := f.Readdirnames(n)
	for _, name := range names {
		if ok(name) {
			return name
		}
	}
	return ""
}
