package inbox

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// A hook process (one state.Dir) that used the runtime directory before
// (a send here; in a hook, any record read or the audit line) refuses it
// once it is swapped for a link: the message is never written by path
// through the link, outside the project.
func TestSendAfterRuntimeDirSwappedForALink(t *testing.T) {
	e := newEnv(t)
	e.send(Draft{Text: "one"}, t0)
	runtime := e.st.Path
	if err := os.Rename(runtime, runtime+".moved"); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	for _, f := range folders {
		if err := os.MkdirAll(filepath.Join(elsewhere, f), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(elsewhere, runtime); err != nil {
		t.Fatal(err)
	}
	var le *hookfs.LinkError
	if _, err := e.ib.Send(Draft{Text: "two"}, t0); !errors.As(err, &le) {
		t.Errorf("Send = %v, want a *LinkError", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(elsewhere, dirName, messagesDir)); len(entries) != 0 {
		t.Errorf("written through the link, outside the project: %v", entries)
	}
}
