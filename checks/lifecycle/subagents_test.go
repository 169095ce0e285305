package lifecycle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

// TestLedgerStamps: each entry of the subagent ledger keeps the
// coordinator's scratchpad as it was when the entry was made (a start, or
// a stop whose start was not seen); a stop only adds how it ended, and a
// delegation call is counted once however often its hook runs.
func TestLedgerStamps(t *testing.T) {
	env, notes := testEnv(t, nil)
	day := env.Today()
	write := func(dir, text string) {
		t.Helper()
		p := env.Layout.File(dir, day)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(scratchpad.CoordinatorDir, "Delegated the parser.\n")
	write("researcher", "Found the grammar.\n")

	started := &protocol.Event{SessionID: "s1", AgentID: "a1", AgentType: "researcher"}
	start, err := startStamp(env, started, env.Layout.File("researcher", day))
	recordStart(env, started, "researcher", false, start, err)
	a1 := readLedger(env, "s1").Agents["a1"]
	if a1 == nil || a1.Start == nil || !a1.Start.Exists || !a1.Coordinator.Exists || a1.Day != day || a1.Type != "researcher" || a1.Dir != "researcher" || a1.Outcome != "" {
		t.Fatalf("after the start: %+v", a1)
	}
	startStamp, coordAtStart := *a1.Start, a1.Coordinator

	write(scratchpad.CoordinatorDir, "Delegated the parser, and the lexer.\n")
	recordStop(env, started, a1, "researcher", false, outcomeReleased, "its scratchpad")
	a1 = readLedger(env, "s1").Agents["a1"]
	if a1 == nil || a1.Start == nil || *a1.Start != startStamp || a1.Coordinator != coordAtStart || a1.Outcome != outcomeReleased || a1.Skipped != "its scratchpad" {
		t.Fatalf("after the stop: %+v, want the start's stamps kept", a1)
	}

	unseen := &protocol.Event{SessionID: "s1", AgentID: "a2", AgentType: "coder"}
	recordStop(env, unseen, nil, "coder", true, outcomeExempt, "")
	a2 := readLedger(env, "s1").Agents["a2"]
	if a2 == nil || a2.Start != nil || !a2.Coordinator.Exists || a2.Coordinator == coordAtStart || !a2.Exempt || a2.Outcome != outcomeExempt || a2.Day != day {
		t.Fatalf("a stop whose start was not seen: %+v, want it added with the coordinator's stamp of now", a2)
	}

	call := &protocol.Event{SessionID: "s1", ToolUseID: "toolu_1", ToolInput: json.RawMessage(`{"agent_name":"researcher"}`)}
	RecordDelegation(env, call)
	d := readLedger(env, "s1").Agents["toolu_1"]
	if d == nil || d.Type != "researcher" || d.Outcome != outcomeDone || d.Start != nil || !d.Coordinator.Exists {
		t.Fatalf("the delegation: %+v", d)
	}
	if err := updateLedger(env, "s1", func(l *ledger) bool { l.Agents["toolu_1"].Logged = true; return true }); err != nil {
		t.Fatal(err)
	}
	RecordDelegation(env, call) // the hook ran again for the same call
	l := readLedger(env, "s1")
	if d := l.Agents["toolu_1"]; d == nil || !d.Logged || len(l.Agents) != 3 {
		t.Fatalf("the same call again: %+v in %d entries, want it counted once and left as it was", d, len(l.Agents))
	}
	if notes.Len() != 0 {
		t.Errorf("notes: %s", notes.String())
	}
}
