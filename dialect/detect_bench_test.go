package dialect

import (
	"strings"
	"testing"
)

// Detection runs on every hook call: on a Claude Code event with a
// megabyte of tool output it must read the event's name and stop, not scan
// the output (an earlier version searched it for markers: 3.6 ms here).
func BenchmarkDetect1MiB(b *testing.B) {
	raw := []byte(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"x"},"tool_response":{"stdout":"` +
		strings.Repeat("abcdefgh ", 1<<17) + `"}}`)
	for b.Loop() {
		if Detect(raw) != Claude {
			b.Fatal("not Claude Code")
		}
	}
}
