package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/massgen/massgen-hook/internal/hookfs"
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
// from under a writer. The trail is opened in the runtime directory,
// reached without following links, and is never itself followed if a
// link: a refusal is an error, which the caller notes (the decision it
// records stands). Appends are not synced: a power cut may lose the last
// lines, never the decisions themselves.
//
// With an AuditSink, the line is then handed to it, after the trail's lock
// is released: the local trail is the record, the sink a copy, so a sink
// that is slow or failing never holds up or loses the local line. A line
// the trail refused is not handed on either: the copy holds only what the
// trail holds.
//
// A record that is an AuditLiner writes its own line; any other is
// encoded with encoding/json.
func (d *Dir) Audit(record any) error {
	if l, ok := record.(AuditLiner); ok {
		return d.AuditLine(l)
	}
	line, err := json.Marshal(record)
	if err != nil {
		return fmt.Errorf("encoding audit record: %w", err)
	}
	return d.appendLine(line)
}

// AuditLine is Audit for a record that writes its own line. Called with
// the record's own type, it asks nothing of the runtime: Audit's type
// assertion builds the record type's method table on the first call of a
// process, and every tool call's hook records one.
func (d *Dir) AuditLine(record AuditLiner) error {
	line, err := record.AuditLine()
	if err != nil {
		return fmt.Errorf("encoding audit record: %w", err)
	}
	return d.appendLine(line)
}

// appendLine appends line to the trail and hands it to the sink.
func (d *Dir) appendLine(line []byte) error {
	if err := d.appendAudit(line); err != nil {
		return err
	}
	if d.AuditSink != nil && !d.ReadOnly {
		d.AuditSink.Publish(line)
	}
	return nil
}

// An AuditLiner writes its own audit line: one JSON object, compact (no
// newline), as json.Marshal would write the record; Audit takes it as it
// is. It is for the records of every tool call, which a reflective
// encoding costs more than writing.
type AuditLiner interface {
	AuditLine() ([]byte, error)
}

// AuditSink receives a copy of each audit line (the JSON object, without
// its newline) once it is in the local trail. Publish never fails the
// caller: a sink keeps what it cannot send and says so itself.
type AuditSink interface {
	Publish(line []byte)
}

// appendAudit appends line and a newline to the trail under its lock.
func (d *Dir) appendAudit(line []byte) error {
	dir, unlock, err := d.lockIn("", AuditFile+".lock", func(folder string, err error) error {
		return &stateError{"locking audit trail", filepath.Join(folder, AuditFile), err}
	})
	if err != nil {
		return err
	}
	defer unlock()
	limit := d.AuditLimit
	if limit <= 0 {
		limit = MaxAuditBytes
	}
	f, err := openTrail(dir, limit-int64(len(line))-1)
	if err != nil {
		return err
	}
	out := make([]byte, 0, len(line)+2)
	if torn(f) {
		// A write cut short (a full disk) left a fragment without its
		// newline: start on a line of our own, or this record is glued
		// to it and lost too.
		out = append(out, '\n')
	}
	out = append(append(out, line...), '\n')
	_, err = f.Write(out)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing audit trail %s: %w", f.Name(), err)
	}
	return nil
}

// openTrail opens the audit trail to append, after moving it to
// audit.jsonl.1 when it is over limit bytes, or has another name (a hard
// link planted at its name, to a file that is not ours: never written).
// The caller holds the trail's lock, so the size it was opened with stays
// its size until this append.
func openTrail(dir *hookfs.Dir, limit int64) (*hookfs.RegularFile, error) {
	for rotated := false; ; rotated = true {
		f, err := dir.OpenRegular(AuditFile, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, &stateError{"opening audit trail", filepath.Join(dir.Path(), AuditFile), err}
		}
		if !f.Linked() && (f.Size() <= limit || rotated) {
			return f, nil
		}
		f.Close()
		if rotated { // linked again since it was moved aside
			return nil, &stateError{"opening audit trail", filepath.Join(dir.Path(), AuditFile), errors.New("it is a hard link to another file")}
		}
		if err := dir.Rename(AuditFile, AuditFile+".1"); err != nil {
			return nil, &stateError{"rotating audit trail", filepath.Join(dir.Path(), AuditFile), err}
		}
	}
}

// torn reports whether f, a JSON-lines file, ends inside a line. Every
// whole write ends in a newline, so under the lock only a failed write
// leaves anything else.
func torn(f *hookfs.RegularFile) bool {
	if f.Size() == 0 {
		return false
	}
	var last [1]byte
	_, err := f.ReadAt(last[:], f.Size()-1)
	return err == nil && last[0] != '\n'
}
