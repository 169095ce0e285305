package fspath

import "os"

// readdirFirst is firstEntry as os.File reads a folder: how it is done
// where no system call lists a folder more cheaply (entry_linux.go), and
// what a test holds that one to.
func readdirFirst(dir string, n int, ok func(string) bool) string {
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
