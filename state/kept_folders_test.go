package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/massgen/massgen-hook/internal/hookfs"
)

// A write after the runtime directory was removed (a user's rm -rf while
// a hook runs) makes it anew, as a fresh process would: a record in a new
// folder under a removed kept one, and a process's first write after a
// removal when the .gitignore was not checked yet (its first use was a
// read).
func TestWriteAfterRemovalOfAKeptAncestor(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first func(d *Dir) error
		then  func(d *Dir) error
		file  string
	}{
		{"root kept by a write, record in a new folder",
			func(d *Dir) error { return d.Update("rec", set("x")) },
			func(d *Dir) error { return d.Update(SessionRecord("s", "rec"), set("y")) },
			"sessions/s/rec.json"},
		{"folders kept by a read, then the first write",
			func(d *Dir) error {
				if err := os.MkdirAll(filepath.Join(d.Path, "sessions", "s"), 0o700); err != nil {
					return err
				}
				_, err := d.ReadJSON(SessionRecord("s", "rec"), new(string))
				return err
			},
			func(d *Dir) error { return d.Update(SessionRecord("s", "rec"), set("y")) },
			"sessions/s/rec.json"},
		{"root kept by a read, then the audit",
			func(d *Dir) error {
				if err := os.MkdirAll(d.Path, 0o700); err != nil {
					return err
				}
				_, err := d.ReadJSON("rec", new(string))
				return err
			},
			func(d *Dir) error { return d.Audit(map[string]int{"a": 1}) },
			AuditFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Open(t.TempDir())
			defer d.Close()
			if err := tc.first(d); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(d.Path); err != nil {
				t.Fatal(err)
			}
			if err := tc.then(d); err != nil {
				t.Fatalf("write after the runtime directory was removed: %v", err)
			}
			if _, err := os.Stat(filepath.Join(d.Path, filepath.FromSlash(tc.file))); err != nil {
				t.Errorf("the write is not in the runtime directory: %v", err)
			}
		})
	}
}

// Ensure hands back the path of a folder that is there: one removed since
// it was kept is made anew, for a caller writing by path (inbox, observer
// jobs, corpus, NATS spool).
func TestEnsureAfterRemoval(t *testing.T) {
	d := Open(t.TempDir())
	defer d.Close()
	if _, err := d.Ensure("inbox/messages"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(d.Path); err != nil {
		t.Fatal(err)
	}
	p, err := d.Ensure("inbox/messages")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(p); err != nil || !info.IsDir() {
		t.Errorf("Ensure returned %s, which is not a folder: %v", p, err)
	}
}

// A record written by another process after the runtime directory was
// removed and made again is read, not taken as absent because the Dir
// kept the removed folders.
func TestReadAfterRecreationByAnotherProcess(t *testing.T) {
	project := t.TempDir()
	d := Open(project)
	defer d.Close()
	if err := d.Update(SessionRecord("s", "rec"), set(`"one"`)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(d.Path); err != nil {
		t.Fatal(err)
	}
	other := Open(project) // another hook process
	if err := other.Update(SessionRecord("s", "rec"), set(`"two"`)); err != nil {
		t.Fatal(err)
	}
	other.Close()
	var got string
	if ok, err := d.ReadJSON(SessionRecord("s", "rec"), &got); err != nil || !ok || got != "two" {
		t.Errorf("ReadJSON = %q, found %v, %v; want the record another process wrote", got, ok, err)
	}
}

// CheckLinks and Ensure judge the runtime directory by its path as it is
// now, not by the folders kept since the Dir's first use: .claude/
// massgen-hook (or .claude) swapped for a link since is refused, so the
// inbox's by-path writes never land where the link points.
func TestLinkSwappedInAfterFirstUse(t *testing.T) {
	for _, link := range []string{".claude", ".claude/massgen-hook"} {
		t.Run(link, func(t *testing.T) {
			project, elsewhere := t.TempDir(), t.TempDir()
			d := Open(project)
			defer d.Close()
			if err := d.Audit(map[string]int{"a": 1}); err != nil { // the hook's first use
				t.Fatal(err)
			}
			// An agent's command, run beside the hook: move the folder
			// away and put a link in its place.
			at := filepath.Join(project, filepath.FromSlash(link))
			if err := os.Rename(at, at+".moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(elsewhere, "massgen-hook"), 0o700); err != nil {
				t.Fatal(err)
			}
			target := elsewhere
			if link == ".claude/massgen-hook" {
				target = filepath.Join(elsewhere, "massgen-hook")
			}
			if err := os.MkdirAll(filepath.Join(elsewhere, "massgen-hook", "inbox", "messages"), 0o700); err != nil {
				t.Fatal(err)
			}
			symlink(t, target, at)
			var linkErr *hookfs.LinkError
			if _, err := d.CheckLinks("inbox/messages"); !errors.As(err, &linkErr) {
				t.Errorf("CheckLinks = %v, want a *LinkError", err)
			}
			p, err := d.Ensure("inbox/messages")
			if !errors.As(err, &linkErr) {
				t.Errorf("Ensure = %q, %v; want a *LinkError", p, err)
			}
			if err == nil {
				// What the inbox does with the path Ensure gave.
				if werr := os.WriteFile(filepath.Join(p, "m1.json"), []byte("{}"), 0o600); werr == nil {
					if _, err := os.Stat(filepath.Join(elsewhere, "massgen-hook", "inbox", "messages", "m1.json")); err == nil {
						t.Errorf("a by-path write after Ensure landed outside the project, in %s", target)
					}
				}
			}
		})
	}
}

// CheckLinksIfAny answers from the kept folders when none of the folders
// asked for is there (a reader then does nothing), and walks afresh when
// one is: a runtime directory swapped for a link since it was kept, with
// an inbox in the folder kept, is refused.
func TestCheckLinksIfAnyAfterASwap(t *testing.T) {
	for _, withInbox := range []bool{false, true} {
		project, elsewhere := t.TempDir(), t.TempDir()
		d := Open(project)
		if withInbox {
			if _, err := d.Ensure("inbox/pending"); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Audit(map[string]int{"a": 1}); err != nil { // keeps the runtime directory
			t.Fatal(err)
		}
		if err := os.Rename(d.Path, d.Path+".moved"); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(elsewhere, "inbox", "pending"), 0o700); err != nil {
			t.Fatal(err)
		}
		symlink(t, elsewhere, d.Path)
		found, err := d.CheckLinksIfAny("inbox/pending")
		var linkErr *hookfs.LinkError
		switch {
		case withInbox && !errors.As(err, &linkErr):
			t.Errorf("with an inbox kept: CheckLinksIfAny = %v, %v; want a *LinkError", found, err)
		case !withInbox && (err != nil || len(found) != 0):
			t.Errorf("with no inbox kept: CheckLinksIfAny = %v, %v; want nothing found", found, err)
		}
		if _, err := d.CheckLinks("inbox/pending"); !errors.As(err, &linkErr) {
			t.Errorf("CheckLinks = %v, want a *LinkError", err)
		}
		d.Close()
	}
}
