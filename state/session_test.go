package state

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

type tally struct {
	N int `json:"n"`
}

func bump(c *tally) func() (bool, error) {
	return func() (bool, error) { c.N++; return true, nil }
}

func TestSessionRecordKeysEveryPart(t *testing.T) {
	if got := SessionRecord("abc", "budget"); got != "sessions/abc/budget.json" {
		t.Errorf("SessionRecord = %q", got)
	}
	got := SessionRecord("../../etc", "../x")
	if strings.Contains(got, "..") || strings.Count(got, "/") != 2 {
		t.Errorf("an event's id steered the path: %q", got)
	}
}

func TestUpdateSessionCountsAndReads(t *testing.T) {
	d := Open(t.TempDir())
	for i := 0; i < 3; i++ {
		var c tally
		if err := d.UpdateSession("s1", "n", &c, bump(&c)); err != nil {
			t.Fatal(err)
		}
		if c.N != i+1 {
			t.Fatalf("update %d saw %d", i, c.N)
		}
	}
	var c tally
	ok, err := d.ReadJSON(SessionRecord("s1", "n"), &c)
	if err != nil || !ok || c.N != 3 {
		t.Errorf("ReadJSON = %v, %v, %+v; want true, nil, 3", ok, err, c)
	}
	ok, err = d.ReadJSON(SessionRecord("s2", "n"), &c)
	if ok || err != nil {
		t.Errorf("absent record: %v, %v", ok, err)
	}
}

func TestUpdateJSONUnchangedWritesNothing(t *testing.T) {
	d := Open(t.TempDir())
	var c tally
	if err := d.UpdateSession("s", "n", &c, bump(&c)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(d.Path, "sessions", "s", "n.json")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := d.UpdateSession("s", "n", &c, func() (bool, error) { return false, nil }); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); !info.ModTime().Equal(old) {
		t.Errorf("an unchanged record was rewritten")
	}
}

func TestCorruptRecordIsSetAsideAndReset(t *testing.T) {
	d := Open(t.TempDir())
	var notes bytes.Buffer
	d.Notes = &notes
	path := filepath.Join(d.Path, "sessions", "s", "n.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"n": 41`), 0o600); err != nil {
		t.Fatal(err)
	}
	var seen tally
	ok, err := d.ReadJSON(SessionRecord("s", "n"), &seen)
	if ok || err != nil {
		t.Errorf("a corrupt record reads as %v, %v; want absent, no error", ok, err)
	}
	c := tally{N: 99} // a stale value must not survive the reset
	if err := d.UpdateSession("s", "n", &c, bump(&c)); err != nil {
		t.Fatal(err)
	}
	if c.N != 1 {
		t.Errorf("after reset the count is %d, want 1", c.N)
	}
	if kept, err := os.ReadFile(path + ".corrupt"); err != nil || string(kept) != `{"n": 41` {
		t.Errorf("corrupt record not set aside: %q, %v", kept, err)
	}
	if !strings.Contains(notes.String(), "n.json is corrupt") || !strings.Contains(notes.String(), "set aside as n.json.corrupt") {
		t.Errorf("notes = %q", notes.String())
	}
	if n := strings.Count(notes.String(), "\n"); n != 2 {
		t.Errorf("want one line per event (read, reset), got %d: %q", n, notes.String())
	}
}

func TestReadOnlyDirWritesNothing(t *testing.T) {
	project := t.TempDir()
	d := Open(project)
	d.ReadOnly = true
	var c tally
	if err := d.UpdateSession("s", "n", &c, bump(&c)); err != nil {
		t.Fatal(err)
	}
	if c.N != 1 {
		t.Errorf("fn did not run: %+v", c)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a read-only update created files: %v", err)
	}
}

func TestNewSessionPrunesIdleOnes(t *testing.T) {
	d := Open(t.TempDir())
	for _, s := range []string{"old", "recent"} {
		var c tally
		if err := d.UpdateSession(s, "n", &c, bump(&c)); err != nil {
			t.Fatal(err)
		}
	}
	stale := time.Now().Add(-SessionMaxAge - time.Hour)
	if err := os.Chtimes(filepath.Join(d.Path, "sessions", "old"), stale, stale); err != nil {
		t.Fatal(err)
	}
	// Another update of a known session prunes nothing...
	var c tally
	if err := d.UpdateSession("recent", "n", &c, bump(&c)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d.Path, "sessions", "old")); err != nil {
		t.Fatalf("pruned by a known session's update: %v", err)
	}
	// ...a new session's first record does.
	if err := d.UpdateSession("new", "n", &c, bump(&c)); err != nil {
		t.Fatal(err)
	}
	keys, err := d.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != "new" || keys[1] != "recent" {
		t.Errorf("sessions after prune = %q, want [new recent] (most recent first)", keys)
	}
}

func TestSessionRecords(t *testing.T) {
	d := Open(t.TempDir())
	for _, r := range []string{"round-main", "budget", "round-a1"} {
		var c tally
		if err := d.UpdateSession("s", r, &c, bump(&c)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := d.SessionRecords("s")
	if err != nil || !reflect.DeepEqual(got, []string{"budget", "round-a1", "round-main"}) {
		t.Errorf("SessionRecords = %q, %v", got, err)
	}
	if got, err := d.SessionRecords("none"); got != nil || err != nil {
		t.Errorf("unknown session: %q, %v", got, err)
	}
}

// selfCoded is a record that reads and writes itself, keeping what it was
// handed: its bytes as read, whatever they are.
type selfCoded struct{ got []byte }

func (r *selfCoded) UnmarshalJSON(b []byte) error {
	r.got = append([]byte(nil), b...)
	if string(b) == "bad" {
		return errors.New("not mine")
	}
	return nil
}

func (r *selfCoded) MarshalJSON() ([]byte, error) { return []byte(`{"self":"coded"}`), nil }

// A record type with its own UnmarshalJSON and MarshalJSON is handed the
// record's bytes as they are and writes its bytes as they are, with no
// pass of encoding/json's scanner before or after (which would refuse
// "<x>" before the method saw it, and compact what it wrote); one it
// refuses is set aside as any corrupt record is.
func TestRecordTypeCodesItself(t *testing.T) {
	project := t.TempDir()
	d := Open(project)
	name := SessionRecord("s1", "self")
	path := filepath.Join(d.Path, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("<x>"), 0o600); err != nil {
		t.Fatal(err)
	}
	var r selfCoded
	if ok, err := d.ReadJSON(name, &r); !ok || err != nil || string(r.got) != "<x>" {
		t.Fatalf("ReadJSON: %v %v, the method got %q", ok, err, r.got)
	}
	if err := d.UpdateJSON(name, &r, func() (bool, error) { return true, nil }); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"self":"coded"}` {
		t.Errorf("written %q", data)
	}
	if err := os.WriteFile(path, []byte("bad"), 0o600); err != nil {
		t.Fatal(err)
	}
	var notes bytes.Buffer
	d.Notes = &notes
	if err := d.UpdateJSON(name, &r, func() (bool, error) { return false, nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".corrupt"); err != nil || !strings.Contains(notes.String(), "not mine") {
		t.Errorf("a record the type refused: set aside %v, notes %q", err, notes.String())
	}
}
