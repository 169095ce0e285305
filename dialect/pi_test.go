package dialect

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// Events as massgen-hook's pi extension hands them over (pi 0.73.1's
// tool_call, tool_result, session_start and agent_end).

func piCall(tool, input string) string {
	return `{"hook_event_name":"tool_call","session_id":"s","cwd":"/p","toolName":"` + tool + `","toolCallId":"c1","input":` + input + `}`
}

// pi's built-in tools get Claude Code's names and argument names, so the
// guards written for Read, Write, Bash... apply; a rewrite goes back in
// pi's names, inside edit's list of replacements too.
func TestPiTools(t *testing.T) {
	for _, c := range []struct {
		tool, input, wantTool, wantInput string
		rewrite, wantBack                string
	}{
		{"bash", `{"command":"ls","timeout":5}`, "Bash", `{"command":"ls","timeout":5}`,
			`{"command":"wrapped ls","timeout":5}`, `"input":{"command":"wrapped ls","timeout":5}`},
		{"read", `{"path":".env","offset":2}`, "Read", `{"file_path":".env","offset":2}`,
			`{"file_path":"a.txt"}`, `"input":{"path":"a.txt"}`},
		{"write", `{"path":".env","content":"x"}`, "Write", `{"content":"x","file_path":".env"}`,
			`{"file_path":"b","content":"y"}`, `"input":{"content":"y","path":"b"}`},
		{"edit", `{"path":"a.go","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`,
			"MultiEdit", `{"edits":[{"new_string":"b","old_string":"a"},{"new_string":"d","old_string":"c"}],"file_path":"a.go"}`,
			`{"file_path":"a.go","edits":[{"old_string":"a","new_string":"B"}]}`, `"input":{"edits":[{"newText":"B","oldText":"a"}],"path":"a.go"}`},
		{"grep", `{"pattern":"x","path":".aws","glob":"*.ini"}`, "Grep", `{"glob":"*.ini","path":".aws","pattern":"x"}`,
			`{"pattern":"y"}`, `"input":{"pattern":"y"}`},
		{"find", `{"pattern":"*.pem","path":"/"}`, "Glob", `{"path":"/","pattern":"*.pem"}`,
			`{"pattern":"*.go"}`, `"input":{"pattern":"*.go"}`},
		{"ls", `{"path":".ssh"}`, "LS", `{"path":".ssh"}`, `{"path":"."}`, `"input":{"path":"."}`},
		// Another extension's tool keeps its name and arguments.
		{"deploy", `{"target":"prod"}`, "deploy", `{"target":"prod"}`, `{"target":"dev"}`, `"input":{"target":"dev"}`},
		// A read without its path is not the shape the guards know: it
		// keeps pi's name, for the malformed-call check and the rules.
		{"read", `{"file":".env"}`, "read", `{"file":".env"}`, `{"file":"x"}`, `"input":{"file":"x"}`},
	} {
		rewrite := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{UpdatedInput: json.RawMessage(c.rewrite)}}
		m, got := answerTo(t, Pi, piCall(c.tool, c.input), protocol.PreToolUse, rewrite)
		if field(m, "tool_name") != c.wantTool || string(m["tool_input"]) != c.wantInput || field(m, "hook_event_name") != protocol.PreToolUse {
			t.Errorf("%s %s: translated to %s %s", c.tool, c.input, field(m, "tool_name"), m["tool_input"])
		}
		if field(m, "tool_use_id") != "c1" {
			t.Errorf("%s: the call id is lost: %s", c.tool, m["tool_use_id"])
		}
		if got != "{"+c.wantBack+"}" {
			t.Errorf("%s: the rewrite went back as %s, want {%s}", c.tool, got, c.wantBack)
		}
	}
}

