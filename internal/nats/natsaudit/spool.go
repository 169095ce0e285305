package natsaudit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/state"
)

// The spool keeps, in the runtime directory, the lines the broker has not
// taken yet: one "<message id> TAB <line>" a line, oldest first, owner-only.
const (
	SpoolFolder = "nats"
	SpoolFile   = "audit-spool.jsonl"
	spoolLock   = SpoolFile + ".lock"
)

// MaxSpoolBytes bounds the spool. An append that would pass it first drops
// the oldest spooled lines until the spool is at three quarters of it, and
// the count dropped is told on stderr: a broker down for days must not fill
// the disk, and the local trail still holds every line.
const MaxSpoolBytes = 8 << 20

// entry is one spooled line and the message id it is published with, kept
// so that a line sent twice (a forward cut short before its
// acknowledgement) is stored once.
type entry struct {
	id   string
	line []byte
}

func (e entry) encode(b []byte) []byte {
	b = append(b, e.id...)
	b = append(b, '\t')
	b = append(b, e.line...)
	return append(b, '\n')
}

// parseSpool reads a spool. A line cut short by a crash or not in the
// spool's form is skipped: it cannot be published as it was written.
func parseSpool(data []byte) (out []entry, skipped int) {
	for len(data) > 0 {
		line, rest, ok := bytes.Cut(data, []byte{'\n'})
		data = rest
		if !ok {
			skipped++ // a torn last line
			break
		}
		id, body, ok := bytes.Cut(line, []byte{'\t'})
		if !ok || len(id) == 0 || len(body) == 0 || body[0] != '{' || body[len(body)-1] != '}' {
			if len(line) > 0 {
				skipped++
			}
			continue
		}
		out = append(out, entry{id: string(id), line: body})
	}
	return out, skipped
}

// spool is the spool of one runtime directory.
type spool struct {
	dir *state.Dir
	max int64
}

// path is the spool's full path, for messages.
func (s spool) path() string { return filepath.Join(s.dir.Path, SpoolFolder, SpoolFile) }

// lock opens the spool's folder and takes its lock.
func (s spool) lock() (*hookfs.Dir, func(), error) {
	dir, err := s.dir.Folder(SpoolFolder)
	if err != nil {
		return nil, nil, err
	}
	unlock, err := dir.Lock(spoolLock)
	if err != nil {
		dir.Close()
		return nil, nil, err
	}
	return dir, func() { unlock(); dir.Close() }, nil
}

// pending reports, without a lock, whether there may be spooled lines: a
// cheap look on every publish (a missing folder or file is the usual
// answer).
func (s spool) pending() bool {
	dir, err := s.dir.FolderIfExists(SpoolFolder)
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	defer dir.Close()
	ok, err := dir.Exists(SpoolFile)
	return ok || err != nil
}

// add appends entries under the lock, after dropping the oldest lines if
// the spool would pass its bound; it returns how many were dropped.
func (s spool) add(entries ...entry) (dropped int, err error) {
	dir, unlock, err := s.lock()
	if err != nil {
		return 0, err
	}
	defer unlock()
	var add []byte
	for _, e := range entries {
		add = e.encode(add)
	}
	f, err := dir.OpenFile(SpoolFile, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	// A spool with another name (a hard link planted at its name, to a
	// file of the user's) is never appended to: trim replaces the name.
	if info.Size()+int64(len(add)) > s.max || hookfs.HardLinked(info) {
		return s.trim(dir, add)
	}
	if info.Size() > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], info.Size()-1); err == nil && last[0] != '\n' {
			add = append([]byte{'\n'}, add...) // after a torn line, start a line of our own
		}
	}
	if _, err := f.Write(add); err != nil {
		return 0, fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	return 0, nil
}

// trim rewrites the spool with its newest lines and add, at most three
// quarters of the bound, and returns how many lines it dropped.
func (s spool) trim(dir *hookfs.Dir, add []byte) (int, error) {
	data, err := dir.ReadFile(SpoolFile, 2*s.max+int64(len(add)))
	var tooLarge *hookfs.TooLargeError
	lost := 0
	switch {
	case errors.As(err, &tooLarge):
		data, lost = nil, 1 // larger than any spool written here: start afresh
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return 0, err
	}
	old, skipped := parseSpool(data)
	keep := s.max*3/4 - int64(len(add))
	size := int64(0)
	first := len(old)
	for first > 0 {
		n := int64(len(old[first-1].id) + len(old[first-1].line) + 2)
		if size+n > keep {
			break
		}
		size += n
		first--
	}
	var out []byte
	for _, e := range old[first:] {
		out = e.encode(out)
	}
	out = append(out, add...)
	if err := dir.WriteFile(SpoolFile, out, 0o600, false); err != nil {
		return 0, err
	}
	return first + skipped + lost, nil
}

// forward hands the spooled lines, oldest first, to send under the lock,
// and keeps those send reports not taken (it returns how many, from the
// front, were taken). It returns how many lines were taken.
func (s spool) forward(send func([]entry) (int, error)) (int, error) {
	dir, unlock, err := s.lock()
	if err != nil {
		return 0, err
	}
	defer unlock()
	data, err := dir.ReadFile(SpoolFile, 2*s.max)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	entries, _ := parseSpool(data)
	sent, sendErr := send(entries)
	if sent == 0 && sendErr != nil {
		return 0, sendErr
	}
	if sent >= len(entries) {
		if err := dir.Remove(SpoolFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return sent, err
		}
		return sent, sendErr
	}
	var out []byte
	for _, e := range entries[sent:] {
		out = e.encode(out)
	}
	if err := dir.WriteFile(SpoolFile, out, 0o600, false); err != nil {
		return sent, err
	}
	return sent, sendErr
}
