package fspath

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestFlipCase(t *testing.T) {
	for in, want := range map[string]string{".env": ".ENV", "Makefile": "mAKEFILE", "123": "123", "": "", "é": "É",
		"\xff": "\xff", "a\xffB": "A\xffb", "\xc3": "\xc3", "x\xe2\x82": "X\xe2\x82"} {
		if got := flipCase(in); got != want {
			t.Errorf("flipCase(%q) = %q, want %q", in, got, want)
		}
	}
	// A name of bytes that are not UTF-8 has no letter: it cannot tell a
	// folder's case, and the probe looks for another name.
	for _, name := range []string{"\xff", "\xfe\xff.1", "123"} {
		if hasCase(name) {
			t.Errorf("hasCase(%q) = true", name)
		}
	}
}

// TestCaseProbeSensitive: on a case-sensitive folder the probe says so,
// with a name to flip, through the folder's own name, and when a folder
// holds twins (Name and NAME, two files).
func TestCaseProbeSensitive(t *testing.T) {
	root := tree(t, []string{"Dir/.env", "Twins/Name", "Twins/NAME", "123/456/"}, nil)
	for _, tc := range []struct{ dir, known string }{
		{"Dir", ".env"},
		{"Dir", ""},
		{"Twins", "Name"},
		{"Twins", ""},
		{"123/456", ""}, // no letter inside: asked through "123"'s parent
	} {
		if probeCase(filepath.Join(root, tc.dir), tc.known) {
			t.Errorf("probeCase(%s, %q) = true on a case-sensitive filesystem", tc.dir, tc.known)
		}
	}
	if Resolve(".ENV", filepath.Join(root, "Dir")).Fold {
		t.Error("Resolve(.ENV).Fold = true on a case-sensitive filesystem")
	}
}

// TestSetCaseProbe: a test can make a folder case-insensitive, and the
// answer is cached per folder until the probe changes.
func TestSetCaseProbe(t *testing.T) {
	root := tree(t, []string{"ci/.env", "cs/.env"}, nil)
	asked := map[string]int{}
	restore := SetCaseProbe(func(dir string) bool {
		asked[dir]++
		return filepath.Base(dir) == "ci"
	})
	for range 3 {
		if !Resolve(".ENV", filepath.Join(root, "ci")).Fold {
			t.Error("Resolve(ci/.ENV).Fold = false with ci case-insensitive")
		}
		if Resolve(".ENV", filepath.Join(root, "cs")).Fold {
			t.Error("Resolve(cs/.ENV).Fold = true with cs case-sensitive")
		}
	}
	if n := asked[filepath.Join(root, "ci")]; n != 1 {
		t.Errorf("the probe was asked about ci %d times, want once (cached)", n)
	}
	// new/deeper does not exist: the folder that would hold it is ci.
	if !Resolve("ci/new/deeper", root).Fold {
		t.Error("Resolve(ci/new/deeper).Fold = false: a name to be created in ci follows ci's rules")
	}
	restore()
	if Resolve(".ENV", filepath.Join(root, "ci")).Fold {
		t.Error("after restore, the real probe should say case-sensitive")
	}
}

// TestCaseInsensitiveExFAT runs the probe on a real case-insensitive
// filesystem: exFAT through FUSE, on a loop device, mounted in a private
// mount namespace that ends with the test. exFAT through FUSE gives one
// file a different inode under each spelling, so the probe must fall back
// on the folder's listing. It needs root, unshare, losetup, mkfs.exfat and
// mount.exfat-fuse (Debian: exfatprogs, exfat-fuse), and skips, saying
// so, without them.
func TestCaseInsensitiveExFAT(t *testing.T) {
	if dir := os.Getenv("FSPATH_TEST_EXFAT_DIR"); dir != "" {
		checkCaseInsensitive(t, dir)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skipf("the exFAT mount needs Linux (GOOS=%s); TestSetCaseProbe covers the case-insensitive path", runtime.GOOS)
	}
	if os.Geteuid() != 0 {
		t.Skip("the exFAT mount needs root (a loop device); TestSetCaseProbe covers the case-insensitive path")
	}
	for _, tool := range []string{"unshare", "losetup", "mkfs.exfat", "mount.exfat-fuse"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install exfatprogs exfat-fuse): cannot mount a case-insensitive filesystem; TestSetCaseProbe covers the case-insensitive path", tool)
		}
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		t.Skipf("no /dev/fuse (%v): cannot mount exFAT through FUSE; TestSetCaseProbe covers the case-insensitive path", err)
	}
	work := t.TempDir()
	img, mnt := filepath.Join(work, "exfat.img"), filepath.Join(work, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(img, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 8<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.exfat", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.exfat failed (%v): %s", err, out)
	}
	const script = `L=$(losetup -f --show "$1") || exit 97
mount.exfat-fuse "$L" "$2" >/dev/null 2>&1 || { losetup -d "$L"; exit 97; }
FSPATH_TEST_EXFAT_DIR=$2 "$3" -test.run='^TestCaseInsensitiveExFAT$' -test.v
rc=$?
umount "$2"
losetup -d "$L"
exit $rc`
	cmd := exec.Command("unshare", "-m", "sh", "-c", script, "sh", img, mnt, os.Args[0])
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 97 || err != nil && strings.Contains(out.String(), "unshare:") {
		t.Skipf("cannot mount exFAT in a private mount namespace here (%v): %s", err, out.String())
	}
	if err != nil || !strings.Contains(out.String(), "--- PASS: TestCaseInsensitiveExFAT") {
		t.Fatalf("on exFAT (%v):\n%s", err, out.String())
	}
}

// checkCaseInsensitive is the part of TestCaseInsensitiveExFAT that runs
// inside the namespace, on the mounted folder dir.
func checkCaseInsensitive(t *testing.T, dir string) {
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "Sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".ENV")); err != nil {
		t.Fatalf("this exFAT mount is not case-insensitive: %v", err)
	}
	for _, tc := range []struct{ dir, known string }{{dir, ".env"}, {dir, ""}, {filepath.Join(dir, "Sub"), ""}} {
		if !probeCase(tc.dir, tc.known) {
			t.Errorf("probeCase(%s, %q) = false on exFAT", tc.dir, tc.known)
		}
	}
	if p := Resolve(".ENV", dir); !p.Fold || !p.Exists() {
		t.Errorf("Resolve(.ENV) on exFAT = %+v, want Fold and Exists", p)
	}
	if p := Resolve("sub/new.txt", dir); !p.Fold {
		t.Errorf("Resolve(sub/new.txt) on exFAT: Fold = false")
	}
}
