package natsaudit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/massgen/massgen-hook/state"
)

func TestForwardKeepsWhatWasNotTakenInOrder(t *testing.T) {
	t.Parallel()
	sp := spool{dir: state.Open(t.TempDir()), max: MaxSpoolBytes}
	for i := range 5 {
		if _, err := sp.add(entry{id: fmt.Sprint("id", i), line: []byte(fmt.Sprintf(`{"n":%d}`, i))}); err != nil {
			t.Fatal(err)
		}
	}
	cut := errors.New("connection lost")
	var seen []string
	n, err := sp.forward(func(es []entry) (int, error) {
		for _, e := range es {
			seen = append(seen, e.id)
		}
		return 2, cut
	})
	if n != 2 || !errors.Is(err, cut) || len(seen) != 5 || seen[0] != "id0" || seen[4] != "id4" {
		t.Fatalf("forward: %d %v, saw %v", n, err, seen)
	}
	data, _ := os.ReadFile(sp.path())
	if string(data) != "id2\t{\"n\":2}\nid3\t{\"n\":3}\nid4\t{\"n\":4}\n" {
		t.Fatalf("spool after a forward cut short after two: %q", data)
	}
	if n, err := sp.forward(func(es []entry) (int, error) { return len(es), nil }); n != 3 || err != nil {
		t.Fatalf("second forward: %d %v", n, err)
	}
	if _, err := os.Stat(sp.path()); !os.IsNotExist(err) || sp.pending() {
		t.Fatalf("an emptied spool is removed: %v", err)
	}
}

func TestSpoolSkipsATornLineAndStartsAfterIt(t *testing.T) {
	t.Parallel()
	sp := spool{dir: state.Open(t.TempDir()), max: MaxSpoolBytes}
	if _, err := sp.add(entry{id: "a", line: []byte(`{"n":1}`)}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(sp.path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("b\t{\"n\":") // a crash mid-append
	f.Close()
	if _, err := sp.add(entry{id: "c", line: []byte(`{"n":3}`)}); err != nil {
		t.Fatal(err)
	}
	var got []string
	sp.forward(func(es []entry) (int, error) {
		for _, e := range es {
			got = append(got, e.id+string(e.line))
		}
		return len(es), nil
	})
	if fmt.Sprint(got) != `[a{"n":1} c{"n":3}]` {
		t.Fatalf("forwarded %v", got)
	}
	if _, err := os.Stat(filepath.Dir(sp.path())); err != nil {
		t.Fatal(err)
	}
}

// A hard link planted at the spool's name, to a file of the user's, is
// never appended to: the spool is rewritten (replacing the name) with what
// it held and the new line, and the other file stays as it was.
func TestSpoolNeverWritesThroughAHardLink(t *testing.T) {
	t.Parallel()
	sp := spool{dir: state.Open(t.TempDir()), max: MaxSpoolBytes}
	if _, err := sp.add(entry{id: "a", line: []byte(`{"n":1}`)}); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(victim, []byte("a\t{\"n\":1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(sp.path()); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, sp.path()); err != nil {
		t.Skip(err)
	}
	if _, err := sp.add(entry{id: "b", line: []byte(`{"n":2}`)}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "a\t{\"n\":1}\n" {
		t.Errorf("the hard-linked file became %q", data)
	}
	if data, _ := os.ReadFile(sp.path()); string(data) != "a\t{\"n\":1}\nb\t{\"n\":2}\n" {
		t.Errorf("the spool is %q", data)
	}
}
