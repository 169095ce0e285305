package scratchpad

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIsFile judges tool paths against spec-writer's file for 2026-11-24:
// the file itself (however its folders exist or not, and through a linked
// project folder) is a hit; every near miss says why it is not.
func TestIsFile(t *testing.T) {
	const day = "2026-11-24"
	tests := []struct {
		name  string
		setup func(t *testing.T, l Layout, outside string) string // returns the path to judge
		why   string                                              // "" for a hit
	}{
		{"file not written yet, no folders", func(t *testing.T, l Layout, _ string) string {
			return l.File("spec-writer", day)
		}, ""},
		{"existing file", func(t *testing.T, l Layout, _ string) string {
			writeFile(t, l.File("spec-writer", day), "## What I did\n")
			return l.File("spec-writer", day)
		}, ""},
		{"project reached through a linked folder", func(t *testing.T, l Layout, outside string) string {
			writeFile(t, l.File("spec-writer", day), "x")
			link := filepath.Join(outside, "proj-link")
			symlink(t, l.Project, link)
			return filepath.Join(link, ".claude", "scratchpad", "spec-writer", day+".md")
		}, ""},
		{"another agent's file", func(t *testing.T, l Layout, _ string) string {
			return l.File("reviewer", day)
		}, "not in the folder spec-writer"},
		{"yesterday's file", func(t *testing.T, l Layout, _ string) string {
			return l.File("spec-writer", "2026-11-23")
		}, "not 2026-11-24.md"},
		{"the coordinator's file", func(t *testing.T, l Layout, _ string) string {
			return l.File(CoordinatorDir, day)
		}, "not in the folder spec-writer"},
		{"settings.json", func(t *testing.T, l Layout, _ string) string {
			return filepath.Join(l.Project, ".claude", "settings.json")
		}, "not 2026-11-24.md"},
		{"the same name in another folder", func(t *testing.T, l Layout, _ string) string {
			return filepath.Join(l.Project, ".claude", "hooks", "spec-writer", day+".md")
		}, "not under the scratchpad root"},
		{"relative path", func(t *testing.T, l Layout, _ string) string {
			return filepath.Join(".claude", "scratchpad", "spec-writer", day+".md")
		}, "not an absolute path"},
		{"dot-dot that reads as the file", func(t *testing.T, l Layout, _ string) string {
			return filepath.Join(l.Root, "reviewer") + "/../spec-writer/" + day + ".md"
		}, "not in clean form"},
		{"dot-dot after a symlink leads elsewhere", func(t *testing.T, l Layout, outside string) string {
			mkdir(t, filepath.Join(outside, "deep", "spec-writer"))
			symlink(t, filepath.Join(outside, "deep", "x"), filepath.Join(l.Root, "link"))
			return filepath.Join(l.Root, "link") + "/../spec-writer/" + day + ".md"
		}, "not in clean form"},
		{"the file is a symlink to settings.json", func(t *testing.T, l Layout, _ string) string {
			settings := filepath.Join(l.Project, ".claude", "settings.json")
			writeFile(t, settings, "{}")
			symlink(t, settings, l.File("spec-writer", day))
			return l.File("spec-writer", day)
		}, "is a symbolic link, not a regular file"},
		{"the file is a dangling symlink", func(t *testing.T, l Layout, outside string) string {
			symlink(t, filepath.Join(outside, "new.md"), l.File("spec-writer", day))
			return l.File("spec-writer", day)
		}, "is a symbolic link"},
		{"the file is a hard link to settings.json", func(t *testing.T, l Layout, _ string) string {
			settings := filepath.Join(l.Project, ".claude", "settings.json")
			writeFile(t, settings, "{}")
			mkdir(t, filepath.Join(l.Root, "spec-writer"))
			if err := os.Link(settings, l.File("spec-writer", day)); err != nil {
				t.Skipf("hard links unavailable: %v", err)
			}
			return l.File("spec-writer", day)
		}, "has 2 hard links"},
		{"the agent's folder is a symlink to another agent's", func(t *testing.T, l Layout, _ string) string {
			mkdir(t, filepath.Join(l.Root, "reviewer"))
			symlink(t, filepath.Join(l.Root, "reviewer"), filepath.Join(l.Root, "spec-writer"))
			return l.File("spec-writer", day)
		}, "its folder is a symbolic link"},
		{"the agent's folder is a symlink out of the project", func(t *testing.T, l Layout, outside string) string {
			symlink(t, outside, filepath.Join(l.Root, "spec-writer"))
			return l.File("spec-writer", day)
		}, "its folder is a symbolic link"},
		{"the file is a directory", func(t *testing.T, l Layout, _ string) string {
			mkdir(t, l.File("spec-writer", day))
			return l.File("spec-writer", day)
		}, "is a directory"},
		{"a path that links into the root from outside it", func(t *testing.T, l Layout, outside string) string {
			mkdir(t, filepath.Join(outside, "spec-writer"))
			symlink(t, outside, filepath.Join(l.Root, "elsewhere"))
			return filepath.Join(l.Root, "elsewhere", "spec-writer", day+".md")
		}, "not under the scratchpad root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, outside := newLayout(t)
			path := tt.setup(t, l, outside)
			err := l.IsFile(path, "spec-writer", day)
			if tt.why == "" {
				if err != nil {
					t.Fatalf("IsFile(%s) = %v, want a hit", path, err)
				}
				return
			}
			var ne *NotOwnError
			if !errors.As(err, &ne) {
				t.Fatalf("IsFile(%s) = %v, want a *NotOwnError", path, err)
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Errorf("IsFile(%s) = %q, want it to say %q", path, err, tt.why)
			}
		})
	}
}

