package dialect

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// Every real Claude Code event must pass through untouched: taking one for
// another CLI's would change the answer's shape.
func TestDetectRealClaudeEvents(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "conformance", "events", "*.json"))
	if len(files) == 0 {
		t.Skip("../shared/conformance/events not found")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if d := Detect(raw); d != Claude {
			t.Errorf("%s: detected as %s", filepath.Base(f), d.Name)
		}
	}
}

func TestDetect(t *testing.T) {
	for raw, want := range map[string]*Dialect{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`:                             Claude,
		`{"hook_event_name":"PostToolUse","tool_response":{"stdout":"toolName turn_id"}}`: Claude, // markers inside values do not count
		`{"conversation_id":"c","hook_event_name":"preToolUse"}`:                          Cursor,
		`{"hook_event_name":"stop","status":"completed"}`:                                 Cursor,
		`{"hook_event_name":"BeforeTool","tool_name":"write_file"}`:                       Gemini,
		`{"hook_event_name":"SessionStart","source":"startup","timestamp":"x"}`:           Claude,
		`{"timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":"{}"}`:                    Copilot,
		`{"hook_event_name":"PreToolUse","turn_id":"t","model":"m"}`:                      Codex,
		`{"hook_event_name":"tool.execute.before","tool":"bash"}`:                         OpenCode,
		`{"hook_event_name":"tool_call","toolName":"bash","input":{}}`:                    Pi,
		`{"hook_event_name":"agent_end","stop_hook_active":false}`:                        Pi,
		`not json`: Claude,
	} {
		got := Detect([]byte(raw))
		if ev, err := protocol.ParseEvent([]byte(raw), ""); err == nil {
			got = got.Refine(ev)
		}
		if got != want {
			t.Errorf("%s: got %s, want %s", raw, got.Name, want.Name)
		}
	}
}

func TestExit(t *testing.T) {
	for _, c := range []struct {
		d        *Dialect
		in, want int
	}{
		{Claude, 1, 1}, {Claude, 2, 2}, {Cursor, 1, 1}, {Gemini, 0, 0},
		{Copilot, 1, 0}, {Copilot, 2, 2}, {Copilot, 0, 0}, {Codex, 1, 1}, {Pi, 1, 1}, {Pi, 2, 2},
		{OpenCode, 1, 1}, {OpenCode, 2, 2}, {OpenCode, 0, 0},
	} {
		if got := c.d.Exit(c.in, protocol.PreToolUse); got != c.want {
			t.Errorf("%s: Exit(%d) = %d, want %d", c.d.Name, c.in, got, c.want)
		}
	}
}

func answer(t *testing.T, d *Dialect, native, event string, o protocol.Output) (string, bool) {
	t.Helper()
	var out, notes bytes.Buffer
	dropped, err := d.Answer(&out, &notes, Native{Event: native}, event, o)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out.String()), dropped
}

// Context a CLI has no field for is reported dropped, so the inbox keeps
// the messages behind it for a call that can carry them.
func TestAnswerDropsOnlyWhatHasNoPlace(t *testing.T) {
	ctx := func(event string) protocol.Output { return protocol.Context(event, "hello") }
	for _, c := range []struct {
		d                   *Dialect
		native, event, want string
		dropped             bool
	}{
		{Cursor, "postToolUse", protocol.PostToolUse, `{"additional_context":"hello"}`, false},
		{Cursor, "postToolUseFailure", protocol.PostToolUseFailure, ``, true},
		{Cursor, "subagentStart", protocol.SubagentStart, ``, true},
		{Cursor, "sessionStart", protocol.SessionStart, `{"additional_context":"hello"}`, false},
		{Gemini, "AfterTool", protocol.PostToolUse, `{"hookSpecificOutput":{"additionalContext":"hello","hookEventName":"AfterTool"}}`, false},
		{Gemini, "AfterAgent", protocol.Stop, ``, true},
		{Copilot, "postToolUse", protocol.PostToolUse, `{"additionalContext":"hello"}`, false},
		{Copilot, "postToolUseFailure", protocol.PostToolUseFailure, `{"additionalContext":"hello"}`, false},
		{Copilot, "preToolUse", protocol.PreToolUse, `{"additionalContext":"hello"}`, false},
		{Codex, protocol.PostToolUse, protocol.PostToolUse, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"hello"}}`, false},
		{Pi, "tool_result", protocol.PostToolUse, `{"context":"hello"}`, false},
		{Pi, "tool_result", protocol.PostToolUseFailure, `{"context":"hello"}`, false},
		{Pi, "tool_call", protocol.PreToolUse, `{"context":"hello"}`, false},
		{Pi, "session_start", protocol.SessionStart, `{"context":"hello"}`, false},
		{Pi, "agent_end", protocol.Stop, ``, true},
		{Claude, protocol.PostToolUse, protocol.PostToolUse, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"hello"}}`, false},
	} {
		got, dropped := answer(t, c.d, c.native, c.event, ctx(c.event))
		if got != c.want || dropped != c.dropped {
			t.Errorf("%s %s: got %s (dropped %v), want %s (dropped %v)", c.d.Name, c.native, got, dropped, c.want, c.dropped)
		}
	}
}

// Defer exists only in Claude Code: elsewhere it is no opinion, never allow.
func TestDeferIsNoOpinionElsewhere(t *testing.T) {
	o := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{PermissionDecision: protocol.DecisionDefer}}
	for _, c := range []struct {
		d      *Dialect
		native string
	}{{Cursor, "preToolUse"}, {Gemini, "BeforeTool"}, {Copilot, "preToolUse"}, {Codex, protocol.PreToolUse}, {Pi, "tool_call"}} {
		if got, _ := answer(t, c.d, c.native, protocol.PreToolUse, o); got != "" {
			t.Errorf("%s: defer became %s", c.d.Name, got)
		}
	}
}

// Ask is kept where the CLI asks, denied where asking would let the call
// through unasked.
func TestAsk(t *testing.T) {
	o := protocol.AskUser("check")
	for _, c := range []struct {
		d            *Dialect
		native, want string
	}{
		{Cursor, "beforeShellExecution", "ask"}, {Cursor, "preToolUse", "deny"},
		{Copilot, "preToolUse", "ask"}, {Gemini, "BeforeTool", "deny"}, {Codex, protocol.PreToolUse, "deny"},
		{Pi, "tool_call", "block"},
	} {
		got, _ := answer(t, c.d, c.native, protocol.PreToolUse, o)
		var v map[string]any
		if err := json.Unmarshal([]byte(got), &v); err != nil {
			t.Fatalf("%s: %s", c.d.Name, got)
		}
		if !strings.Contains(got, `"`+c.want+`"`) || (c.want == "deny" && strings.Contains(got, `"ask"`)) {
			t.Errorf("%s %s: %s, want %s", c.d.Name, c.native, got, c.want)
		}
	}
}

// Cursor's stop counts follow-ups; Claude Code's says whether one is
// running.
func TestCursorLoopCount(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"hook_event_name":"stop","loop_count":0}`: false,
		`{"hook_event_name":"stop","loop_count":2}`: true,
	} {
		out, native, err := Cursor.Event([]byte(raw), protocol.Stop)
		if err != nil || native.Event != "stop" {
			t.Fatal(err, native)
		}
		ev, err := protocol.ParseEvent(out, protocol.Stop)
		if err != nil || ev.StopHookActive != want {
			t.Errorf("%s: %v %+v", raw, err, ev)
		}
	}
}

// TestEventTooDeepKeepsNativeName: an event nested past what encoding/json
// decodes still has its own event name, for the deny in the CLI's words;
// a name the dialect does not know falls back on its name for the event.
func TestEventTooDeepKeepsNativeName(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	d, err := Named("cursor")
	if err != nil {
		t.Fatal(err)
	}
	for raw, want := range map[string]string{
		`{"hook_event_name":"beforeShellExecution","command":"x","tool_input":{"a":` + deep + `}}`: "beforeShellExecution",
		`{"hook_event_name":"nonsense","tool_input":{"a":` + deep + `}}`:                           d.nativeName(protocol.PreToolUse),
	} {
		_, n, err := d.Event([]byte(raw), protocol.PreToolUse)
		if err != nil || n.Event != want {
			t.Errorf("%.50s: got %q %v, want %q", raw, n.Event, err, want)
		}
	}
}
