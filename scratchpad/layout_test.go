package scratchpad

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/analysis/fspath"
)

func TestFileAndRel(t *testing.T) {
	l := Layout{Project: "/p", Root: "/p/.claude/scratchpad"}
	if got := l.File("plugin%3Ax", "2026-01-02"); got != filepath.FromSlash("/p/.claude/scratchpad/plugin%3Ax/2026-01-02.md") {
		t.Errorf("File = %q", got)
	}
	for path, want := range map[string]string{
		"/p/.claude/scratchpad/a/2026-01-02.md": ".claude/scratchpad/a/2026-01-02.md",
		"/p":                                    ".",
		"/elsewhere/x.md":                       "/elsewhere/x.md",
		"/p2/x":                                 "/p2/x",
		"/..p/x":                                "/..p/x",
	} {
		if got := l.Rel(filepath.FromSlash(path)); got != want {
			t.Errorf("Rel(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestNewestByNameNotMtime(t *testing.T) {
	l, _ := newLayout(t)
	dir := filepath.Join(l.Root, CoordinatorDir)
	now := time.Now()
	files := []struct {
		name string
		age  time.Duration // older names get newer mtimes
	}{
		{"2025-12-31.md", 0},
		{"2026-01-01.md", time.Hour},
		{"2026-03-01.md", 1000 * time.Hour},
		{"2026-12-01.md.bak", 0},
		{"2027-01-01.txt", 0},
		{"2026-13-01.md", 0},
		{"notes.md", 0},
		{"9999-99-99.md", 0},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		writeFile(t, p, f.name)
		mt := now.Add(-f.age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	path, day, ok, err := l.Newest(CoordinatorDir, "2026-11-20")
	if err != nil || !ok {
		t.Fatalf("Newest = ok %v, err %v", ok, err)
	}
	if day != "2026-03-01" || path != filepath.Join(dir, "2026-03-01.md") {
		t.Errorf("Newest = %q, %q; want 2026-03-01", path, day)
	}
}

// A recent file is found by name, and the dates that count end the day
// after today, whether the newest is recent or found by listing.
func TestNewestRecentAndAhead(t *testing.T) {
	l, _ := newLayout(t)
	dir := filepath.Join(l.Root, CoordinatorDir)
	for _, name := range []string{"2020-01-01.md", "2026-11-19.md", "2026-11-21.md", "2026-11-22.md", "2062-11-20.md"} {
		writeFile(t, filepath.Join(dir, name), name)
	}
	for _, c := range []struct{ today, want string }{
		{"2026-11-20", "2026-11-21"}, // tomorrow counts (an agent dating by UTC); two days ahead does not
		{"2026-11-19", "2026-11-19"}, // probed: today, ahead of it only 2026-11-20
		{"2026-12-31", "2026-11-22"}, // more than a month back: found by listing
		{"2021-06-01", "2020-01-01"}, // listing, with everything later ahead of today
		{"2019-01-01", ""},           // nothing up to tomorrow
	} {
		_, day, ok, err := l.Newest(CoordinatorDir, c.today)
		if err != nil || day != c.want || ok != (c.want != "") {
			t.Errorf("Newest(today %s) = %q, %v, %v; want %q", c.today, day, ok, err, c.want)
		}
	}
	if _, _, _, err := l.Newest(CoordinatorDir, "20261120"); err == nil {
		t.Error("Newest with a malformed today: no error")
	}
}

func TestNewestNone(t *testing.T) {
	l, _ := newLayout(t)
	writeFile(t, filepath.Join(l.Root, "ego", "notes.md"), "x")
	mkdir(t, filepath.Join(l.Root, "empty"))
	for _, dir := range []string{"missing", "ego", "empty"} {
		path, day, ok, err := l.Newest(dir, "2026-11-20")
		if err != nil || ok || path != "" || day != "" {
			t.Errorf("Newest(%s) = %q %q %v %v; want nothing", dir, path, day, ok, err)
		}
	}
	// Root missing altogether.
	l2 := Layout{Project: l.Project, Root: filepath.Join(l.Project, "nope")}
	if _, _, ok, err := l2.Newest("ego", "2026-11-20"); ok || err != nil {
		t.Errorf("Newest without a root = %v, %v", ok, err)
	}
	// dir is a regular file: an error, not silence.
	writeFile(t, filepath.Join(l.Root, "afile"), "x")
	if _, _, ok, err := l.Newest("afile", "2026-11-20"); ok || err == nil {
		t.Errorf("Newest on a file = %v, %v; want an error", ok, err)
	}
}

func TestTail(t *testing.T) {
	tests := []struct {
		name    string
		content string
		n       int
		lines   []string
		cut     bool
	}{
		{"last two", "a\nb\nc\n", 2, []string{"b", "c"}, true},
		{"exactly n", "a\nb\nc\n", 3, []string{"a", "b", "c"}, false},
		{"fewer than n", "a\nb\nc", 10, []string{"a", "b", "c"}, false},
		{"no trailing newline", "a\nb", 1, []string{"b"}, true},
		{"trailing blank lines trimmed", "a\nb\n\n  \n\t\n\n", 1, []string{"b"}, true},
		{"trailing blank lines not counted", "a\nb\n\n\n\n", 2, []string{"a", "b"}, false},
		{"inner blank lines kept", "a\n\nb\n", 3, []string{"a", "", "b"}, false},
		{"CRLF", "a\r\nb\r\nc\r\n\r\n", 2, []string{"b", "c"}, true},
		{"BOM", "\uFEFFfirst\nsecond\n", 5, []string{"first", "second"}, false},
		{"empty", "", 3, nil, false},
		{"only blanks", "\n\n \n\r\n", 3, nil, false},
		{"n zero", "a\nb\n", 0, []string{}, true},
		{"one line", "only", 1, []string{"only"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, _ := newLayout(t)
			p := l.File("ego", "2026-01-01")
			writeFile(t, p, tt.content)
			lines, cut, err := l.Tail(p, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) != len(tt.lines) || (len(lines) > 0 && !reflect.DeepEqual(lines, tt.lines)) {
				t.Errorf("lines = %q, want %q", lines, tt.lines)
			}
			if cut != tt.cut {
				t.Errorf("cut = %v, want %v", cut, tt.cut)
			}
		})
	}
}

func TestTailLargeFile(t *testing.T) {
	l, _ := newLayout(t)
	p := l.File(CoordinatorDir, "2026-01-01")
	var b strings.Builder
	b.WriteString("\uFEFF")
	const total = 20000
	for i := 1; i <= total; i++ {
		fmt.Fprintf(&b, "line %07d\n", i) // 13 bytes a line
	}
	b.WriteString("\n\n")
	writeFile(t, p, b.String())

	lines, cut, err := l.Tail(p, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"line 0019998", "line 0019999", "line 0020000"}
	if !reflect.DeepEqual(lines, want) || !cut {
		t.Errorf("Tail(3) = %q, %v", lines, cut)
	}

	// Asking for more lines than the 64 KiB window holds returns only whole
	// lines from the window, and says lines were cut.
	lines, cut, err = l.Tail(p, total)
	if err != nil {
		t.Fatal(err)
	}
	if !cut {
		t.Error("cut = false for a file larger than the window")
	}
	if len(lines) == 0 || len(lines) >= total || len(lines) > tailWindow/13 {
		t.Fatalf("got %d lines", len(lines))
	}
	for i, line := range lines {
		if want := fmt.Sprintf("line %07d", total-len(lines)+1+i); line != want {
			t.Fatalf("line %d = %q, want %q (a partial first line must be dropped)", i, line, want)
		}
	}
}

func TestTailErrors(t *testing.T) {
	l, outside := newLayout(t)
	dayDir := l.File("ego", "2026-01-01")
	mkdir(t, dayDir)
	_, _, err := l.Tail(dayDir, 3)
	var nf *NotFileError
	if !errors.As(err, &nf) || !nf.Mode.IsDir() || !strings.HasSuffix(err.Error(), "is a directory") {
		t.Errorf("Tail on a directory = %v, want *NotFileError for a directory", err)
	}

	if _, _, err := l.Tail(l.File("ego", "2026-01-02"), 3); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Tail on a missing file = %v, want fs.ErrNotExist", err)
	}

	writeFile(t, filepath.Join(outside, "2026-01-01.md"), "secret\n")
	symlink(t, outside, filepath.Join(l.Root, "evil"))
	var esc *EscapeError
	if _, _, err := l.Tail(l.File("evil", "2026-01-01"), 3); !errors.As(err, &esc) {
		t.Errorf("Tail through an escaping symlink = %v, want *EscapeError", err)
	}
}

func TestContained(t *testing.T) {
	l, outside := newLayout(t)
	writeFile(t, filepath.Join(outside, "2026-01-01.md"), "x")
	writeFile(t, l.File("real", "2026-01-01"), "x")
	symlink(t, outside, filepath.Join(l.Root, "evil"))
	symlink(t, filepath.Join(l.Root, "real"), filepath.Join(l.Root, "alias"))
	symlink(t, "real", filepath.Join(l.Root, "relalias"))
	symlink(t, filepath.Join(outside, "2026-01-01.md"), l.File("real", "2026-02-02"))
	symlink(t, "loop", filepath.Join(l.Root, "loop"))
	symlink(t, "b", filepath.Join(l.Root, "a"))
	symlink(t, "a", filepath.Join(l.Root, "b"))

	tests := []struct {
		name    string
		path    string
		wantErr string // "", "escape" or "other"
	}{
		{"root", l.Root, ""},
		{"plain file", l.File("real", "2026-01-01"), ""},
		{"not written yet", l.File("real", "2030-01-01"), ""},
		{"new agent dir", l.File("newagent", "2030-01-01"), ""},
		{"symlink inside root", l.File("alias", "2026-01-01"), ""},
		{"relative symlink inside root", l.File("relalias", "2026-01-01"), ""},
		{"symlinked dir out of root", filepath.Join(l.Root, "evil"), "escape"},
		{"file under escaping dir", l.File("evil", "2026-01-01"), "escape"},
		{"not-yet file under escaping dir", l.File("evil", "2030-01-01"), "escape"},
		{"symlinked file out of root", l.File("real", "2026-02-02"), "escape"},
		{"dot-dot out of root", filepath.Join(l.Root, "..", "sibling"), "escape"},
		{"symlink loop", filepath.Join(l.Root, "loop"), "other"},
		{"file under a symlink loop", l.File("loop", "2026-01-01"), "other"},
		{"two-link loop", l.File("a", "2026-01-01"), "other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := l.Contained(tt.path)
			var esc *EscapeError
			var refused *ContainError
			if err != nil && (!errors.As(err, &refused) || refused.Error() != err.Error()) {
				t.Errorf("Contained = %#v, want a *ContainError", err)
			}
			switch tt.wantErr {
			case "":
				if err != nil {
					t.Errorf("Contained = %v, want nil", err)
				}
			case "escape":
				if !errors.As(err, &esc) {
					t.Fatalf("Contained = %v, want *EscapeError", err)
				}
				if !strings.Contains(err.Error(), "outside the scratchpad root") {
					t.Errorf("message %q", err)
				}
			case "other":
				if err == nil || errors.As(err, &esc) {
					t.Errorf("Contained = %v, want a non-escape error", err)
				}
			}
		})
	}
}

func TestContainedEscapeNamesLinkAndTarget(t *testing.T) {
	l, outside := newLayout(t)
	link := filepath.Join(l.Root, "evil")
	symlink(t, outside, link)
	var esc *EscapeError
	if err := l.Contained(l.File("evil", "2026-01-01")); !errors.As(err, &esc) {
		t.Fatalf("Contained = %v", err)
	}
	if esc.Path != link || esc.Target != outside {
		t.Errorf("EscapeError = {Path %q, Target %q}, want {%q, %q}", esc.Path, esc.Target, link, outside)
	}
}

func TestContainedNoRoot(t *testing.T) {
	l, outside := newLayout(t)
	for _, p := range []string{l.Root, l.File("x", "2026-01-01"), filepath.Join(outside, "y")} {
		if err := l.Contained(p); err != nil {
			t.Errorf("Contained(%q) with no root = %v, want nil", p, err)
		}
	}
}

func TestContainedRootBehindSymlink(t *testing.T) {
	l, outside := newLayout(t)
	real := filepath.Join(outside, "real-scratchpad")
	writeFile(t, filepath.Join(real, "a", "2026-01-01.md"), "x")
	symlink(t, real, l.Root)
	if err := l.Contained(l.File("a", "2026-01-01")); err != nil {
		t.Errorf("Contained under a symlinked root = %v", err)
	}
	if b, err := l.ReadFile(l.File("a", "2026-01-01")); err != nil || string(b) != "x" {
		t.Errorf("ReadFile under a symlinked root = %q, %v", b, err)
	}
}

// A dangling symlink is a path that exists, so per Contained's own doc it
// must be resolved; one that points outside the root lets a later write of
// the scratchpad file land outside it.
func TestContainedDanglingSymlinkOut(t *testing.T) {
	l, outside := newLayout(t)
	mkdir(t, filepath.Join(l.Root, "agent"))
	fileLink := l.File("agent", "2026-01-01")
	symlink(t, filepath.Join(outside, "created-by-write.md"), fileLink)
	dirLink := filepath.Join(l.Root, "evil")
	symlink(t, filepath.Join(outside, "no-such-dir"), dirLink)

	for _, p := range []string{fileLink, l.File("evil", "2026-01-01")} {
		var esc *EscapeError
		if err := l.Contained(p); !errors.As(err, &esc) {
			t.Errorf("Layout.Contained(%q) = %v, want *EscapeError: a dangling symlink pointing outside "+
				"the root is where a write would land, outside the root", p, err)
		}
	}
}

func TestReadFile(t *testing.T) {
	l, outside := newLayout(t)
	writeFile(t, l.File("a", "2026-01-01"), "content")
	mkdir(t, l.File("a", "2026-01-02"))
	writeFile(t, filepath.Join(outside, "x.md"), "secret")
	symlink(t, filepath.Join(outside, "x.md"), l.File("a", "2026-01-03"))
	symlink(t, l.File("a", "2026-01-01"), l.File("b", "2026-01-01"))

	if b, err := l.ReadFile(l.File("a", "2026-01-01")); err != nil || string(b) != "content" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if b, err := l.ReadFile(l.File("b", "2026-01-01")); err != nil || string(b) != "content" {
		t.Errorf("ReadFile through an inside symlink = %q, %v", b, err)
	}
	var nf *NotFileError
	if _, err := l.ReadFile(l.File("a", "2026-01-02")); !errors.As(err, &nf) || !nf.Mode.IsDir() {
		t.Errorf("ReadFile on a directory = %v, want *NotFileError", err)
	}
	if _, err := l.ReadFile(l.File("a", "2026-01-09")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile on a missing file = %v, want fs.ErrNotExist", err)
	}
	var esc *EscapeError
	if b, err := l.ReadFile(l.File("a", "2026-01-03")); !errors.As(err, &esc) || b != nil {
		t.Errorf("ReadFile of a file symlinked out = %q, %v; want *EscapeError", b, err)
	}
}

func TestReadFileFIFO(t *testing.T) {
	l, _ := newLayout(t)
	p := l.File("a", "2026-01-01")
	mkdir(t, filepath.Dir(p))
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Must not block opening the FIFO.
	var nf *NotFileError
	_, err := l.ReadFile(p)
	if !errors.As(err, &nf) || !strings.HasSuffix(err.Error(), "is a FIFO") {
		t.Errorf("ReadFile on a FIFO = %v, want *NotFileError", err)
	}
}

func TestDelegated(t *testing.T) {
	const day = "2026-05-06"
	l, outside := newLayout(t)
	writeFile(t, l.File(CoordinatorDir, day), "c")
	writeFile(t, l.File(EgoDir, day), "e")
	writeFile(t, l.File("alice", day), "a")
	writeFile(t, l.File("bob", "2026-05-05"), "other day")
	mkdir(t, l.File("carol", day)) // the day-file is a directory
	writeFile(t, filepath.Join(l.Root, "dave"), "a file at root level")
	writeFile(t, filepath.Join(l.Root, FileName(day)), "a day-file at root level")
	writeFile(t, l.File("plugin%3Ax", day), "p")
	writeFile(t, filepath.Join(l.Root, "inner", FileName(day)), "i")
	symlink(t, filepath.Join(l.Root, "inner"), filepath.Join(l.Root, "eve"))
	writeFile(t, filepath.Join(outside, FileName(day)), "o")
	symlink(t, outside, filepath.Join(l.Root, "mallory"))
	writeFile(t, filepath.Join(outside, "file.md"), "o")
	symlink(t, filepath.Join(outside, "file.md"), l.File("trent", day))

	got, err := l.Delegated(day)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"alice", "eve", "inner", "plugin%3Ax"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Delegated = %q, want %q", got, want)
	}

	if got, err := l.Delegated("2026-05-05"); err != nil || !reflect.DeepEqual(got, []string{"bob"}) {
		t.Errorf("Delegated(other day) = %q, %v", got, err)
	}
	if got, err := l.Delegated("2020-01-01"); err != nil || len(got) != 0 {
		t.Errorf("Delegated(no files) = %q, %v", got, err)
	}
}

func TestDelegatedNoRoot(t *testing.T) {
	l, _ := newLayout(t)
	if got, err := l.Delegated("2026-01-01"); err != nil || got != nil {
		t.Errorf("Delegated without a root = %q, %v", got, err)
	}
	// Only the coordinator wrote: no delegation.
	writeFile(t, l.File(CoordinatorDir, "2026-01-01"), "c")
	if got, err := l.Delegated("2026-01-01"); err != nil || len(got) != 0 {
		t.Errorf("Delegated with only the coordinator = %q, %v", got, err)
	}
}

// Tail, which the context hooks use, does not wait on a FIFO either.
func TestTailFIFO(t *testing.T) {
	l, _ := newLayout(t)
	p := l.File(CoordinatorDir, "2026-01-01")
	mkdir(t, filepath.Dir(p))
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var nf *NotFileError
	if _, _, err := l.Tail(p, 3); !errors.As(err, &nf) || nf.What() != "a FIFO" {
		t.Errorf("Tail on a FIFO = %v, want *NotFileError", err)
	}
}

// A file over MaxFileBytes is not read whole: ReadFile refuses it, Tail
// still gives its last lines.
func TestReadFileTooLarge(t *testing.T) {
	l, _ := newLayout(t)
	p := l.File("a", "2026-01-01")
	mkdir(t, filepath.Dir(p))
	big := bytes.Repeat([]byte("filler line\n"), MaxFileBytes/12+1)
	big = append(big, "## Unresolved\nthe end\n"...)
	if err := os.WriteFile(p, big, 0o644); err != nil {
		t.Fatal(err)
	}
	var tl *TooLargeError
	if b, err := l.ReadFile(p); !errors.As(err, &tl) || b != nil || tl.Size != int64(len(big)) {
		t.Errorf("ReadFile of %d bytes = %d bytes, %v; want *TooLargeError", len(big), len(b), err)
	}
	lines, cut, err := l.Tail(p, 2)
	if err != nil || !cut || strings.Join(lines, "|") != "## Unresolved|the end" {
		t.Errorf("Tail = %q, %v, %v", lines, cut, err)
	}
	rep, err := l.Check("", []string{"Unresolved"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || rep.Violations[0].Kind != KindTooLarge ||
		rep.Violations[0].Message != "is too large to check (4.0 MiB; at most 4 MiB is read)" {
		t.Errorf("Check violations %+v, want one too_large", rep.Violations)
	}
}

// A FIFO where the coordinator's folder should be does not hang Newest,
// which lists the folder when no recent name is found.
func TestNewestFolderFIFO(t *testing.T) {
	l, _ := newLayout(t)
	mkdir(t, l.Root)
	if err := syscall.Mkfifo(filepath.Join(l.Root, CoordinatorDir), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, _, ok, err := l.Newest(CoordinatorDir, "2026-01-01"); ok || err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Newest over a FIFO = %v, %v; want a not-a-directory error", ok, err)
	}
}

// A NewLayout finds where its root leads once: a root swapped for a link
// later in the same call does not move the call's files with it (they must
// stay where the root was), while a fresh Layout follows the link. A root
// not there yet is looked for again.
func TestNewLayoutResolvesRootOnce(t *testing.T) {
	l, outside := newLayout(t)
	file := l.File("a", "2026-01-01")
	if err := l.Contained(file); err != nil {
		t.Fatalf("Contained with no root yet = %v", err)
	}
	writeFile(t, file, "x")
	if err := l.Contained(file); err != nil {
		t.Fatalf("Contained once the root exists = %v", err)
	}
	moved := filepath.Join(outside, "moved")
	if err := os.Rename(l.Root, moved); err != nil {
		t.Fatal(err)
	}
	symlink(t, moved, l.Root)
	var esc *EscapeError
	if err := l.Contained(file); !errors.As(err, &esc) {
		t.Errorf("the same call, root now a link = %v, want *EscapeError", err)
	}
	if err := NewLayout(l.Project, l.Root).Contained(file); err != nil {
		t.Errorf("a new call, root a link = %v, want nil", err)
	}
}

// A root reached through more links than the kernel follows in one lookup
// (filepath.EvalSymlinks follows them all) has no file under it the kernel
// could open: every path under it is a symlink loop, judged on the first
// check of a call as on the next.
func TestContainedRootPastTheHopLimit(t *testing.T) {
	l, outside := newLayout(t)
	mkdir(t, filepath.Join(outside, "real"))
	symlink(t, filepath.Join(outside, "real"), filepath.Join(outside, "hop40"))
	for i := 39; i >= 0; i-- {
		symlink(t, fmt.Sprintf("hop%d", i+1), filepath.Join(outside, fmt.Sprintf("hop%d", i)))
	}
	symlink(t, filepath.Join(outside, "hop0"), l.Root)
	writeFile(t, filepath.Join(outside, "real", "a", "2026-01-01.md"), "x")
	for i := range 2 {
		if err := l.Contained(l.File("a", "2026-01-01")); !errors.Is(err, errSymlinkLoop) {
			t.Errorf("check %d: Contained under a root 41 links away = %v, want a symlink loop", i+1, err)
		}
	}
}

// Contained compares where paths lead and nothing else: it does not ask
// whether a folder matches names regardless of case (a lookup or a listing
// per folder, in every hook that reads a scratchpad).
func TestContainedDoesNotProbeCase(t *testing.T) {
	l, _ := newLayout(t)
	writeFile(t, l.File("agent", "2026-01-01"), "x")
	probes := 0
	defer fspath.SetCaseProbe(func(string) bool { probes++; return false })()
	for _, p := range []string{l.File("agent", "2026-01-01"), l.File("missing", "2026-01-01")} {
		if err := l.Contained(p); err != nil {
			t.Fatalf("Contained(%s) = %v", p, err)
		}
	}
	if probes != 0 {
		t.Errorf("Contained probed case folding %d times", probes)
	}
}
