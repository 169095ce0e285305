package scratchpad

import (
	"os"
	"path/filepath"
	"testing"
)

// newLayout returns a Layout for a fresh project in a temp dir, with the
// scratchpad root at <project>/.claude/scratchpad (not created), and a
// sibling directory outside the project for escape tests.
func newLayout(t *testing.T) (l Layout, outside string) {
	t.Helper()
	base := t.TempDir()
	// Resolve the temp dir itself: on some systems it sits behind a symlink.
	base, err := filepath.EvalSymlinks(base)
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(base, "project")
	outside = filepath.Join(base, "outside")
	mkdir(t, project)
	mkdir(t, outside)
	return NewLayout(project, filepath.Join(project, ".claude", "scratchpad")), outside
}

func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	mkdir(t, filepath.Dir(link))
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}
