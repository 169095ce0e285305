package wiring

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// A settings file that is a FIFO is refused at once (init does not wait
// for a writer); one over MaxFileBytes is not read.
func TestReadRefusesFIFOAndGiants(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "settings.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var nr *hookfs.NotRegularError
	if _, err := Read(fifo); !errors.As(err, &nr) || nr.What() != "a FIFO" {
		t.Errorf("Read(FIFO) = %v", err)
	}
	giant := filepath.Join(dir, "giant.json")
	f, err := os.Create(giant)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var tl *hookfs.TooLargeError
	if _, err := Read(giant); !errors.As(err, &tl) {
		t.Errorf("Read(giant) = %v", err)
	}
}
