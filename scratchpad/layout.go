package scratchpad

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Layout says where a project's scratchpads live.
type Layout struct {
	// Project is the project root, absolute and clean.
	Project string
	// Root is the scratchpad root, absolute and clean (by default
	// <project>/.claude/scratchpad).
	Root string
}

// File is the path of dir's scratchpad for day.
func (l Layout) File(dir, day string) string { return filepath.Join(l.Root, dir, FileName(day)) }

// Rel shows path relative to the project, with forward slashes, for messages
// the agent can act on. Paths outside the project are shown whole.
func (l Layout) Rel(path string) string {
	rel, err := filepath.Rel(l.Project, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// errSymlinkLoop says a path cannot be resolved: its symlinks form a loop.
var errSymlinkLoop = errors.New("symlink loop")

// EscapeError says a path leaves the scratchpad root through a symlink.
type EscapeError struct{ Path, Target string }

func (e *EscapeError) Error() string {
	return fmt.Sprintf("%s resolves to %s, outside the scratchpad root", e.Path, e.Target)
}

// Contained checks that path, a path under l.Root, stays inside the root once
// every symlink on it is resolved. The deepest part of path that exists is
// what is resolved: a file not written yet is fine. A symlink loop is an error.
func (l Layout) Contained(path string) error {
	realRoot, err := filepath.EvalSymlinks(l.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no root yet: nothing under it can point anywhere
	} else if err != nil {
		return fmt.Errorf("resolving scratchpad root %s: %w", l.Root, err)
	}
	for p := path; ; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if errors.Is(err, fs.ErrNotExist) {
			if p == l.Root || p == filepath.Dir(p) {
				return nil
			}
			continue
		}
		if err != nil {
			if strings.Contains(err.Error(), "too many links") {
				err = errSymlinkLoop // EvalSymlinks says so only in words
			}
			return fmt.Errorf("resolving %s: %w", p, err)
		}
		if real != realRoot && !strings.HasPrefix(real, realRoot+string(filepath.Separator)) {
			return &EscapeError{Path: p, Target: real}
		}
		return nil
	}
}

// ReadFile reads a scratchpad file after checking that it stays inside the
// root and is a regular file. A missing file is reported with fs.ErrNotExist;
// a directory or other non-file is a *NotFileError.
func (l Layout) ReadFile(path string) ([]byte, error) {
	if err := l.Contained(path); err != nil {
		return nil, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotFileError{Path: path, Mode: info.Mode()}
	}
	return os.ReadFile(path)
}

// NotFileError says a scratchpad path exists but is not a regular file.
type NotFileError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotFileError) Error() string {
	what := "not a regular file"
	if e.Mode.IsDir() {
		what = "a directory"
	}
	return fmt.Sprintf("%s is %s", e.Path, what)
}