// TestStampOf tells every change apart: a new file, a rewrite with the
// same size inside one clock tick (the hash), a rewrite with the same
// content (the time); a look that changed nothing stamps the same.
func TestStampOf(t *testing.T) {
	l, _ := newLayout(t)
	path := l.File("spec-writer", "2026-11-24")
	stamp := func() Stamp {
		t.Helper()
		s, err := l.StampOf(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	absent := stamp()
	if absent != (Stamp{}) {
		t.Fatalf("missing file stamped %+v", absent)
	}
	writeFile(t, path, "## What I did\nA\n")
	tick := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	if err := os.Chtimes(path, tick, tick); err != nil {
		t.Fatal(err)
	}
	first := stamp()
	if !first.Exists || first.Size != 16 || first == absent {
		t.Fatalf("written file stamped %+v", first)
	}
	if again := stamp(); again != first {
		t.Errorf("a second look stamped %+v, first %+v", again, first)
	}
	writeFile(t, path, "## What I did\nB\n")
	if err := os.Chtimes(path, tick, tick); err != nil {
		t.Fatal(err)
	}
	if same := stamp(); same == first || same.Size != first.Size || same.ModTime != first.ModTime {
		t.Errorf("same size and time, other content: %+v vs %+v", same, first)
	}
	second := stamp()
	later := tick.Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if touched := stamp(); touched == second || touched.Hash != second.Hash {
		t.Errorf("same content, later time: %+v vs %+v", touched, second)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	mkdir(t, path)
	if dir := stamp(); dir != (Stamp{Exists: true}) {
		t.Errorf("a directory stamped %+v", dir)
	}
}

// ReadStamped gives what ReadFile reads and the Stamp StampOf gives, of the
// one read: the time is the file's own (a link's target's, as stat says),
// and a stamp written by an earlier process compares equal to a later
// look at the same file.
func TestReadStamped(t *testing.T) {
	l, outside := newLayout(t)
	path := l.File("spec-writer", "2026-11-24")
	writeFile(t, path, "## What I did\nA\n")
	tick := time.Date(2026, 11, 24, 10, 0, 0, 123456789, time.UTC)
	if err := os.Chtimes(path, tick, tick); err != nil {
		t.Fatal(err)
	}
	// The hash is FNV-128a of the content, worked out apart from Go.
	want := Stamp{Exists: true, Size: 16, ModTime: tick.UnixNano(), Hash: "205ac4c59243fcdc0395e37df752ffe6"}
	link := l.File("alias", "2026-11-24")
	symlink(t, path, link)
	if err := os.Chtimes(filepath.Dir(link), tick.Add(time.Hour), tick.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, link} {
		content, stamp, err := l.ReadStamped(p)
		if err != nil || string(content) != "## What I did\nA\n" || stamp != want {
			t.Errorf("ReadStamped(%s) = %q, %+v, %v; want %+v", p, content, stamp, err, want)
		}
		if s, err := l.StampOf(p); err != nil || s != want {
			t.Errorf("StampOf(%s) = %+v, %v; want %+v", p, s, err, want)
		}
	}
	var esc *EscapeError
	symlink(t, outside, filepath.Join(l.Root, "evil"))
	writeFile(t, filepath.Join(outside, "2026-11-24.md"), "x")
	if _, _, err := l.ReadStamped(l.File("evil", "2026-11-24")); !errors.As(err, &esc) {
		t.Errorf("ReadStamped through an escaping link = %v", err)
	}
	var notFile *NotFileError
	if _, _, err := l.ReadStamped(filepath.Dir(path)); !errors.As(err, &notFile) {
		t.Errorf("ReadStamped(a folder) = %v", err)
	}
	if _, _, err := l.ReadStamped(l.File("none", "2026-11-24")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadStamped(missing) = %v", err)
	}
}
