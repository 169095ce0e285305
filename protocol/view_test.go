package protocol

import (
	"strings"
	"testing"
)

// View must not copy the event: a copy of a 50 MiB tool_response per reader
// is what put the hook over its memory target.
func TestViewDoesNotCopy(t *testing.T) {
	b := []byte(`{"hook_event_name":"PostToolUse","tool_response":"` + strings.Repeat("x", 1<<20) + `"}`)
	var got int
	allocs := testing.AllocsPerRun(10, func() { got = len(View(b).Get("tool_response").Str) })
	if got != 1<<20 {
		t.Fatalf("tool_response has %d bytes, want %d", got, 1<<20)
	}
	if allocs != 0 {
		t.Errorf("View(b).Get allocates %.0f times, want 0 (no copy of the event)", allocs)
	}
	ev, err := ParseEvent(b, "")
	if err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(10, func() { got = len(ev.Get("tool_response").Raw) }); allocs != 0 {
		t.Errorf("Event.Get allocates %.0f times, want 0", allocs)
	}
}