// pi asks nobody before a call: a rewrite no rule decided on goes as the
// new input alone and runs as the agent's call would.
func TestPiRewriteGoesAlone(t *testing.T) {
	if !Pi.JudgesRewrites {
		t.Fatal("pi runs a rewritten call as it runs the agent's: its dialect must say so")
	}
	alone := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{UpdatedInput: json.RawMessage(`{"command":"ls"}`)}}
	if _, got := answerTo(t, Pi, piCall("bash", `{"command":"rm x"}`), protocol.PreToolUse, alone); got != `{"input":{"command":"ls"}}` {
		t.Errorf("a rewrite no rule decided: %s", got)
	}
}

// A deny blocks the call, and the model reads who blocked it; a rewrite
// that comes with a deny is not applied. The user's warning is in the
// answer, for the extension to show.
func TestPiBlock(t *testing.T) {
	o := protocol.Deny("no secrets")
	o.HookSpecificOutput.UpdatedInput = json.RawMessage(`{"command":"true"}`)
	o.SystemMessage = "blocked a read"
	_, got := answerTo(t, Pi, piCall("bash", `{"command":"cat .env"}`), protocol.PreToolUse, o)
	if want := `{"block":true,"reason":"Blocked by massgen-hook: no secrets","systemMessage":"blocked a read"}`; got != want {
		t.Errorf("deny: %s, want %s", got, want)
	}
}

// pi asks a person only where it has a UI (interactive or RPC mode, the
// extension's hasUI): in print and JSON mode an ask is a block, never a
// call that runs unasked.
func TestPiAsk(t *testing.T) {
	withUI := `{"hook_event_name":"tool_call","cwd":"/p","toolName":"bash","toolCallId":"c","input":{"command":"git push"},"hasUI":true}`
	_, got := answerTo(t, Pi, withUI, protocol.PreToolUse, protocol.AskUser("push?"))
	if got != `{"ask":"push?"}` {
		t.Errorf("ask with a UI: %s", got)
	}
	_, got = answerTo(t, Pi, piCall("bash", `{"command":"git push"}`), protocol.PreToolUse, protocol.AskUser("push?"))
	if !strings.HasPrefix(got, `{"block":true,"reason":"Blocked by massgen-hook: push?`) || strings.Contains(got, `"ask"`) {
		t.Errorf("ask without a UI: %s, want a block", got)
	}
}

// A tool_result is PostToolUse, or PostToolUseFailure when pi marks it
// failed (isError: a command that exited non-zero), with the result's text
// as the error the failure checks read.
func TestPiResults(t *testing.T) {
	failed := `{"hook_event_name":"tool_result","cwd":"/p","toolName":"bash","toolCallId":"c","input":{"command":"ls x"},` +
		`"content":[{"type":"text","text":"ls: x: No such file"},{"type":"text","text":"Command exited with code 2"}],"details":{},"isError":true}`
	m, _ := answerTo(t, Pi, failed, protocol.PostToolUseFailure, protocol.Output{})
	if field(m, "hook_event_name") != protocol.PostToolUseFailure || field(m, "error") != "ls: x: No such file\nCommand exited with code 2" {
		t.Errorf("failed: %s, error %q", field(m, "hook_event_name"), field(m, "error"))
	}
	var resp struct {
		IsError bool `json:"is_error"`
		Content []struct{ Text string }
	}
	if json.Unmarshal(m["tool_response"], &resp) != nil || !resp.IsError || len(resp.Content) != 2 {
		t.Errorf("failed: tool_response %s", m["tool_response"])
	}
	if _, ok := m["content"]; ok {
		t.Errorf("the content is given twice")
	}
	ok := strings.Replace(failed, `"isError":true`, `"isError":false`, 1)
	m, _ = answerTo(t, Pi, ok, protocol.PostToolUse, protocol.Output{})
	if field(m, "hook_event_name") != protocol.PostToolUse || m["error"] != nil || strings.Contains(string(m["tool_response"]), "is_error") {
		t.Errorf("succeeded: %s %s", field(m, "hook_event_name"), m["tool_response"])
	}
	// A failure handed to the success hook is refused, not judged as a
	// success.
	out, _, err := Pi.Event([]byte(failed), protocol.PostToolUse)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := protocol.ParseEvent(out, protocol.PostToolUse); err == nil {
		t.Errorf("a failed call was read as PostToolUse: %s", out)
	}
}

