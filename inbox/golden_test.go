package inbox

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// TestPeerAnswersGolden pins, byte for byte, the peer answers two readers
// of a four-agent roster get, as MassGen renders them: roster ids shared
// by both readers, each answer's label, the update header and the
// ANSWER LABEL UPDATES block, the 500-character cut, the recipient's own
// copy of the workspace, and the text left as written. Run with -update
// to rewrite the golden file after a deliberate change.
func TestPeerAnswersGolden(t *testing.T) {
	e := newEnv(t)
	e.ib.Roster = []string{"agent_d", "agent_b", "agent_c", "agent_a"}
	ws := filepath.Join(e.project, "work", "agent_a")
	writeFile(t, filepath.Join(ws, "schema.sql"), "create table users (id int);\n")
	long := "agent_c's plan, which builds on agent_a's: " + strings.Repeat("use PostgreSQL with one schema per tenant. ", 12)
	e.send(Draft{Source: Peer, From: "agent_c", Text: long}, t0)
	e.send(Draft{Source: Peer, From: "agent_a", Workspace: ws, Text: "Schema in " + ws + "/schema.sql; agent_c's tenancy plan is sound."}, t0.Add(time.Second))

	var out strings.Builder
	read := func(title, reader string, at time.Duration) {
		b := e.take(e.ib, reader, "Bash", t0.Add(at), 8000)
		ps := b.Parts()
		if len(ps) != 1 {
			t.Fatalf("%s: %d parts, want 1: %q", title, len(ps), ps)
		}
		out.WriteString("=== " + title + " (" + ps[0].Strategy + ") ===\n" + ps[0].Text + "\n\n")
		b.Settle(true)
	}
	read("agent_b, first tool call", "agent_b", time.Minute)
	e.send(Draft{Source: Peer, From: "agent_c", Text: "Revised: agent_c now keeps one schema for all tenants."}, t0.Add(2*time.Minute))
	read("agent_b, next tool call", "agent_b", 3*time.Minute)
	read("agent_d, first tool call", "agent_d", 4*time.Minute)

	got := strings.ReplaceAll(out.String(), e.project, "$PROJECT")
	path := filepath.Join("testdata", "peer_answers.golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("peer answers differ from %s (run with -update after a deliberate change):\n%s", path, got)
	}
}
