// Package state keeps massgen-hook's runtime data (counters, records, logs)
// under <project>/.claude/massgen-hook/. The directory carries its own
// .gitignore so nothing in it is ever committed with the project, and every
// update is locked and atomically replaced, because Claude Code runs hooks for
// parallel tool calls and subagents at the same time.
package state

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

// DirName is the runtime directory, relative to the project.
const DirName = ".claude/massgen-hook"

// Dir is one project's runtime directory.
type Dir struct {
	Path string
	// AuditLimit overrides MaxAuditBytes (tests use a small one).
	AuditLimit int64
	// ReadOnly makes every update a dry run: records are read and the
	// change computed, nothing is written (explain uses it).
	ReadOnly bool
	// Notes receives one line for each thing worth telling the user that
	// does not stop the hook, such as a corrupt record reset (stderr).
	Notes io.Writer
}

// note writes one "massgen-hook: ..." line to Notes.
func (d *Dir) note(format string, args ...any) {
	if d.Notes != nil {
		fmt.Fprintf(d.Notes, "massgen-hook: "+format+"\n", args...)
	}
}

// Open returns the runtime directory of project. Nothing is created until
// something is written.
func Open(project string) *Dir { return &Dir{Path: filepath.Join(project, DirName)} }

// Ensure creates sub (a slash path) in the runtime directory, owner-only,
// with the directory's .gitignore, and returns its full path.
func (d *Dir) Ensure(sub string) (string, error) { return d.ensure(filepath.FromSlash(sub)) }

// ensure creates the directory, owner-only, with a .gitignore that ignores
// everything in it. The .gitignore is checked on every write, not only when
// the directory is made: a directory made by hand, or a deleted file, must
// not let runtime data into a commit.
func (d *Dir) ensure(sub string) (string, error) {
	full := filepath.Join(d.Path, sub)
	if err := os.MkdirAll(full, 0o700); err != nil {
		return "", fmt.Errorf("creating runtime directory: %w", err)
	}
	ignore := filepath.Join(d.Path, ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := writeAtomic(ignore, []byte("# massgen-hook runtime data: never commit it.\n*\n")); err != nil {
			return "", err
		}
	}
	return full, nil
}

// Key turns an identifier from a hook event (a session id, an agent id) into
// a file-name-safe key: kept as it is when it is plain, hashed otherwise, so
// no event field can steer a path. The hash is FNV-128a, not a cryptographic
// one: it only has to keep honest ids apart, and crypto's start-up would be
// paid by every hook call.
func Key(id string) string {
	if isPlainKey(id) {
		return id
	}
	h := fnv.New128a()
	h.Write([]byte(id))
	return "h-" + hex.EncodeToString(h.Sum(nil))
}

func isPlainKey(id string) bool {
	if id == "" || len(id) > 100 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Update runs fn on the current content of the record name (nil when absent)
// under an exclusive lock, and atomically replaces the record with what fn
// returns. A nil result removes the record. name is a slash path of Keys.
func (d *Dir) Update(name string, fn func(old []byte) ([]byte, error)) error {
	path, unlock, err := d.lock(name)
	if err != nil {
		return err
	}
	defer unlock()
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading state %s: %w", path, err)
	}
	next, err := fn(old)
	if err != nil || d.ReadOnly {
		return err
	}
	if next != nil && old != nil && bytes.Equal(next, old) {
		return nil // unchanged: no write, no rename
	}
	if next == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing state %s: %w", path, err)
		}
		return nil
	}
	return writeAtomic(path, next)
}

// Remove deletes the record name if it exists, cheaply: no directory is
// created and no lock is taken when there is nothing to remove.
func (d *Dir) Remove(name string) error {
	path := filepath.Join(d.Path, filepath.FromSlash(name))
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return d.Update(name, func([]byte) ([]byte, error) { return nil, nil })
}

func (d *Dir) lock(name string) (path string, unlock func(), err error) {
	if d.ReadOnly {
		// A dry run creates nothing, not even the lock file.
		return filepath.Join(d.Path, filepath.FromSlash(name)), func() {}, nil
	}
	dir, err := d.ensure(filepath.Dir(filepath.FromSlash(name)))
	if err != nil {
		return "", nil, err
	}
	path = filepath.Join(dir, filepath.Base(name))
	l := flock.New(path + ".lock")
	if err := l.Lock(); err != nil {
		return "", nil, fmt.Errorf("locking state %s: %w", path, err)
	}
	return path, func() { _ = l.Unlock() }, nil
}

// writeAtomic writes data to a temporary file beside path and renames it
// over path, so a reader sees the old record or the new one, never half of
// one. It does not fsync: these records are counters whose loss in a power
// cut is harmless, and a sync costs more than the whole hook.
func writeAtomic(path string, data []byte) error { return WriteFile(path, data, false) }

// WriteFile replaces path with data atomically (a temporary file beside it,
// renamed over it), owner-only. With sync the data reaches the disk before
// the rename, so after a crash path holds the old content or the new, never
// a torn file: for what must not be lost, such as a message.
func WriteFile(path string, data []byte, sync bool) error {
	return WriteFileMode(path, data, 0o600, sync)
}

// WriteFileMode is WriteFile for a file of the given mode. The temporary
// file gets the mode before it is renamed into place, whatever the umask:
// whoever opens path sees the whole file with its final mode, never a
// binary that is not yet executable.
func WriteFileMode(path string, data []byte, mode fs.FileMode, sync bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	werr := tmp.Chmod(mode)
	if werr == nil {
		_, werr = tmp.Write(data)
	}
	if werr == nil && sync {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = renameFile(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}

// renameFile is os.Rename; a test replaces it to see what is renamed.
var renameFile = os.Rename
