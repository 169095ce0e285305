package fspath

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestReadDirInodes: readDir lists a folder as os.ReadDir does (names,
// sorted, types), and each entry's inode is the one Lstat gives.
func TestReadDirInodes(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.txt", "a.txt", "sub", "link"} {
		var err error
		switch name {
		case "sub":
			err = os.Mkdir(filepath.Join(dir, name), 0o755)
		case "link":
			err = os.Symlink("a.txt", filepath.Join(dir, name))
		default:
			err = os.WriteFile(filepath.Join(dir, name), nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := readDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("readDir: %d entries, os.ReadDir %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() {
			t.Errorf("entry %d: %s %v, want %s %v", i, got[i].Name(), got[i].Type(), want[i].Name(), want[i].Type())
		}
		info, err := os.Lstat(filepath.Join(dir, got[i].Name()))
		if err != nil {
			t.Fatal(err)
		}
		ino, ok := inoOf(got[i])
		if !ok || ino != info.Sys().(*syscall.Stat_t).Ino {
			t.Errorf("%s: inode %d %v, Lstat says %d", got[i].Name(), ino, ok, info.Sys().(*syscall.Stat_t).Ino)
		}
	}
	if !slices.IsSortedFunc(got, func(a, b os.DirEntry) int {
		if a.Name() < b.Name() {
			return -1
		}
		return 1
	}) {
		t.Error("not sorted")
	}
}

// TestAppendDirentsUnknownType: an entry whose type the file system does
// not give is asked with Lstat; a record cut short ends the parse.
func TestAppendDirentsUnknownType(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := make([]byte, 24)
	rec[0] = 7               // inode
	rec[16], rec[17] = 24, 0 // reclen (little-endian, as on the machines tested)
	rec[18] = 0              // DT_UNKNOWN
	copy(rec[19:], "d\x00")
	got := appendDirents(nil, dir, append(rec, 1, 2, 3))
	if len(got) != 1 || got[0].Name() != "d" || !got[0].IsDir() {
		t.Fatalf("got %v", got)
	}
	if ino, _ := inoOf(got[0]); ino != 7 {
		t.Errorf("inode %d", ino)
	}
}
