package state

import "testing"

// BenchmarkAuditLine is one audit line's cost: the lock, the rotation and
// torn-line checks, and one append (no fsync). Every tool call that runs a
// rule pays it, the silent passes of the default guards included.
func BenchmarkAuditLine(b *testing.B) {
	d := Open(b.TempDir())
	line := map[string]any{"time": "2026-11-20T10:00:00Z", "event": "PreToolUse", "session_id": "s1", "tool": "Bash",
		"tool_use_id": "toolu_01", "tool_input": map[string]string{"command": "git status --short && go test ./..."}, "decision": "none"}
	for b.Loop() {
		if err := d.Audit(line); err != nil {
			b.Fatal(err)
		}
	}
}
