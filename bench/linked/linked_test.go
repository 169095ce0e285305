package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLinksMassgenHook: the yardstick is only true while its binary is as
// big as massgen-hook's, give or take the few bytes of its own main.
func TestLinksMassgenHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries; skipped in -short mode")
	}
	dir := t.TempDir()
	size := func(pkg string) int64 {
		out := filepath.Join(dir, filepath.Base(pkg))
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("go build %s: %v\n%s (the go tool is needed)", pkg, err, b)
		}
		st, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	hook := size("github.com/massgen/massgen-hook/cmd/massgen-hook")
	linked := size("github.com/massgen/massgen-hook/bench/linked")
	if d := hook - linked; d < 0 || d > hook/50 {
		t.Errorf("bench/linked is %d bytes, massgen-hook %d: they should differ by under 2%%", linked, hook)
	}
}
