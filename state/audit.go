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

// Audit appends one record to the audit trail, under the trail's lock: a
// check for a torn last line (see torn) is only true while no other hook
// is halfway through its own append, and a rotation must not move the file
// from under a writer.
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
	l := flock.New(path + ".lock")
	if err := l.Lock(); err != nil {
		return fmt.Errorf("locking audit trail %s: %w", path, err)
	}
	defer func() { _ = l.Unlock() }()
	if err := rotate(path, limit-int64(len(line))-1); err != nil {
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
// whole write ends in a newline, so under the lock only a failed write
// leaves anything else.
func torn(f *os.File) bool {
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return false
	}
	var last [1]byte
	_, err = f.ReadAt(last[:], info.Size()-1)
	return err == nil && last[0] != '\n'
}

// rotate moves the audit trail aside when it is over limit bytes. The caller
// holds the trail's lock.
func rotate(path string, limit int64) error {
	if info, err := os.Stat(path); err != nil || info.Size() <= limit {
		return nil
	}
	if err := os.Rename(path, path+".1"); err != nil {
		return fmt.Errorf("rotating audit trail %s: %w", path, err)
	}
	return nil
}
