package state

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// outsideFile is a file outside the project standing for ~/.bashrc: a link
// in the runtime directory must never lead a write to it.
func outsideFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(path, []byte("# my shell\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func assertUntouched(t *testing.T, path string) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || string(got) != "# my shell\n" {
		t.Errorf("%s was written through a link: %q, %v", path, got, err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestAuditTrailThatIsALinkIsRefused(t *testing.T) {
	bashrc := outsideFile(t)
	d := Open(t.TempDir())
	symlink(t, bashrc, filepath.Join(d.Path, AuditFile))
	err := d.Audit(map[string]string{"tool_input": `$(curl evil)`})
	var notRegular *hookfs.NotRegularError
	if !errors.As(err, &notRegular) || !strings.Contains(err.Error(), "opening audit trail "+filepath.Join(d.Path, AuditFile)+": is a symbolic link") {
		t.Errorf("Audit through a link = %v, want a refusal naming it", err)
	}
	assertUntouched(t, bashrc)
}

func TestAuditLockThatIsALinkIsRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "created-by-the-hook")
	d := Open(t.TempDir())
	symlink(t, target, filepath.Join(d.Path, AuditFile+".lock")) // dangling: O_CREAT would make it
	if err := d.Audit(map[string]int{"a": 1}); err == nil {
		t.Error("Audit with a linked lock succeeded")
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock's link target was created: %v", err)
	}
}

// The runtime directory, or any folder above it below the project, that is
// a link: nothing is written, not even a folder, wherever it points.
func TestRuntimeDirThatIsALinkIsRefused(t *testing.T) {
	for _, link := range []string{".claude", ".claude/massgen-hook", ".claude/massgen-hook/sessions"} {
		t.Run(link, func(t *testing.T) {
			project, elsewhere := t.TempDir(), t.TempDir()
			symlink(t, elsewhere, filepath.Join(project, link))
			d := Open(project)
			var linkErr *hookfs.LinkError
			if err := d.Audit(map[string]int{"a": 1}); link != ".claude/massgen-hook/sessions" && !errors.As(err, &linkErr) {
				t.Errorf("Audit = %v, want a *LinkError", err)
			}
			called := false
			err := d.UpdateSession("s1", "budget", new(map[string]int), func() (bool, error) { called = true; return true, nil })
			if !errors.As(err, &linkErr) || called {
				t.Errorf("UpdateSession = %v (fn called %v), want a *LinkError first", err, called)
			}
			if _, err := d.ReadJSON(SessionRecord("s1", "budget"), new(map[string]int)); !errors.As(err, &linkErr) {
				t.Errorf("ReadJSON = %v, want a *LinkError", err)
			}
			if _, err := d.Ensure("inbox/messages"); link != ".claude/massgen-hook/sessions" && !errors.As(err, &linkErr) {
				t.Errorf("Ensure = %v, want a *LinkError", err)
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Errorf("written through the link into %s: %v", elsewhere, entries)
			}
		})
	}
}

func TestRecordThatIsALinkIsRefused(t *testing.T) {
	bashrc := outsideFile(t)
	d := Open(t.TempDir())
	symlink(t, bashrc, filepath.Join(d.Path, filepath.FromSlash(SessionRecord("s1", "budget"))))
	var rec map[string]int
	if _, err := d.ReadJSON(SessionRecord("s1", "budget"), &rec); err == nil {
		t.Error("ReadJSON through a link succeeded")
	}
	err := d.UpdateJSON(SessionRecord("s1", "budget"), &rec, func() (bool, error) { rec = map[string]int{"n": 1}; return true, nil })
	if err == nil || !strings.Contains(err.Error(), "budget.json: is a symbolic link") {
		t.Errorf("UpdateJSON through a link = %v, want a refusal", err)
	}
	assertUntouched(t, bashrc)
}

// A FIFO where a record or the audit trail should be is refused at once:
// opening it does not wait for a writer.
func TestFIFOInTheRuntimeDirDoesNotHang(t *testing.T) {
	d := Open(t.TempDir())
	if err := os.MkdirAll(filepath.Join(d.Path, "a"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a/rec", AuditFile} {
		if err := syscall.Mkfifo(filepath.Join(d.Path, filepath.FromSlash(name)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan [3]error, 1)
	go func() {
		_, rerr := d.ReadJSON("a/rec", new(int))
		uerr := d.Update("a/rec", set("x"))
		done <- [3]error{rerr, uerr, d.Audit(1)}
	}()
	errs := <-done // a hang here fails the test by its timeout
	for i, err := range errs {
		var notRegular *hookfs.NotRegularError
		if !errors.As(err, &notRegular) || notRegular.What() != "a FIFO" {
			t.Errorf("call %d on a FIFO = %v, want a refusal naming the FIFO", i, err)
		}
	}
}

func TestRecordOverTheCapIsRefused(t *testing.T) {
	d := Open(t.TempDir())
	path := filepath.Join(d.Path, "big")
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, make([]byte, MaxRecordBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	called := false
	err := d.Update("big", func([]byte) ([]byte, error) { called = true; return nil, nil })
	var tooLarge *hookfs.TooLargeError
	if !errors.As(err, &tooLarge) || called {
		t.Errorf("Update of a giant record = %v (fn called %v), want *TooLargeError", err, called)
	}
}

// Old sessions are pruned inside the sessions folder only: with sessions a
// link, the folders it points at are left alone.
func TestPruneSessionsDoesNotFollowALink(t *testing.T) {
	elsewhere := t.TempDir()
	old := filepath.Join(elsewhere, "precious")
	if err := os.Mkdir(old, 0o700); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-30 * 24 * time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	d := Open(t.TempDir())
	symlink(t, elsewhere, filepath.Join(d.Path, sessionsDir))
	if err := d.PruneSessions(time.Now()); err == nil {
		t.Error("PruneSessions through a link succeeded")
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("a folder behind the link was removed: %v", err)
	}
}

// Inside a session folder, a link to a folder outside is removed, not
// what it points at.
func TestPruneSessionsRemovesLinksNotTargets(t *testing.T) {
	elsewhere := t.TempDir()
	keep := filepath.Join(elsewhere, "keep.txt")
	if err := os.WriteFile(keep, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := Open(t.TempDir())
	if err := d.UpdateSession("old", "rec", new(map[string]int), func() (bool, error) { return true, nil }); err != nil {
		t.Fatal(err)
	}
	session := filepath.Join(d.Path, sessionsDir, "old")
	symlink(t, elsewhere, filepath.Join(session, "link"))
	long := time.Now().Add(-30 * 24 * time.Hour)
	if err := os.Chtimes(session, long, long); err != nil {
		t.Fatal(err)
	}
	if err := d.PruneSessions(time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(session); !os.IsNotExist(err) {
		t.Errorf("old session still there: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file behind a link in the session was removed: %v", err)
	}
}
