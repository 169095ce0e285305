package state

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

type counter struct{ N int }

func increment(old []byte) ([]byte, error) {
	var c counter
	if old != nil {
		if err := json.Unmarshal(old, &c); err != nil {
			return nil, fmt.Errorf("torn record %q: %w", old, err)
		}
	}
	c.N++
	return json.Marshal(c)
}

func readCounter(t *testing.T, d *Dir, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(d.Path, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	var c counter
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("record %q: %v", b, err)
	}
	return c.N
}

func TestUpdateConcurrent(t *testing.T) {
	const n = 64
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared Dir %v", shared), func(t *testing.T) {
			project := t.TempDir()
			dirs := make([]*Dir, 8) // separate values, as separate processes would have
			for i := range dirs {
				dirs[i] = Open(project)
			}
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				d := dirs[0]
				if !shared {
					d = dirs[i%len(dirs)]
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- d.Update("counters/"+Key("sess/1"), increment)
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			if got := readCounter(t, dirs[0], "counters/"+Key("sess/1")); got != n {
				t.Errorf("counter = %d, want %d", got, n)
			}
			assertNoTempFiles(t, dirs[0].Path)
		})
	}
}

// TestUpdateAcrossProcesses runs the increment in separate processes (this
// test binary, re-run as a helper), which share no memory: only the file lock
// keeps their updates apart.
func TestUpdateAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs, each = 4, 25
	project := t.TempDir()
	var wg sync.WaitGroup
	for range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperIncrement$")
			cmd.Env = append(os.Environ(), "STATE_HELPER_PROJECT="+project, "STATE_HELPER_COUNT="+strconv.Itoa(each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("helper: %v\n%s", err, out)
			}
		}()
	}
	wg.Wait()
	if got := readCounter(t, Open(project), "procs"); got != procs*each {
		t.Errorf("counter = %d, want %d", got, procs*each)
	}
}

func TestHelperIncrement(t *testing.T) {
	project := os.Getenv("STATE_HELPER_PROJECT")
	if project == "" {
		t.Skip("helper process for TestUpdateAcrossProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("STATE_HELPER_COUNT"))
	for range n {
		if err := Open(project).Update("procs", increment); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAudit(t *testing.T) {
	project := t.TempDir()
	d := Open(project)
	records := []any{
		map[string]any{"event": "Stop", "decision": "block"},
		struct {
			A string `json:"a"`
			B int    `json:"b"`
		}{"<&>\nx", 2},
		"just a string",
	}
	for _, r := range records {
		if err := d.Audit(r); err != nil {
			t.Fatal(err)
		}
	}
	lines := readLines(t, filepath.Join(d.Path, AuditFile))
	want := []string{`{"decision":"block","event":"Stop"}`, `{"a":"\u003c\u0026\u003e\nx","b":2}`, `"just a string"`}
	if len(lines) != len(want) {
		t.Fatalf("audit lines = %q", lines)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d = %s, want %s", i, lines[i], want[i])
		}
	}
	if _, err := os.Stat(filepath.Join(d.Path, ".gitignore")); err != nil {
		t.Errorf("Audit did not create the .gitignore: %v", err)
	}
}

// ownLine is a record that writes its own audit line.
type ownLine struct {
	line string
	err  error
}

func (o ownLine) AuditLine() ([]byte, error) { return []byte(o.line), o.err }

// TestAuditOwnLines: a record that writes its own line is appended as it
// wrote it, through Audit as through AuditLine, and one that fails to
// write it is not appended at all.
func TestAuditOwnLines(t *testing.T) {
	d := Open(t.TempDir())
	if err := d.Audit(ownLine{line: `{"own":1}`}); err != nil {
		t.Fatal(err)
	}
	if err := d.AuditLine(ownLine{line: `{"own":2}`}); err != nil {
		t.Fatal(err)
	}
	if err := d.AuditLine(ownLine{err: errors.New("no line")}); err == nil || !strings.Contains(err.Error(), "no line") {
		t.Errorf("AuditLine of a record that cannot write its line: %v", err)
	}
	lines := readLines(t, filepath.Join(d.Path, AuditFile))
	if want := []string{`{"own":1}`, `{"own":2}`}; !slices.Equal(lines, want) {
		t.Errorf("audit lines = %q, want %q", lines, want)
	}
}

func TestAuditUnencodable(t *testing.T) {
	project := t.TempDir()
	if err := Open(project).Audit(make(chan int)); err == nil {
		t.Fatal("Audit of a channel succeeded")
	}
	if _, err := os.Stat(filepath.Join(project, ".claude")); !os.IsNotExist(err) {
		t.Errorf("a failed Audit created the runtime dir: %v", err)
	}
}

func TestAuditConcurrent(t *testing.T) {
	const n = 50
	project := t.TempDir()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Separate Dir values, and records big enough to tear if writes interleaved.
			rec := map[string]any{"i": i, "pad": fmt.Sprintf("%0*d", 4000, i)}
			if err := Open(project).Audit(rec); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	lines := readLines(t, filepath.Join(Open(project).Path, AuditFile))
	if len(lines) != n {
		t.Fatalf("%d lines, want %d", len(lines), n)
	}
	seen := map[int]bool{}
	for _, line := range lines {
		var rec struct{ I int }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("invalid line %.80q: %v", line, err)
		}
		seen[rec.I] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct records, want %d", len(seen), n)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}
