package scratchpad

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/internal/hookfs"
)

// Layout says where a project's scratchpads live.
type Layout struct {
	// Project is the project root, absolute and clean.
	Project string
	// Root is the scratchpad root, absolute and clean (by default
	// <project>/.claude/scratchpad).
	Root string
	// real is where Root leads, once found; nil: found afresh each time.
	real *string
}

// NewLayout is the Layout of one command or hook call: where its root
// leads is found once, on the first check that needs it, and kept for the
// rest of the call (a hook checks the root before every file it reads).
// The way from the root to each file is walked afresh by every check: the
// file is read right after it, within the call.
func NewLayout(project, root string) Layout {
	return Layout{Project: project, Root: root, real: new(string)}
}

// realRoot is where Root leads, every symlink followed. A root that does
// not exist yet is asked about again next time: a write may make it.
// walk, when not nil, is the judgement's cache: the same call's walk of a
// path under the root then asks nothing of the root's names again.
func (l Layout) realRoot(walk *fspath.Cache) (string, error) {
	if l.real != nil && *l.real != "" {
		return *l.real, nil
	}
	real, err := l.findRoot(walk)
	if err == nil && l.real != nil {
		*l.real = real
	}
	return real, err
}

// findRoot is where Root leads now: the walk's answer for a root that
// exists with no loop on the way (where filepath.EvalSymlinks, which reads
// the same links, agrees), else filepath.EvalSymlinks's own, with its
// errors.
func (l Layout) findRoot(walk *fspath.Cache) (string, error) {
	if real, exists, loop := walk.Lead(l.Root); exists && !loop {
		return real, nil
	}
	return filepath.EvalSymlinks(l.Root)
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

// ContainError is Contained's refusal of a path: it leads out of the root
// (an *EscapeError within), or where it or the root leads cannot be told.
// The reads that check first return it as it is, so that their callers can
// tell a path they must not read from a file they could not.
type ContainError struct{ Err error }

func (e *ContainError) Error() string { return e.Err.Error() }
func (e *ContainError) Unwrap() error { return e.Err }

// Contained checks that path, a path under l.Root, stays inside the root once
// every symlink on it is followed, including a dangling one: a link to a file
// that does not exist yet is where a write would land. A symlink loop is an
// error. Every error is a *ContainError.
func (l Layout) Contained(path string) error {
	if err := l.contained(path); err != nil {
		return &ContainError{Err: err}
	}
	return nil
}

func (l Layout) contained(path string) error {
	// One judgement: the root's names, walked to find where it leads
	// (once per call), are not asked about again on the way to path.
	var walk *fspath.Cache
	if l.real == nil || *l.real == "" {
		walk = &fspath.Cache{}
	}
	realRoot, err := l.realRoot(walk)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no root yet: nothing under it can point anywhere
	} else if err != nil {
		return fmt.Errorf("resolving scratchpad root %s: %w", l.Root, err)
	}
	real, err := walkedResolve(walk, path)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", path, err)
	}
	within := func(p string) bool { return p == realRoot || strings.HasPrefix(p, realRoot+string(filepath.Separator)) }
	if within(real) {
		return nil
	}
	// Name the outermost part of path that already leads outside: that is
	// the symlink to fix.
	for p := filepath.Dir(path); strings.HasPrefix(p, l.Root+string(filepath.Separator)); p = filepath.Dir(p) {
		r, err := resolve(p)
		if err != nil || within(r) {
			break
		}
		path, real = p, r
	}
	return &EscapeError{Path: path, Target: real}
}

// resolve returns where an absolute path leads once every symlink on it is
// followed, as the kernel follows them (fspath): a link whose target does
// not exist yet is followed too, and a path whose last parts do not exist
// yet is kept as written. More links than the kernel follows is
// errSymlinkLoop.
func resolve(path string) (string, error) { return walkedResolve(nil, path) }

// walkedResolve is resolve through walk, a cache of what one judgement
// looked at (nil: none).
func walkedResolve(walk *fspath.Cache, path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = string(filepath.Separator) + path
	}
	real, _, loop := walk.Lead(path)
	if loop {
		return "", errSymlinkLoop
	}
	return real, nil
}

// MaxFileBytes bounds the scratchpad files read whole (by check, and by
// the stop hooks for their headings): a log is kilobytes, and a planted
// giant must not be read into memory. Tail reads only a file's end, so the
// context hooks show the last lines of a file of any size.
const MaxFileBytes = 4 << 20

// ReadFile reads a scratchpad file after checking that it stays inside the
// root and is a regular file of at most MaxFileBytes. A missing file is
// reported with fs.ErrNotExist; a directory, FIFO or other non-file is a
// *NotFileError; a larger file is a *TooLargeError.
func (l Layout) ReadFile(path string) ([]byte, error) {
	content, _, err := l.read(path)
	return content, err
}

// read is ReadFile, with what the open file's fstat said of it.
func (l Layout) read(path string) ([]byte, fs.FileInfo, error) {
	if err := l.Contained(path); err != nil {
		return nil, nil, err
	}
	content, info, err := hookfs.ReadFileInfo(path, MaxFileBytes)
	return content, info, fileError(err)
}

// readRegular reads path whole if it is a regular file of at most
// MaxFileBytes, opened so that a FIFO cannot hang the hook.
func readRegular(path string) ([]byte, error) {
	data, err := hookfs.ReadFile(path, MaxFileBytes)
	return data, fileError(err)
}

// fileError turns hookfs's refusal of a non-file into a *NotFileError.
func fileError(err error) error {
	var notRegular *hookfs.NotRegularError
	if errors.As(err, &notRegular) {
		return &NotFileError{Path: notRegular.Path, Mode: notRegular.Mode}
	}
	return err
}

// TooLargeError says a scratchpad file is over MaxFileBytes.
type TooLargeError = hookfs.TooLargeError

// NotFileError says a scratchpad path exists but is not a regular file.
type NotFileError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotFileError) Error() string { return e.Path + " is " + e.What() }

// What says what the path is instead of a file.
func (e *NotFileError) What() string {
	switch {
	case e.Mode.IsDir():
		return "a directory"
	case e.Mode&fs.ModeNamedPipe != 0:
		return "a FIFO"
	}
	return "not a regular file"
}
