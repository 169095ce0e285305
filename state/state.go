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
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// DirName is the runtime directory, relative to the project.
const DirName = ".claude/massgen-hook"

// MaxRecordBytes bounds a record: they are small counters and lists, and
// the hook must not read a planted giant into memory.
const MaxRecordBytes = 1 << 20

// Dir is one project's runtime directory.
//
// Every folder from Anchor down to a record, the audit trail or a lock is
// opened without following symbolic links (see hookfs), and files are
// opened in their folder, never through a link: an agent that puts a link
// at audit.jsonl, at .claude/massgen-hook, or at .claude itself, gets a
// refusal, not an append to the file the link names.
//
// A Dir keeps the folders it walked to open, so a process walks from the
// project once, not for every read and write: Close them when done with
// it. A Dir is not to be copied once used.
type Dir struct {
	Path string
	// Anchor is the folder Path is in, taken as it is (Open sets the
	// project); empty means Path's parent.
	Anchor string
	// AuditLimit overrides MaxAuditBytes (tests use a small one).
	AuditLimit int64
	// ReadOnly makes every update a dry run: records are read and the
	// change computed, nothing is written (explain uses it).
	ReadOnly bool
	// AuditSink, when set, gets a copy of every audit line (see Audit).
	AuditSink AuditSink
	// Notes receives one line for each thing worth telling the user that
	// does not stop the hook, such as a corrupt record reset (stderr).
	Notes io.Writer

	// open are the folders Dir keeps open once walked to (see Close),
	// under mu: goroutines may share a Dir.
	mu   sync.Mutex
	open *openFolders
}

// note writes one "massgen-hook: ..." line to Notes.
func (d *Dir) note(format string, args ...any) {
	if d.Notes != nil {
		fmt.Fprintf(d.Notes, "massgen-hook: "+format+"\n", args...)
	}
}

// Open returns the runtime directory of project. Nothing is created until
// something is written.
func Open(project string) *Dir {
	return &Dir{Path: filepath.Join(project, DirName), Anchor: project}
}

// Ensure creates sub (a slash path) in the runtime directory, owner-only,
// with the directory's .gitignore, and returns its full path. No folder on
// the way may be a link.
func (d *Dir) Ensure(sub string) (string, error) {
	dir, done, err := d.borrowFresh(sub, true)
	if err != nil {
		return "", err
	}
	defer done()
	return dir.Path(), nil
}

// Folder opens sub (a slash path) in the runtime directory, creating it
// owner-only when missing, with no link on the way: for code that keeps
// files of its own there (the audit sink's spool). The caller closes it.
func (d *Dir) Folder(sub string) (*hookfs.Dir, error) {
	return d.folder(sub, true)
}

// FolderIfExists is Folder without creating anything: fs.ErrNotExist when
// sub is not there.
func (d *Dir) FolderIfExists(sub string) (*hookfs.Dir, error) {
	return d.folder(sub, false)
}

// CheckLinks reports a *hookfs.LinkError when the runtime directory, or
// any of the folders subs (slash paths in it) that exist, is reached
// through a symbolic link. Code that works in those folders by path (the
// inbox) calls it first; folders not there yet are fine. found holds the
// folders it opened, subs and the folders on their way, as clean slash
// paths: what is not in it was not there, and nothing under it needs a
// look. The walk is made afresh from the project, so a folder swapped for
// a link since it was kept is refused.
func (d *Dir) CheckLinks(subs ...string) (found map[string]bool, err error) {
	return d.checkLinks(d.borrowFresh, subs)
}

// CheckLinksIfAny is CheckLinks for a reader that does nothing when none
// of subs is there: the kept folders answer first, and only when one of
// subs is among them is the walk made afresh. A runtime directory swapped
// for a link since it was kept, with none of subs in the folder kept, is
// not reported: the reader does nothing there.
func (d *Dir) CheckLinksIfAny(subs ...string) (found map[string]bool, err error) {
	found, err = d.checkLinks(d.borrow, subs)
	if err != nil || len(found) == 0 {
		return found, err
	}
	return d.CheckLinks(subs...)
}

