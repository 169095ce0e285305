package codextrust

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSessionSandboxIsTheLatestTurnContexts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rollout := write("rollout.jsonl", `{"type":"session_meta","payload":{"cwd":"/p"}}
{"type":"turn_context","payload":{"approval_policy":"never","sandbox_policy":{"type":"workspace-write"},"permission_profile":{"type":"managed"}}}
{"type":"response_item","payload":{"type":"message"}}
not json
{"type":"turn_context","payload":{"approval_policy":"never","sandbox_policy":{"type":"danger-full-access"},"permission_profile":{"type":"disabled"}}}
`)
	if mode, ok := SessionSandbox(rollout); !ok || mode != NoSandbox {
		t.Errorf("got %q, %v; want %q, true", mode, ok, NoSandbox)
	}
	early := write("early.jsonl", `{"type":"session_meta","payload":{"cwd":"/p"}}`+"\n")
	if mode, ok := SessionSandbox(early); ok {
		t.Errorf("a transcript with no turn context gave %q", mode)
	}
	if mode, ok := SessionSandbox(filepath.Join(dir, "missing.jsonl")); ok {
		t.Errorf("a missing transcript gave %q", mode)
	}
}
