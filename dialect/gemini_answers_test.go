package dialect

import (
	"encoding/json"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// Gemini CLI 0.61.0 runs BeforeTool before its own permission check, and
// that check judges the input a hook rewrote: the engine sends a rewrite
// no rule decided without a decision (JudgesRewrites), and it goes to
// Gemini as the rewritten input alone. An ask a rule made is still a deny
// (-p has nobody to ask).
func TestGeminiRewriteGoesAlone(t *testing.T) {
	if !Gemini.JudgesRewrites {
		t.Fatal("Gemini CLI judges the rewritten call itself: its dialect must say so")
	}
	alone := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{
		UpdatedInput: json.RawMessage(`{"command":"ls","dir_path":"src"}`)}}
	got, _ := answer(t, Gemini, "BeforeTool", protocol.PreToolUse, alone)
	if want := `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls","dir_path":"src"}}}`; got != want {
		t.Errorf("a rewrite no rule decided: %s, want %s", got, want)
	}

	asked := alone
	h := *alone.HookSpecificOutput
	h.PermissionDecision, h.PermissionDecisionReason = protocol.DecisionAsk, "check this"
	asked.HookSpecificOutput = &h
	got, _ = answer(t, Gemini, "BeforeTool", protocol.PreToolUse, asked)
	var v struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(got), &v); err != nil || v.Decision != "deny" {
		t.Errorf("a rule's own ask with a rewrite: %s, want a deny", got)
	}
}

// A failed call reaches the hooks as failed (tool_response.is_error), as
// the retry guard reads failures: Gemini CLI reports a tool's failure with
// an error object, and a shell command's non-zero exit only in the text
// for the model.
func TestGeminiFailedCalls(t *testing.T) {
	shell := func(content string) string {
		b, _ := json.Marshal(content)
		return `{"hook_event_name":"AfterTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls x"},` +
			`"tool_response":{"llmContent":` + string(b) + `,"returnDisplay":"x"}}`
	}
	const wrapped = "<untrusted_context>\nOutput: ls: cannot access 'x': No such file or directory\nExit Code: 2\nProcess Group PGID: 81\n</untrusted_context>"
	for _, c := range []struct {
		name, raw, err string // err "" : not failed
	}{
		{"exit code", shell(wrapped), "Output: ls: cannot access 'x': No such file or directory\nExit Code: 2\nProcess Group PGID: 81"},
		{"exit code, input rewritten by a hook", shell(wrapped + "\n\n[System] Tool input parameters (command) were modified by a hook before execution."),
			"Output: ls: cannot access 'x': No such file or directory\nExit Code: 2\nProcess Group PGID: 81"},
		{"signal", shell("Output: (empty)\nSignal: SIGKILL\nProcess Group PGID: 9"), "Output: (empty)\nSignal: SIGKILL\nProcess Group PGID: 9"},
		{"success", shell("<untrusted_context>\nOutput: fine\nProcess Group PGID: 81\n</untrusted_context>"), ""},
		// The command's own output is not the trailer Gemini CLI adds.
		{"exit code in the output", shell("Output: Exit Code: 2\nall good\nProcess Group PGID: 81"), ""},
		{"error object", `{"hook_event_name":"AfterTool","cwd":"/p","tool_name":"read_file","tool_input":{"file_path":"x"},` +
			`"tool_response":{"llmContent":"File not found","returnDisplay":"File not found","error":{"message":"File not found: /p/x","type":"file_not_found"}}}`, "keep"},
		{"null error", `{"hook_event_name":"AfterTool","cwd":"/p","tool_name":"read_file","tool_input":{"file_path":"x"},` +
			`"tool_response":{"llmContent":"text","returnDisplay":"text","error":null}}`, ""},
	} {
		m, _ := answerTo(t, Gemini, c.raw, protocol.PostToolUse, protocol.Output{})
		var resp struct {
			IsError bool            `json:"is_error"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(m["tool_response"], &resp); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		switch c.err {
		case "":
			if resp.IsError {
				t.Errorf("%s: marked failed: %s", c.name, m["tool_response"])
			}
		case "keep":
			if !resp.IsError || string(resp.Error) != `{"message":"File not found: /p/x","type":"file_not_found"}` {
				t.Errorf("%s: %s", c.name, m["tool_response"])
			}
		default:
			var msg string
			if !resp.IsError || json.Unmarshal(resp.Error, &msg) != nil || msg != c.err {
				t.Errorf("%s: %s, want the error %q", c.name, m["tool_response"], c.err)
			}
		}
	}
	// BeforeTool has no response to read.
	m, _ := answerTo(t, Gemini, `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, protocol.PreToolUse, protocol.Output{})
	if _, ok := m["tool_response"]; ok {
		t.Errorf("BeforeTool got a tool_response: %s", m["tool_response"])
	}
}
