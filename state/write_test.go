package state

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// What WriteFileMode renames into place already has its final mode, so no
// process that opens the destination (a hook starting while init installs
// the binary) ever finds it without its execute bits. The umask does not
// change the mode asked for.
func TestWriteFileModeRenamesAFileThatHasItsMode(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	var renamed []fs.FileMode
	renameFile = func(from, to string) error {
		info, err := os.Lstat(from)
		if err != nil {
			t.Fatalf("stat of the file about to be renamed: %v", err)
		}
		renamed = append(renamed, info.Mode())
		return os.Rename(from, to)
	}
	defer func() { renameFile = os.Rename }()

	dest := filepath.Join(t.TempDir(), "massgen-hook")
	for _, data := range []string{"#!/bin/sh\necho one\n", "#!/bin/sh\necho two\n"} {
		if err := WriteFileMode(dest, []byte(data), 0o755, true); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(dest); string(got) != data {
			t.Errorf("dest holds %q, want %q", got, data)
		}
	}
	for i, m := range renamed {
		if m != 0o755 {
			t.Errorf("rename %d: the file renamed over the destination has mode %v, want -rwxr-xr-x", i+1, m)
		}
	}
	if len(renamed) != 2 {
		t.Errorf("%d renames, want 2", len(renamed))
	}
	if info, err := os.Stat(dest); err != nil || info.Mode() != 0o755 {
		t.Errorf("destination: %v, %v; want -rwxr-xr-x", info.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dest))
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

// WriteFile keeps runtime data owner-only.
func TestWriteFileIsOwnerOnly(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "record.json")
	if err := WriteFile(dest, []byte("{}"), false); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dest); err != nil || info.Mode() != 0o600 {
		t.Errorf("record: %v, %v; want -rw-------", info.Mode(), err)
	}
}
