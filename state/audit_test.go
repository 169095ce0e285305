package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The trail is bounded: past the limit it moves to audit.jsonl.1 (replacing
// the older one), so at most two files of about the limit exist, and the
// newest lines are always in audit.jsonl.
func TestAuditRotates(t *testing.T) {
	d := Open(t.TempDir())
	d.AuditLimit = 100
	for i := range 30 {
		if err := d.Audit(map[string]int{"line": i}); err != nil { // 11-12 bytes a line
			t.Fatal(err)
		}
	}
	cur := readLines(t, filepath.Join(d.Path, AuditFile))
	old := readLines(t, filepath.Join(d.Path, AuditFile+".1"))
	if len(cur) == 0 || len(old) == 0 {
		t.Fatalf("current %d lines, rotated %d lines: want both", len(cur), len(old))
	}
	for _, f := range []string{AuditFile, AuditFile + ".1"} {
		info, err := os.Stat(filepath.Join(d.Path, f))
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > d.AuditLimit {
			t.Errorf("%s is %d bytes, over the %d limit", f, info.Size(), d.AuditLimit)
		}
	}
	if last := cur[len(cur)-1]; last != `{"line":29}` {
		t.Errorf("last line %q, want the newest record", last)
	}
	// Lines in the two files are consecutive: nothing lost at the seam.
	var prev = -1
	for _, l := range append(old, cur...) {
		var rec struct{ Line int }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if prev >= 0 && rec.Line != prev+1 {
			t.Errorf("line %d follows %d", rec.Line, prev)
		}
		prev = rec.Line
	}
}

// Concurrent writers never interleave inside a line, and with rotation
// racing them no line is lost: every record is in one of the two files.
func TestAuditConcurrentRotation(t *testing.T) {
	d := Open(t.TempDir())
	d.AuditLimit = 30000 // about 50 KB in all: exactly one rotation
	const writers, each = 16, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := d.Audit(map[string]int{"w": w, "i": i}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	lines := append(readLines(t, filepath.Join(d.Path, AuditFile+".1")), readLines(t, filepath.Join(d.Path, AuditFile))...)
	if len(lines) != writers*each {
		t.Fatalf("%d lines, want %d", len(lines), writers*each)
	}
	seen := map[[2]int]bool{}
	for _, l := range lines {
		var rec struct{ W, I int }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("torn line %q: %v", l, err)
		}
		seen[[2]int{rec.W, rec.I}] = true
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct records, want %d", len(seen), writers*each)
	}
}

type sinkFunc func([]byte)

func (f sinkFunc) Publish(line []byte) { f(line) }

func TestAuditHandsTheSinkTheLocalLine(t *testing.T) {
	t.Parallel()
	d := Open(t.TempDir())
	var got [][]byte
	d.AuditSink = sinkFunc(func(line []byte) { got = append(got, append([]byte(nil), line...)) })
	for _, r := range []any{map[string]any{"a": "<&>"}, map[string]int{"n": 2}} {
		if err := d.Audit(r); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(d.Path, AuditFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := string(got[0]) + "\n" + string(got[1]) + "\n"; len(got) != 2 || string(data) != want {
		t.Fatalf("sink got %q, trail holds %q", got, data)
	}
	// A line the trail refuses (a link in its place) is not handed on.
	os.Remove(filepath.Join(d.Path, AuditFile))
	os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), filepath.Join(d.Path, AuditFile))
	if err := d.Audit(map[string]int{"n": 3}); err == nil {
		t.Fatal("want a refusal of the link")
	}
	if len(got) != 2 {
		t.Fatalf("the sink got a line the trail refused: %q", got[2:])
	}
}

// A hard link planted at the trail's name, to a file of the user's, is
// never appended to: the trail moves aside (to audit.jsonl.1, as past its
// limit) and a trail of its own starts.
func TestAuditNeverWritesThroughAHardLink(t *testing.T) {
	d := Open(t.TempDir())
	if err := d.Audit(map[string]int{"line": 1}); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "notes.jsonl")
	if err := os.WriteFile(victim, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	trail := filepath.Join(d.Path, AuditFile)
	if err := os.Remove(trail); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, trail); err != nil {
		t.Skip(err)
	}
	if err := d.Audit(map[string]int{"line": 2}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "{}\n" {
		t.Errorf("the hard-linked file became %q", data)
	}
	if data, _ := os.ReadFile(trail); string(data) != `{"line":2}`+"\n" {
		t.Errorf("the trail is %q", data)
	}
}
