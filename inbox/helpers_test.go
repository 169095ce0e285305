package inbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/state"
)

// t0 is the tests' clock: every time is t0 plus something, so nothing
// depends on the machine's clock.
var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// notes is a Notes writer safe for several goroutines.
type notes struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (n *notes) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.buf.Write(p)
}

func (n *notes) String() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.buf.String()
}

// env is one test project: its directory, runtime directory and inbox.
type env struct {
	t       *testing.T
	project string
	st      *state.Dir
	ib      *Inbox
	notes   *notes
}

func newEnv(t *testing.T) *env {
	t.Helper()
	project := t.TempDir()
	st := state.Open(project)
	n := &notes{}
	st.Notes = n
	return &env{t: t, project: project, st: st, ib: Open(st), notes: n}
}

// other opens a second *Inbox on the same runtime directory, as another
// hook process would.
func (e *env) other() *Inbox {
	st := state.Open(e.project)
	st.Notes = e.notes
	return Open(st)
}

// readOnly opens the inbox as explain does: a dry run.
func (e *env) readOnly() *Inbox {
	st := state.Open(e.project)
	st.Notes = e.notes
	st.ReadOnly = true
	return Open(st)
}

func (e *env) send(d Draft, at time.Time) *Message {
	e.t.Helper()
	m, err := e.ib.Send(d, at)
	if err != nil {
		e.t.Fatalf("Send(%+v): %v", d, err)
	}
	return m
}

func (e *env) take(ib *Inbox, recipient, tool string, at time.Time, budget int) *Batch {
	e.t.Helper()
	b, err := ib.Take(recipient, tool, at, budget, Via{Event: "PostToolUse", Session: "s1", Tool: tool})
	if err != nil {
		e.t.Fatalf("Take(%s, %s): %v", recipient, tool, err)
	}
	return b
}

func (e *env) takeLate(ib *Inbox, recipient string, at time.Time, budget int) *Batch {
	e.t.Helper()
	b, err := ib.TakeLate(recipient, at, budget, Via{Event: "Stop", Session: "s1"})
	if err != nil {
		e.t.Fatalf("TakeLate(%s): %v", recipient, err)
	}
	return b
}

// texts lists the texts of a batch's items (as the recipient sees them).
func texts(b *Batch) []string {
	if b == nil {
		return nil
	}
	var out []string
	for _, it := range b.Items {
		out = append(out, it.Text)
	}
	return out
}

func ids(b *Batch) []string {
	if b == nil {
		return nil
	}
	var out []string
	for _, it := range b.Items {
		out = append(out, it.Message.ID)
	}
	return out
}

func (e *env) list(at time.Time) []Status {
	e.t.Helper()
	l, err := e.ib.List(at)
	if err != nil {
		e.t.Fatalf("List: %v", err)
	}
	return l
}

// status finds message id in the list.
func (e *env) status(id string, at time.Time) Status {
	e.t.Helper()
	for _, s := range e.list(at) {
		if s.ID == id {
			return s
		}
	}
	e.t.Fatalf("message %s not in the inbox list", id)
	return Status{}
}

func (e *env) inboxPath(parts ...string) string {
	return filepath.Join(append([]string{e.st.Path, dirName}, parts...)...)
}

func pathExists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Lstat(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return err == nil
}

// tree is every path under root with its mode and a hash of its content,
// one line each, sorted: two equal trees are byte-identical.
func tree(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		line := rel + " " + info.Mode().String()
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			line += " " + hex.EncodeToString(sum[:8]) + " " + info.ModTime().String()
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func recipients(rs []Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.To)
	}
	sort.Strings(out)
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
