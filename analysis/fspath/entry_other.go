//go:build !linux

package fspath

import (
	"io/fs"
	"os"
)

// firstEntry is the first of dir's first n names, in the folder's own
// order, that ok accepts; "" if none does or dir cannot be read.
func firstEntry(dir string, n int, ok func(string) bool) string { return readdirFirst(dir, n, ok) }

// readDir is dir's entries, sorted by name.
func readDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }

// inoOf says nothing here: entries are compared by Lstat.
func inoOf(fs.DirEntry) (uint64, bool) { return 0, false }

// inodesAgree: listings give no inode numbers here.
func inodesAgree(string) bool { return false }
