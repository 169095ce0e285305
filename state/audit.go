package state

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

// AuditFile is the audit trail, one JSON object a line, in the runtime directory.
const AuditFile = "audit.jsonl"

// MaxAuditBytes bounds the audit trail: past it, the file is moved to
// audit.jsonl.1 (replacing the previous one) and a new one is started, so
// the trail keeps the latest 8-16 MiB of decisions and never grows without
// bound on a hook that runs on every tool call.
const MaxAuditBytes = 8 << 20

// Audit appends one record to the audit trail. A single write of one line to
// a file opened for appending is atomic among concurrent hooks on local
// filesystems, so lines never interleave.
func (d *Dir) Audit(record any) error {
	line, err := json.Marshal(record)
	if err != nil {
		return fmt.Errorf("encoding audit record: %w", err)
	}
	if _, err := d.ensure("."); err != nil {
		return err
	}
	path := filepath.Join(d.Path, AuditFile)
	limit := d.AuditLimit
	if limit <= 0 {
		limit = MaxAuditBytes
	}
	if err := d.rotate(path, limit-int64(len(line))-1); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening audit trail: %w", err)
	}
	if torn(f) {
		// A write cut short (a full disk) left a fragment without its
		// newline: start on a line of our own, or this record is glued
		// to it and lost too.
		line = append([]byte{'\n'}, line...)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing audit trail %s: %w", path, err)
	}
	return nil
}

// torn reports whether f, a JSON-lines file, ends inside a line. Every
// whole write ends in a newline, and appends of one line are atomic, so
// only a failed write leaves anything else.
func torn(f *os.File) bool {
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return false
	}
	var last [1]byte
	_, err = f.ReadAt(last[:], info.Size()-1)
	return err == nil && last[0] != '\n'
}

// rotate moves the audit trail aside when it is over limit bytes. The size is
// checked without a lock (one stat per line); only a rotation takes the lock
// and checks again, so two hooks never rotate the same file twice. A writer
// still holding the old file finishes its line in audit.jsonl.1: nothing is lost.
func (d *Dir) rotate(path string, limit int64) error {
	if info, err := os.Stat(path); err != nil || info.Size() <= limit {
		return nil
	}
	l := flock.New(path + ".lock")
	if err := l.Lock(); err != nil {
		return fmt.Errorf("locking audit trail %s: %w", path, err)
	}
	defer func() { _ = l.Unlock() }()
	if info, err := os.Stat(path); err != nil || info.Size() <= limit {
		return nil
	}
	if err := os.Rename(path, path+".1"); err != nil {
		return fmt.Errorf("rotating audit trail %s: %w", path, err)
	}
	return nil
}