// A tool_result that does not say whether it failed (doctor's probe) is
// the event the hook handles.
func TestPiResultWithoutIsError(t *testing.T) {
	raw := `{"hook_event_name":"tool_result","cwd":"/p","tool_name":"Bash","tool_input":{"command":"false"},"error":"Exit code 1"}`
	for _, want := range []string{protocol.PostToolUse, protocol.PostToolUseFailure} {
		m, _ := answerTo(t, Pi, raw, want, protocol.Output{})
		if field(m, "hook_event_name") != want {
			t.Errorf("handled as %s: %s", want, field(m, "hook_event_name"))
		}
	}
}

// pi's tool_result can replace what the model reads: a rule's replacement
// becomes the result's text, and context goes after it.
func TestPiResultAnswers(t *testing.T) {
	raw := `{"hook_event_name":"tool_result","cwd":"/p","toolName":"bash","toolCallId":"c","input":{"command":"env"},"content":[{"type":"text","text":"KEY=1"}],"isError":false}`
	o := protocol.Context(protocol.PostToolUse, "note this")
	o.HookSpecificOutput.UpdatedToolOutput = json.RawMessage(`{"stdout":"[redacted]","stderr":""}`)
	_, got := answerTo(t, Pi, raw, protocol.PostToolUse, o)
	if want := `{"content":[{"text":"[redacted]","type":"text"}],"context":"note this"}`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	block := protocol.Output{Decision: "block", Reason: "stop that"}
	if _, got := answerTo(t, Pi, raw, protocol.PostToolUse, block); got != `{"context":"stop that"}` {
		t.Errorf("a PostToolUse block: %s", got)
	}
}

// session_start's reason decides the orientation: a fresh conversation
// (start, /new) gets it all; its context goes to the model's next turn.
func TestPiSessionStart(t *testing.T) {
	for reason, want := range map[string]string{"startup": "startup", "new": "startup", "resume": "resume", "reload": "resume", "fork": "resume"} {
		raw := `{"hook_event_name":"session_start","session_id":"s","cwd":"/p","reason":"` + reason + `"}`
		m, got := answerTo(t, Pi, raw, protocol.SessionStart, protocol.Context(protocol.SessionStart, "orient"))
		if field(m, "source") != want || field(m, "hook_event_name") != protocol.SessionStart {
			t.Errorf("%s: source %q", reason, field(m, "source"))
		}
		if got != `{"context":"orient"}` {
			t.Errorf("%s: %s", reason, got)
		}
	}
}

// A block at agent_end sends the agent on with the reason; a stop hook
// that failed lets pi stop even under fail_closed, as the extension would
// send the failure round again without end.
func TestPiStop(t *testing.T) {
	raw := `{"hook_event_name":"agent_end","session_id":"s","cwd":"/p","stop_hook_active":false}`
	_, got := answerTo(t, Pi, raw, protocol.Stop, protocol.Output{Decision: "block", Reason: "write the log"})
	if got != `{"block":true,"reason":"write the log"}` {
		t.Errorf("stop block: %s", got)
	}
	if got := Pi.Exit(protocol.ExitBlock, protocol.Stop); got != protocol.ExitError {
		t.Errorf("a failed stop hook exits %d, want %d", got, protocol.ExitError)
	}
	if got := Pi.Exit(protocol.ExitBlock, protocol.PreToolUse); got != protocol.ExitBlock {
		t.Errorf("a failed pre-tool-use hook under fail_closed exits %d, want %d", got, protocol.ExitBlock)
	}
}
