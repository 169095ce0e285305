package fspath

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstEntryReadsAsReaddirnames: firstEntry picks the name that
// os.File.Readdirnames(n), scanned in order, gives: the folder's own order,
// the first n names only, . and .. never among them; "" for a folder it
// cannot read.
func TestFirstEntryReadsAsReaddirnames(t *testing.T) {
	root := t.TempDir()
	var many []string
	for i := range 100 {
		name := fmt.Sprint(i)
		if i%2 == 1 {
			name = fmt.Sprintf("n%04d-with-a-long-name-%s", i, strings.Repeat("x", 200))
		}
		many = append(many, name)
	}
	dirs := map[string][]string{"empty": nil, "few": {"123", ".claude", "README.md"}, "digits": {"1", "2", "3"}, "many": many}
	for dir, names := range dirs {
		checkMkdir(t, filepath.Join(root, dir))
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(root, dir, n), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	accepts := map[string]func(string) bool{
		"hasCase": hasCase,
		"n0093":   func(s string) bool { return strings.HasPrefix(s, "n0093") },
		"none":    func(string) bool { return false },
	}
	for _, dir := range []string{"empty", "few", "digits", "many", "file", "missing"} {
		for _, n := range []int{1, 2, flipScan, 100, 2000} {
			for what, ok := range accepts {
				p := filepath.Join(root, dir)
				if got, want := firstEntry(p, n, ok), readdirFirst(p, n, ok); got != want {
					t.Errorf("firstEntry(%s, %d, %s) = %q, want %q", dir, n, what, got, want)
				}
			}
		}
	}
}

func checkMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
