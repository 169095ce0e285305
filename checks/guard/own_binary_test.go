package guard

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

func TestKernelNamed(t *testing.T) {
	for exe, want := range map[string]bool{
		"/usr/local/bin/massgen-hook":           true,
		"/home/u/bin/massgen-hook (deleted)":    false, // replaced or removed since it started
		"massgen-hook":                          false,
		"/home/u/bin/../bin/massgen-hook":       false,
		"/home/u/bin//massgen-hook":             false,
		"/opt/massgen hook (deleted) copy/hook": true,
	} {
		if got := kernelNamed(exe); got != want {
			t.Errorf("kernelNamed(%q) = %v, want %v", exe, got, want)
		}
	}
}

// ownBinaryEnv makes the test binary, run as a child, print ownBinary
// (after replacing itself with a link to the file the variable names, if
// set) instead of running tests.
const ownBinaryEnv = "MASSGEN_HOOK_TEST_OWN_BINARY"

// TestOwnBinaryResolved: the binary is named with its symlinks resolved
// however it was started, through a linked folder, a link to it, or
// after it was replaced by a link (the kernel then names it "(deleted)",
// and its path, resolved, is what the next hook runs).
func TestOwnBinaryResolved(t *testing.T) {
	if v, ok := os.LookupEnv(ownBinaryEnv); ok {
		printOwnBinary(t, v)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("os.Executable: %v", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		t.Fatal(err)
	}
	if got := ownBinary(); got != escapeGlob(exe) {
		t.Errorf("ownBinary() = %q, want %q", got, escapeGlob(exe))
	}
	root := checktest.RealTempDir(t)
	checktest.Symlink(t, filepath.Dir(exe), filepath.Join(root, "linked-dir"))
	checktest.Symlink(t, exe, filepath.Join(root, "linked-exe"))
	for _, start := range []string{filepath.Join(root, "linked-dir", filepath.Base(exe)), filepath.Join(root, "linked-exe")} {
		if got := childOwnBinary(t, start, ""); got != escapeGlob(exe) {
			t.Errorf("started as %s: ownBinary() = %q, want %q", start, got, escapeGlob(exe))
		}
	}
	// A copy that replaces itself with a link to the real binary.
	copied := filepath.Join(root, "copy", "guard.test")
	copyFile(t, exe, copied)
	if got := childOwnBinary(t, copied, exe); got != escapeGlob(exe) {
		t.Errorf("replaced by a link: ownBinary() = %q, want %q (where its path now leads)", got, escapeGlob(exe))
	}
}

// childOwnBinary runs the test binary at path and returns what it prints
// as its ownBinary; replaceBy, if set, is what it links its path to first.
func childOwnBinary(t *testing.T, path, replaceBy string) string {
	t.Helper()
	cmd := exec.Command(path, "-test.run=^TestOwnBinaryResolved$")
	cmd.Env = append(os.Environ(), ownBinaryEnv+"="+replaceBy)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "ownBinary="); ok {
			return v
		}
	}
	t.Fatalf("%s printed no ownBinary:\n%s", path, out)
	return ""
}

// printOwnBinary is the child's part of TestOwnBinaryResolved.
func printOwnBinary(t *testing.T, replaceBy string) {
	if replaceBy != "" {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(self); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(replaceBy, self); err != nil {
			t.Fatal(err)
		}
	}
	os.Stdout.WriteString("ownBinary=" + ownBinary() + "\n")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
