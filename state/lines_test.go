package state

import (
	"os"
	"path/filepath"
	"testing"
)

// UpdateLines appends what fn adds after the old record to the file where
// it is (the same file, not a new one renamed over it), and replaces the
// record as Update does when fn returns anything else; nil removes it.
// A record changed without the lock since it was read (another size) is
// replaced whole, as fn saw it.
func TestUpdateLinesAppendsInPlace(t *testing.T) {
	d := Open(t.TempDir())
	name := "sessions/s1/count.json"
	path := filepath.Join(d.Path, filepath.FromSlash(name))
	set := func(next string) {
		t.Helper()
		if err := d.UpdateLines(name, func([]byte) ([]byte, error) { return []byte(next), nil }); err != nil {
			t.Fatal(err)
		}
		if data, err := os.ReadFile(path); err != nil || string(data) != next {
			t.Fatalf("record %q, %v; want %q", data, err, next)
		}
	}
	stat := func() os.FileInfo {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	set("1\n")
	first := stat()
	set("1\n2\n")
	if !os.SameFile(first, stat()) {
		t.Error("a line added after the record replaced the file")
	}
	set("3\n")
	replaced := stat()
	if os.SameFile(first, replaced) {
		t.Error("a record that does not extend the old one was written in place")
	}

	// Changed behind the lock: fn saw "3\n", the file is "3\nx\n" now.
	err := d.UpdateLines(name, func(old []byte) ([]byte, error) {
		if err := os.WriteFile(path, []byte("3\nx\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return append(old, "4\n"...), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "3\n4\n" {
		t.Errorf("after a write behind the lock: %q, want fn's record whole", data)
	}

	if err := d.UpdateLines(name, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("a nil record left %v", err)
	}

	// Made behind the lock while fn ran: replaced whole, as fn saw it.
	err = d.UpdateLines(name, func(old []byte) ([]byte, error) {
		if err := os.WriteFile(path, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return []byte("1\n"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "1\n" {
		t.Errorf("after a file made behind the lock: %q, want fn's record", data)
	}
	if tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp")); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}
