package cli

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

// binaryIgnore is what init adds to the .gitignore beside the binary it
// copies into a project: the binary is built for one machine's OS and CPU
// (and is megabytes), so each clone installs its own with init rather than
// committing it.
const binaryIgnore = "# massgen-hook init: the binary is per machine; each clone runs massgen-hook init\n/massgen-hook\n"

// maxIgnoreBytes bounds the .gitignore init reads: a FIFO or a giant there
// is refused, not read.
const maxIgnoreBytes = 1 << 20

// ignoreBinary makes sure git ignores binary, through the .gitignore in its
// folder: created when missing, extended when it does not list the binary,
// left alone when it does.
func (w *installer) ignoreBinary(binary string) error {
	path := filepath.Join(filepath.Dir(binary), ".gitignore")
	old, err := hookfs.ReadFile(path, maxIgnoreBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return fmt.Errorf("reading %s: %w", path, err)
	case hasLine(old, "/"+filepath.Base(binary)) || hasLine(old, filepath.Base(binary)):
		return nil
	}
	if w.dryRun {
		w.say(path, "would list the binary, so git ignores it")
		return nil
	}
	updated := old
	if len(updated) > 0 && updated[len(updated)-1] != '\n' {
		updated = append(updated, '\n')
	}
	updated = append(updated, binaryIgnore...)
	if err := state.WriteFileMode(path, updated, 0o644, true); err != nil {
		return err
	}
	w.say(path, "lists the binary, so git ignores it")
	return nil
}

// unignoreBinary takes out what ignoreBinary added, and the file when
// nothing else is in it.
func (w *installer) unignoreBinary(binary string) error {
	path := filepath.Join(filepath.Dir(binary), ".gitignore")
	old, err := hookfs.ReadFile(path, maxIgnoreBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	i := bytes.Index(old, []byte(binaryIgnore))
	if i < 0 || (i > 0 && old[i-1] != '\n') {
		return nil // the user's own lines: theirs to keep
	}
	rest := append(old[:i:i], old[i+len(binaryIgnore):]...)
	if w.dryRun {
		w.say(path, "would stop listing the binary")
		return nil
	}
	if len(rest) == 0 {
		if err := os.Remove(path); err != nil {
			return err
		}
		w.say(path, "removed")
		return nil
	}
	if err := state.WriteFileMode(path, rest, 0o644, true); err != nil {
		return err
	}
	w.say(path, "no longer lists the binary")
	return nil
}

// hasLine reports whether data has line as one of its lines.
func hasLine(data []byte, line string) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if string(bytes.TrimSpace(l)) == line {
			return true
		}
	}
	return false
}
