package state

import (
	"os"
	"path/filepath"
	"testing"
)

func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count descriptors: %v", err)
	}
	return len(entries)
}

// A Dir keeps the folders it walked to open until Close, and no more than
// maxOpenFolders of them, however many folders it is used in.
func TestDirKeepsFoldersUntilClose(t *testing.T) {
	d := Open(t.TempDir())
	before := openFDs(t)
	for i := range 3 * maxOpenFolders {
		if err := d.Update(SessionRecord(string(rune('a'+i)), "rec"), set("x")); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ReadJSON(SessionRecord("a", "rec"), new(string)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Audit(map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if open := openFDs(t) - before; open < 1 || open > maxOpenFolders {
		t.Errorf("%d descriptors open while the Dir is in use, want 1 to %d", open, maxOpenFolders)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if open := openFDs(t) - before; open != 0 {
		t.Errorf("%d descriptors open after Close", open)
	}
	// Closed, it opens them again when used.
	if err := d.Update(SessionRecord("a", "rec"), set("y")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(d.Path, "sessions", "a", "rec.json")); got != "y" {
		t.Errorf("after Close and Update: %q", got)
	}
	d.Close()
}

// A runtime directory removed while a Dir has it open (a user's rm -rf
// between two writes of one hook) is made anew by the next write, with its
// .gitignore, as a fresh process would make it: nothing goes into the
// removed folder, where it would be lost.
func TestWriteAfterTheRuntimeDirWasRemoved(t *testing.T) {
	for _, write := range []struct {
		name string
		do   func(d *Dir) error
		file string
	}{
		{"Update", func(d *Dir) error { return d.Update(SessionRecord("s", "rec"), set("x")) }, "sessions/s/rec.json"},
		{"Audit", func(d *Dir) error { return d.Audit(map[string]int{"a": 1}) }, AuditFile},
	} {
		t.Run(write.name, func(t *testing.T) {
			d := Open(t.TempDir())
			defer d.Close()
			if err := write.do(d); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(d.Path); err != nil {
				t.Fatal(err)
			}
			if err := write.do(d); err != nil {
				t.Fatalf("write after the removal: %v", err)
			}
			if _, err := os.Stat(filepath.Join(d.Path, filepath.FromSlash(write.file))); err != nil {
				t.Errorf("the write after the removal is not in the runtime directory: %v", err)
			}
			if got := readFile(t, filepath.Join(d.Path, ".gitignore")); got != ignoreRules {
				t.Errorf(".gitignore after the removal: %q", got)
			}
		})
	}
}

// A Dir whose Path is changed after use (a sandboxed run sets its own)
// works in the new one, not in the folders it kept open for the old one.
func TestDirFollowsAChangedPath(t *testing.T) {
	d := Open(t.TempDir())
	defer d.Close()
	if err := d.Update("rec", set("old")); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	d.Path, d.Anchor = other, other
	if err := d.Update("rec", set("new")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(other, "rec")); got != "new" {
		t.Errorf("record in the new Path: %q", got)
	}
}

// A folder name is taken as the walk takes it: "a//./b" is a/b, and a
// ".." is refused, never cleaned away.
func TestFolderNames(t *testing.T) {
	d := Open(t.TempDir())
	defer d.Close()
	if err := d.Update("a//./b/rec", set("x")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(d.Path, "a", "b", "rec")); got != "x" {
		t.Errorf("a/b/rec = %q", got)
	}
	for _, name := range []string{"a/../rec", "../rec"} {
		if err := d.Update(name, set("y")); err == nil {
			t.Errorf("Update(%q) succeeded, want a refusal", name)
		}
	}
}
