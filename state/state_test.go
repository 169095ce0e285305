package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	d := Open(filepath.FromSlash("/proj"))
	if want := filepath.FromSlash("/proj/.claude/massgen-hook"); d.Path != want {
		t.Errorf("Open = %q, want %q", d.Path, want)
	}
	// Open creates nothing.
	project := t.TempDir()
	Open(project)
	if _, err := os.Stat(filepath.Join(project, ".claude")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open created something: %v", err)
	}
}

var hashedKey = regexp.MustCompile(`^h-[0-9a-f]{16,}$`)

func TestKey(t *testing.T) {
	plain := []string{"abc", "session_1-2", "A", "0", "-", strings.Repeat("x", 100),
		"550e8400-e29b-41d4-a716-446655440000", "agent_a1b2c3"}
	for _, id := range plain {
		if got := Key(id); got != id {
			t.Errorf("Key(%q) = %q, want it kept", id, got)
		}
	}
	hashed := []string{"", "a/b", "..", ".", "../../etc/passwd", "a b", "a.b", "é", "a\x00b", "a\\b",
		strings.Repeat("x", 101), strings.Repeat("y", 10000), "ab\n", " ab", "ab:cd", "%41"}
	seen := map[string]string{}
	for _, id := range hashed {
		got := Key(id)
		if !hashedKey.MatchString(got) {
			t.Errorf("Key(%q) = %q, want h-<hex>", id, got)
		}
		if again := Key(id); again != got {
			t.Errorf("Key(%q) not deterministic: %q then %q", id, got, again)
		}
		if Key(got) != got {
			t.Errorf("Key(%q) = %q is not itself plain", id, got)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("Key(%q) == Key(%q) == %q", id, prev, got)
		}
		seen[got] = id
		for _, p := range plain {
			if got == p {
				t.Errorf("Key(%q) collides with the plain id %q", id, p)
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func set(value string) func([]byte) ([]byte, error) {
	return func([]byte) ([]byte, error) { return []byte(value), nil }
}

func TestUpdateCreatesDirWithGitignore(t *testing.T) {
	project := t.TempDir()
	d := Open(project)
	if err := d.Update("rec", set("v1")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(d.Path)
	if err != nil || !info.IsDir() {
		t.Fatalf("runtime dir: %v", err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("runtime dir mode %v, want owner-only", perm)
	}
	ignore := readFile(t, filepath.Join(d.Path, ".gitignore"))
	if !regexp.MustCompile(`(?m)^\*$`).MatchString(ignore) {
		t.Errorf(".gitignore = %q, want a line \"*\"", ignore)
	}
	if got := readFile(t, filepath.Join(d.Path, "rec")); got != "v1" {
		t.Errorf("record = %q", got)
	}
}

func TestUpdateNestedName(t *testing.T) {
	d := Open(t.TempDir())
	if err := d.Update("stops/"+Key("session 1")+"/main", set("3")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(d.Path, "stops", Key("session 1"), "main")); got != "3" {
		t.Errorf("record = %q", got)
	}
	if _, err := os.Stat(filepath.Join(d.Path, ".gitignore")); err != nil {
		t.Errorf(".gitignore not at the top of the runtime dir: %v", err)
	}
}

func TestUpdateSequence(t *testing.T) {
	d := Open(t.TempDir())
	path := filepath.Join(d.Path, "rec")
	boom := errors.New("boom")
	steps := []struct {
		name    string
		wantOld []byte // nil: absent
		ret     []byte
		err     error
		after   *string // nil: record absent afterwards
	}{
		{"first call sees nil", nil, []byte("one"), nil, ptr("one")},
		{"then the previous content", []byte("one"), []byte("two"), nil, ptr("two")},
		{"an error keeps the record", []byte("two"), []byte("ignored"), boom, ptr("two")},
		{"an error with nil keeps it too", []byte("two"), nil, boom, ptr("two")},
		{"nil removes", []byte("two"), nil, nil, nil},
		{"absent again", nil, nil, nil, nil},
		{"empty content is a record", nil, []byte{}, nil, ptr("")},
		{"an empty record is not absent", []byte{}, []byte("three"), nil, ptr("three")},
	}
	for _, st := range steps {
		var got []byte
		err := d.Update("rec", func(old []byte) ([]byte, error) {
			got = old
			return st.ret, st.err
		})
		if !errors.Is(err, st.err) || (st.err == nil && err != nil) {
			t.Errorf("%s: Update = %v, want %v", st.name, err, st.err)
		}
		if (got == nil) != (st.wantOld == nil) || string(got) != string(st.wantOld) {
			t.Errorf("%s: fn saw %q (nil %v), want %q (nil %v)", st.name, got, got == nil, st.wantOld, st.wantOld == nil)
		}
		b, rerr := os.ReadFile(path)
		switch {
		case st.after == nil && !errors.Is(rerr, fs.ErrNotExist):
			t.Errorf("%s: record exists (%q, %v), want it absent", st.name, b, rerr)
		case st.after != nil && (rerr != nil || string(b) != *st.after):
			t.Errorf("%s: record = %q, %v; want %q", st.name, b, rerr, *st.after)
		}
	}
	assertNoTempFiles(t, d.Path)
}

func ptr(s string) *string { return &s }

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temp file left behind: %s", p)
		}
		return nil
	})
}

func TestUpdateWithLeftovers(t *testing.T) {
	d := Open(t.TempDir())
	if err := d.Update("rec", set("old")); err != nil {
		t.Fatal(err)
	}
	// A crashed writer's temp file and lock file are harmless.
	leftover := filepath.Join(d.Path, ".rec.12345.tmp")
	if err := os.WriteFile(leftover, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	var saw string
	err := d.Update("rec", func(old []byte) ([]byte, error) { saw = string(old); return []byte("new"), nil })
	if err != nil || saw != "old" {
		t.Fatalf("Update = %v, saw %q", err, saw)
	}
	if got := readFile(t, filepath.Join(d.Path, "rec")); got != "new" {
		t.Errorf("record = %q", got)
	}
	// A missing .gitignore in an existing dir does not break anything either.
	os.Remove(filepath.Join(d.Path, ".gitignore"))
	if err := d.Update("rec", set("newer")); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateBlockedDir(t *testing.T) {
	project := t.TempDir()
	// .claude is a file: the runtime dir cannot be created.
	if err := os.WriteFile(filepath.Join(project, ".claude"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	called := false
	err := Open(project).Update("rec", func([]byte) ([]byte, error) { called = true; return []byte("x"), nil })
	if err == nil || called {
		t.Errorf("Update = %v (fn called %v), want an error before fn", err, called)
	}
	if err := Open(project).Audit(map[string]int{"a": 1}); err == nil {
		t.Error("Audit into a blocked dir succeeded")
	}
}

func TestUpdateRecordIsADirectory(t *testing.T) {
	d := Open(t.TempDir())
	if err := os.MkdirAll(filepath.Join(d.Path, "rec"), 0o700); err != nil {
		t.Fatal(err)
	}
	called := false
	if err := d.Update("rec", func([]byte) ([]byte, error) { called = true; return []byte("x"), nil }); err == nil || called {
		t.Errorf("Update on a directory = %v (fn called %v), want a read error", err, called)
	}
}

func TestRemove(t *testing.T) {
	project := t.TempDir()
	d := Open(project)
	for _, name := range []string{"rec", "a/b/c"} {
		if err := d.Remove(name); err != nil {
			t.Errorf("Remove(%q) missing = %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(project, ".claude")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Remove of a missing record created something: %v", err)
	}

	if err := d.Update("a/rec", set("x")); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("a/rec"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d.Path, "a", "rec")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("record still there: %v", err)
	}
	if err := d.Remove("a/rec"); err != nil {
		t.Errorf("second Remove = %v", err)
	}
	if err := d.Remove("a/other"); err != nil {
		t.Errorf("Remove of a sibling = %v", err)
	}
}

// The runtime dir promises never to be committed; a .gitignore lost from an
// existing runtime dir (deleted, or the dir made by hand) should come back.
func TestUpdateRestoresGitignore(t *testing.T) {
	d := Open(t.TempDir())
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := d.Update("rec", set("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d.Path, ".gitignore")); err != nil {
		t.Errorf("in an existing runtime dir without a .gitignore, Update must restore it (%v)", err)
	}
}

// A .gitignore that no longer ignores everything (emptied, or replaced by
// one without "*") gets the rule back at its top; the user's own lines
// stay below it. One that already has "*" is left as it is.
func TestGitignoreIsKeptIgnoringEverything(t *testing.T) {
	for _, tc := range []struct{ name, before, after string }{
		{"emptied", "", ignoreRules},
		{"white space only", "\n  \n", ignoreRules + "\n  \n"},
		{"an exception without the rule", "!audit.jsonl\n", ignoreRules + "!audit.jsonl\n"},
		{"the rule and an exception", "*\n!audit.jsonl\n", "*\n!audit.jsonl\n"},
		{"the rule, indented, among comments", "# mine\n  *  \n", "# mine\n  *  \n"},
		{"a rule that is not *", "*.jsonl\n", ignoreRules + "*.jsonl\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Open(t.TempDir())
			if err := os.MkdirAll(d.Path, 0o700); err != nil {
				t.Fatal(err)
			}
			ignore := filepath.Join(d.Path, ".gitignore")
			if err := os.WriteFile(ignore, []byte(tc.before), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := d.Audit(map[string]int{"a": 1}); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, ignore); got != tc.after {
				t.Errorf(".gitignore = %q, want %q", got, tc.after)
			}
		})
	}
}

// A .gitignore that is a link is replaced by a file of our own; what it
// pointed at is not touched.
func TestGitignoreThatIsALinkIsReplaced(t *testing.T) {
	target := filepath.Join(t.TempDir(), "theirs")
	if err := os.WriteFile(target, []byte("!*\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var notes strings.Builder
	d := Open(t.TempDir())
	d.Notes = &notes
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(d.Path, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	if err := d.Update("rec", set("x")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(filepath.Join(d.Path, ".gitignore"))
	if err != nil || !info.Mode().IsRegular() || readFile(t, filepath.Join(d.Path, ".gitignore")) != ignoreRules {
		t.Errorf(".gitignore: %v, %v; want our own file", info, err)
	}
	if readFile(t, target) != "!*\n" {
		t.Error("the link's target was written")
	}
	if want := "massgen-hook: " + d.Path + "/.gitignore: is a symbolic link; replacing it\n"; notes.String() != want {
		t.Errorf("notes %q, want %q", notes.String(), want)
	}
}
