package scratchpad

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// NotOwnError says why a path is not the scratchpad file it was judged
// against.
type NotOwnError struct{ Path, Why string }

func (e *NotOwnError) Error() string { return e.Path + ": " + e.Why }

// IsFile reports (nil) whether path, an absolute path as a tool call gives
// it, is dir's scratchpad for day: the file a write to path would change,
// judged as the kernel resolves the path, not as it reads. The root may be
// reached through symlinks (a project under a linked folder); below it
// nothing may be: path must be in clean form (no ".", "..", "//": a ".."
// after a symlink leads where the text does not say), the agent's folder a
// real directory, and the file, if it exists, a regular file with one link
// (a hard link to another file, say the hooks' own settings, would write
// there too). A missing folder or file is fine: the write creates them.
func (l Layout) IsFile(path, dir, day string) error {
	not := func(format string, args ...any) error {
		return &NotOwnError{Path: path, Why: fmt.Sprintf(format, args...)}
	}
	want := l.File(dir, day)
	switch {
	case !filepath.IsAbs(path):
		return not("not an absolute path")
	case filepath.Clean(path) != path:
		return not("not in clean form (\".\", \"..\" or a doubled or trailing separator)")
	case filepath.Base(path) != filepath.Base(want):
		return not("not %s", filepath.Base(want))
	case filepath.Base(filepath.Dir(path)) != dir:
		return not("not in the folder %s", dir)
	}
	folder := filepath.Dir(path)
	got, err := resolve(filepath.Dir(folder))
	if err != nil {
		return not("cannot be resolved: %v", err)
	}
	root, err := resolve(l.Root)
	if err != nil {
		return not("the scratchpad root cannot be resolved: %v", err)
	}
	if got != root {
		return not("not under the scratchpad root %s", l.Root)
	}
	switch info, err := os.Lstat(folder); {
	case errors.Is(err, fs.ErrNotExist):
		return nil // neither folder nor file yet
	case err != nil:
		return not("%v", err)
	case !info.IsDir():
		return not("its folder is %s, not a directory", describe(info))
	}
	switch info, err := os.Lstat(path); {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return not("%v", err)
	case !info.Mode().IsRegular():
		return not("is %s, not a regular file", describe(info))
	default:
		n, ok := linkCount(info)
		if !ok {
			return not("its hard links cannot be counted on this system")
		}
		if n != 1 {
			return not("has %d hard links: a write would change another file too", n)
		}
	}
	return nil
}

// describe names what a path that is not what it should be is.
func describe(info fs.FileInfo) string {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link"
	case info.IsDir():
		return "a directory"
	}
	return "not a regular file"
}