func (d *Dir) checkLinks(borrow func(string, bool) (*hookfs.Dir, func(), error), subs []string) (map[string]bool, error) {
	found := map[string]bool{}
	root, done, err := borrow("", false)
	if errors.Is(err, fs.ErrNotExist) {
		return found, nil
	}
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkTree(root, "", subs, found); err != nil {
		return nil, fmt.Errorf("runtime directory: %w", err)
	}
	return found, nil
}

// checkTree opens each folder of subs (slash paths in dir, which is at
// prefix) that exists, one name at a time without following a link, each
// folder once, and notes it in found: the folders under one missing folder
// are not asked about (a hook asks for ten inbox folders before the inbox
// exists).
func checkTree(dir *hookfs.Dir, prefix string, subs []string, found map[string]bool) error {
	var firsts []string
	below := map[string][]string{}
	for _, sub := range subs {
		first, rest, _ := strings.Cut(strings.TrimLeft(sub, "/"), "/")
		if first == "" || first == "." {
			if rest != "" {
				if err := checkTree(dir, prefix, []string{rest}, found); err != nil {
					return err
				}
			}
			continue
		}
		if _, seen := below[first]; !seen {
			firsts = append(firsts, first)
			below[first] = nil
		}
		if rest != "" {
			below[first] = append(below[first], rest)
		}
	}
	for _, name := range firsts {
		sub, err := dir.Sub(name, false, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		found[prefix+name] = true
		err = checkTree(sub, prefix+name+"/", below[name], found)
		sub.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// ignoreRules is the runtime directory's .gitignore: everything in it.
const ignoreRules = "# massgen-hook runtime data: never commit it.\n*\n"

// keepIgnored makes sure root, the runtime directory, has a .gitignore
// that ignores everything in it. It is checked by every process that
// writes (on its first write), not only when the directory is made: a
// directory made by hand, a deleted or emptied file, must not let runtime
// data into a commit. A .gitignore
// without a line "*" gets ours at its top; the user's own lines after it
// (an exception such as "!audit.jsonl") stay.
func (d *Dir) keepIgnored(root *hookfs.Dir) error {
	old, err := root.ReadFile(".gitignore", 64<<10)
	switch {
	case err == nil && ignoresAll(old):
		return nil
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	default:
		// A link, a folder or a giant: replaced, since what it says is
		// not ours to trust (a rename replaces a link, never follows it).
		d.note("%s/.gitignore: %s; replacing it", d.Path, reason(err))
		old = nil
	}
	if err := root.WriteFile(".gitignore", append([]byte(ignoreRules), old...), 0o600, false); err != nil {
		return &stateError{"writing", filepath.Join(root.Path(), ".gitignore"), err}
	}
	return nil
}

// ignoresAll reports whether a .gitignore has the line "*".
func ignoresAll(gitignore []byte) bool {
	for _, line := range strings.Split(string(gitignore), "\n") {
		if strings.TrimSpace(line) == "*" {
			return true
		}
	}
	return false
}

// stateError is a failed read or write of a record, naming it once.
type stateError struct {
	op, path string
	err      error
}

func (e *stateError) Error() string { return e.op + " " + e.path + ": " + reason(e.err) }
func (e *stateError) Unwrap() error { return e.err }

// reason is what went wrong with a file, without its path (which the
// message names already): "is a symbolic link", "file too large".
func reason(err error) string {
	var notRegular *hookfs.NotRegularError
	var tooLarge *hookfs.TooLargeError
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	switch {
	case errors.As(err, &notRegular):
		return "is " + notRegular.What()
	case errors.As(err, &tooLarge):
		return fmt.Sprintf("is too large (over %d bytes)", tooLarge.Max)
	case errors.As(err, &pathErr):
		return pathErr.Err.Error()
	case errors.As(err, &linkErr):
		return linkErr.Err.Error()
	}
	return err.Error()
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

// splitName splits a record's slash path into its folder and file name.
func splitName(name string) (sub, base string) {
	sub, base = path.Split(name)
	return strings.TrimSuffix(sub, "/"), base
}

// readRecord reads the record base in dir: nil when it is absent. One that
// is a link, a FIFO, a folder or over MaxRecordBytes is an error naming it.
func readRecord(dir *hookfs.Dir, base string) ([]byte, error) {
	data, err := dir.ReadFile(base, MaxRecordBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &stateError{"reading state", filepath.Join(dir.Path(), base), err}
	}
	return data, nil
}

// Update runs fn on the current content of the record name (nil when absent)
// under an exclusive lock, and atomically replaces the record with what fn
// returns. A nil result removes the record. name is a slash path of Keys.
func (d *Dir) Update(name string, fn func(old []byte) ([]byte, error)) error {
	return d.update(name, fn, false)
}

// UpdateLines is Update for a record of lines that only grows until it
// is removed (a count kept as a line per event): a new record is written
// where it goes, and when fn returns the old record with lines added
// after it, they are appended to the file where it is, rather than a new
// file renamed over it. On ext4 a rename over a file makes the kernel
// write the new one out at once (its auto_da_alloc safeguard), the largest
// cost of a hook that updates a record, and a temporary file costs an
// inode more. Neither write is atomic: after a crash the last line may be
// cut short or missing, so the record's reader must take a last line that
// does not parse as lost. Anything else fn returns replaces the record as
// Update does.
func (d *Dir) UpdateLines(name string, fn func(old []byte) ([]byte, error)) error {
	return d.update(name, fn, true)
}

func (d *Dir) update(name string, fn func(old []byte) ([]byte, error), lines bool) error {
	sub, base := splitName(name)
	if d.ReadOnly {
		// A dry run creates nothing, not even the lock file.
		var old []byte
		dir, done, err := d.borrow(sub, false)
		if err == nil {
			old, err = readRecord(dir, base)
			done()
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		_, err = fn(old)
		return err
	}
	dir, unlock, err := d.lockRecord(sub, base)
	if err != nil {
		return err
	}
	defer unlock()
	old, err := readRecord(dir, base)
	if err != nil {
		return err
	}
	next, err := fn(old)
	if err != nil {
		return err
	}
	if next != nil && old != nil && bytes.Equal(next, old) {
		return nil // unchanged: no write, no rename
	}
	if next == nil {
		if err := dir.Remove(base); err != nil {
			return &stateError{"removing state", filepath.Join(dir.Path(), base), err}
		}
		return nil
	}
	if lines && old == nil {
		err := dir.Create(base, next, 0o600)
		if err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return &stateError{"writing state", filepath.Join(dir.Path(), base), err}
		}
		// Made by a writer that did not take the lock: replaced below.
	}
	if lines && len(old) > 0 && len(next) > len(old) && bytes.HasPrefix(next, old) {
		err := dir.Append(base, next[len(old):], int64(len(old)))
		if err == nil {
			return nil
		}
		if !errors.Is(err, hookfs.ErrChanged) {
			return &stateError{"writing state", filepath.Join(dir.Path(), base), err}
		}
		// Changed by a writer that did not take the lock: replaced whole
		// below, as fn saw it.
	}
	// Replaced atomically (a reader sees the old record or the new one),
	// not synced: these are counters whose loss in a power cut is
	// harmless, and a sync costs more than the whole hook.
	if err := dir.WriteFile(base, next, 0o600, false); err != nil {
		return &stateError{"writing state", filepath.Join(dir.Path(), base), err}
	}
	return nil
}

// lockRecord takes the lock of the record base in the folder sub.
func (d *Dir) lockRecord(sub, base string) (*hookfs.Dir, func(), error) {
	return d.lockIn(sub, base+".lock", func(folder string, err error) error {
		return &stateError{"locking state", filepath.Join(folder, base), err}
	})
}

// Remove deletes the record name if it exists, cheaply: no directory is
// created and no lock is taken when there is nothing to remove. The record
// is not read first, so one too large to read goes too.
func (d *Dir) Remove(name string) error {
	if !d.has(name) || d.ReadOnly {
		return nil
	}
	sub, base := splitName(name)
	dir, unlock, err := d.lockRecord(sub, base)
	if err != nil {
		return err
	}
	defer unlock()
	if err := dir.Remove(base); err != nil {
		return &stateError{"removing state", filepath.Join(dir.Path(), base), err}
	}
	return nil
}

// has reports whether the runtime directory holds name (a slash path),
// whatever it is. A folder on the way that cannot be opened counts as
// there: the write that follows says why.
func (d *Dir) has(name string) bool {
	sub, base := splitName(name)
	dir, done, err := d.borrow(sub, false)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	defer done()
	ok, err := dir.Exists(base)
	return ok || err != nil
}

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
