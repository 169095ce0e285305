package state

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// AuditFile is the audit trail, one JSON object a line, in the runtime directory.
const AuditFile = "audit.jsonl"

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
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening audit trail: %w", err)
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
