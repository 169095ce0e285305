package lifecycle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// SubagentStart refuses a scratchpad that leads out of the root, or whose
// way cannot be told (a link loop), as bad input, with or without an
// agent_id, before the ledger records anything; a start it can record,
// even of a path that is no file, is recorded.
func TestSubagentStartRefusesPathsOutOfTheRoot(t *testing.T) {
	env, _ := testEnv(t, nil)
	outside := t.TempDir()
	for link, target := range map[string]string{"escaper": outside, "looper": "looper"} {
		if err := os.Symlink(target, filepath.Join(env.Layout.Root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ agent, want string }{
		{"escaper", "outside the scratchpad root"},
		{"looper", "symlink loop"},
	} {
		for _, id := range []string{"", "a1"} {
			ev := &protocol.Event{HookEventName: protocol.SubagentStart, SessionID: "s1", AgentID: id, AgentType: tc.agent}
			_, err := SubagentStart(env, ev)
			var input *protocol.InputError
			if !errors.As(err, &input) || input.Field != "agent_type" || !strings.Contains(input.Msg, tc.want) {
				t.Errorf("%s, agent_id %q: err = %v, want bad agent_type input naming %q", tc.agent, id, err, tc.want)
			}
		}
	}
	if l := readLedger(env, "s1"); len(l.Agents) != 0 {
		t.Errorf("the ledger recorded refused starts: %+v", l.Agents)
	}
	if err := os.MkdirAll(env.Layout.File("folder-writer", env.Today()), 0o755); err != nil {
		t.Fatal(err)
	}
	ev := &protocol.Event{HookEventName: protocol.SubagentStart, SessionID: "s1", AgentID: "a2", AgentType: "folder-writer"}
	if _, err := SubagentStart(env, ev); err != nil {
		t.Fatalf("a start whose scratchpad is a folder: %v", err)
	}
	if a2 := readLedger(env, "s1").Agents["a2"]; a2 == nil || a2.Start == nil || !a2.Start.Exists || a2.Start.Size != 0 {
		t.Errorf("a start whose scratchpad is a folder was recorded as %+v, want it stamped as existing", a2)
	}
}
