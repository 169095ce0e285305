package hookenv

import (
	"bytes"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// TestNoticesSettle: a notice taken by a main-thread call whose answer
// could not be written goes back, ahead of one queued since, and the next
// call carries both, in order; an answer written consumes them. A
// subagent's call and a dry run (explain) take nothing.
func TestNoticesSettle(t *testing.T) {
	var notes bytes.Buffer
	env := &Env{State: state.Open(t.TempDir()), Notes: &notes}
	main := &protocol.Event{HookEventName: protocol.PostToolUse, SessionID: "s1", ToolName: "Agent"}
	sub := &protocol.Event{HookEventName: protocol.PostToolUse, SessionID: "s1", AgentID: "a1", ToolName: "Bash"}
	if err := env.AddNotice("s1", "first"); err != nil {
		t.Fatal(err)
	}
	if text, _ := env.TakeNotices(sub); text != "" {
		t.Errorf("a subagent's call took %q", text)
	}
	env.DryRun = true
	if text, _ := env.TakeNotices(main); text != "" {
		t.Errorf("a dry run took %q", text)
	}
	env.DryRun = false

	out := env.WithNotices(main, protocol.Output{})
	if out.HookSpecificOutput == nil || out.HookSpecificOutput.AdditionalContext != "first" || out.HookSpecificOutput.HookEventName != protocol.PostToolUse {
		t.Fatalf("first answer %+v", out.HookSpecificOutput)
	}
	if err := env.AddNotice("s1", "second"); err != nil {
		t.Fatal(err)
	}
	env.Settle(false) // the answer was not written
	out = env.WithNotices(main, protocol.Context(protocol.PostToolUse, "inbox message"))
	if got, want := out.HookSpecificOutput.AdditionalContext, "first\n\nsecond\n\ninbox message"; got != want {
		t.Errorf("after a failed answer: %q, want %q", got, want)
	}
	env.Settle(true)
	if text, _ := env.TakeNotices(main); text != "" {
		t.Errorf("delivered notices came back: %q", text)
	}
	if strings.Contains(notes.String(), "massgen-hook") {
		t.Errorf("notes: %s", notes.String())
	}
}

// A notice already waiting is not queued twice: the same subagent let go
// again before the main thread's next call (the same text) tells it nothing
// new, and the record must not grow with every release. A notice put back
// after a failed answer is not doubled by the same one queued meanwhile.
func TestNoticesQueuedOnce(t *testing.T) {
	env := &Env{State: state.Open(t.TempDir()), Notes: &bytes.Buffer{}}
	main := &protocol.Event{HookEventName: protocol.PostToolUse, SessionID: "s1", ToolName: "Agent"}
	for _, text := range []string{"a2 let go", "a3 let go", "a2 let go", "a3 let go"} {
		if err := env.AddNotice("s1", text); err != nil {
			t.Fatal(err)
		}
	}
	out := env.WithNotices(main, protocol.Output{})
	if got, want := out.HookSpecificOutput.AdditionalContext, "a2 let go\n\na3 let go"; got != want {
		t.Fatalf("waiting notices %q, want %q", got, want)
	}
	if err := env.AddNotice("s1", "a3 let go"); err != nil {
		t.Fatal(err)
	}
	env.Settle(false)
	out = env.WithNotices(main, protocol.Output{})
	if got, want := out.HookSpecificOutput.AdditionalContext, "a2 let go\n\na3 let go"; got != want {
		t.Errorf("after a failed answer: %q, want %q", got, want)
	}
}
