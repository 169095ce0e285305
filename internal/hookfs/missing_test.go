package hookfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestMissingIsErrorsIs: Missing answers as errors.Is(err,
// fs.ErrNotExist) does, on what this package's reads return for a file
// that is there, one that is not, one under a missing or a non-folder
// parent, a link, a folder, and one that cannot be read.
func TestMissingIsErrorsIs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	file := write("file", 0o644)
	unreadable := write("unreadable", 0o000)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"present":          file,
		"absent":           filepath.Join(dir, "absent"),
		"absent parent":    filepath.Join(dir, "no", "file"),
		"file as a parent": filepath.Join(file, "file"),
		"link":             link,
		"folder":           dir,
		"unreadable":       unreadable,
	}
	sawMissing := false
	for name, p := range cases {
		_, err := ReadFile(p, 10)
		want := errors.Is(err, fs.ErrNotExist)
		if got := Missing(err); got != want {
			t.Errorf("%s: Missing(%v) = %v; errors.Is says %v", name, err, got, want)
		}
		sawMissing = sawMissing || want
	}
	if !sawMissing {
		t.Error("no case was a missing file")
	}
	if Missing(nil) {
		t.Error("Missing(nil) = true")
	}
}
