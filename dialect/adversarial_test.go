package dialect

// Adversarial tests of the dialects: documented payloads in every variant
// the research notes (/tmp/mine/dialects.md) list, and every answer checked
// against the fields the CLI documents.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/internal/testrace"
	"github.com/massgen/massgen-hook/protocol"
)

func translate(t *testing.T, d *Dialect, raw, want string) (map[string]json.RawMessage, string) {
	t.Helper()
	out, native, err := d.Event([]byte(raw), want)
	if err != nil {
		t.Fatalf("%s %s: %v", d.Name, raw[:min(len(raw), 200)], err)
	}
	if _, err := protocol.ParseEvent(out, want); err != nil {
		t.Fatalf("%s: translated event does not parse as %s: %v\n%s", d.Name, want, err, out[:min(len(out), 500)])
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m, native.Event
}

func field(m map[string]json.RawMessage, path ...string) string {
	cur := m
	for i, p := range path {
		raw, ok := cur[p]
		if !ok {
			return ""
		}
		if i == len(path)-1 {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				return s
			}
			return string(raw)
		}
		cur = nil
		if json.Unmarshal(raw, &cur) != nil {
			return ""
		}
	}
	return ""
}

// Copilot's toolArgs come as a JSON string (P3) or an object (P1/P2, SDK):
// both must reach the guards as the same object.
func TestAdvCopilotToolArgsStringOrObject(t *testing.T) {
	for _, raw := range []string{
		`{"timestamp":1704614600000,"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\",\"description\":\"Clean\"}"}`,
		`{"timestamp":1704614600000,"cwd":"/p","toolName":"bash","toolArgs":{"command":"rm -rf dist","description":"Clean"}}`,
		`{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":{"command":"rm -rf dist","description":"Clean"},"extra":{"keep":true}}`,
	} {
		m, native := translate(t, Copilot, raw, protocol.PreToolUse)
		if native != "preToolUse" || field(m, "tool_name") != "Bash" || field(m, "tool_input", "command") != "rm -rf dist" {
			t.Errorf("%s → native %s, %v", raw, native, m)
		}
		for _, gone := range []string{"toolName", "toolArgs"} {
			if _, ok := m[gone]; ok {
				t.Errorf("%s left in %s", gone, raw)
			}
		}
		if strings.Contains(raw, "extra") && string(m["extra"]) != `{"keep":true}` {
			t.Errorf("unknown field not kept: %v", m)
		}
	}
	// A toolArgs string that is not JSON stays a string: the malformed
	// tool call check judges it.
	m, _ := translate(t, Copilot, `{"toolName":"bash","toolArgs":"not json"}`, protocol.PreToolUse)
	if string(m["tool_input"]) != `"not json"` {
		t.Errorf("tool_input = %s", m["tool_input"])
	}
}

// Regression (found by adversarial tests): Copilot's subagentStop carries agentId, agentType AND agentName
// (dialects.md §4). copilotIn renames them in a loop over a Go map, whose
// order is random, and rename keeps the first value to arrive: agent_type
// is sometimes agentType, sometimes agentName. agent_type picks the agent
// whose rules and scratchpad apply.
// Expected: the same event always translates to the same agent_type.
// Actual: it varies from run to run.
func TestRegression_CopilotAgentTypeIsRandom(t *testing.T) {
	raw := `{"sessionId":"s","timestamp":1,"cwd":"/p","transcriptPath":"/t","agentId":"a1","agentType":"general-purpose","agentName":"reviewer","response":"done","stopReason":"end_turn"}`
	seen := map[string]int{}
	for range 200 {
		m, _ := translate(t, Copilot, raw, protocol.SubagentStop)
		seen[field(m, "agent_type")]++
	}
	if len(seen) != 1 {
		t.Errorf("agent_type varies between runs of the same event: %v", seen)
	}
}

// Cursor's MCP calls carry tool_input and result_json as JSON strings.
func TestAdvCursorMCPStrings(t *testing.T) {
	m, native := translate(t, Cursor, `{"conversation_id":"c","hook_event_name":"beforeMCPExecution","tool_name":"fs_write","tool_input":"{\"path\":\"/x\",\"n\":1}","url":"http://s"}`, protocol.PreToolUse)
	if native != "beforeMCPExecution" || field(m, "tool_input", "path") != "/x" || field(m, "url") != "http://s" {
		t.Errorf("before: %v", m)
	}
	m, _ = translate(t, Cursor, `{"conversation_id":"c","hook_event_name":"afterMCPExecution","tool_name":"fs_write","tool_input":"{\"path\":\"/x\"}","result_json":"{\"ok\":true}","duration":3}`, protocol.PostToolUse)
	if field(m, "tool_response", "ok") != "true" || field(m, "tool_input", "path") != "/x" {
		t.Errorf("after: %v", m)
	}
	// preToolUse's tool_input is an object; postToolUse's tool_output a
	// JSON string.
	m, _ = translate(t, Cursor, `{"conversation_id":"c","hook_event_name":"postToolUse","tool_name":"Shell","tool_input":{"command":"npm test"},"tool_output":"{\"exitCode\":0,\"stdout\":\"All tests passed\"}","duration":5432}`, protocol.PostToolUse)
	if field(m, "tool_name") != "Bash" || field(m, "tool_response", "stdout") != "All tests passed" {
		t.Errorf("postToolUse: %v", m)
	}
}

// A megabyte of tool output crosses every dialect whole, with the fields
// after it.
//
// It starts no goroutine but itself, sharing nothing, and dialect none:
// it skips itself under -race, which made it ten times slower, and make
// test runs it without.
func TestAdvHugeOutput(t *testing.T) {
	t.Parallel()
	testrace.Skip(t)
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	quoted, _ := json.Marshal(big)
	doubly, _ := json.Marshal(`{"stdout":` + string(quoted) + `}`)
	for _, c := range []struct {
		d         *Dialect
		raw, path string
	}{
		{Cursor, `{"conversation_id":"c","hook_event_name":"postToolUse","tool_name":"Shell","tool_input":{"command":"x"},"tool_output":` + string(doubly) + `,"tool_use_id":"after"}`, "stdout"},
		{Gemini, `{"hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{"file_path":"x"},"tool_response":{"llmContent":` + string(quoted) + `},"tool_use_id":"after"}`, "llmContent"},
		{Copilot, `{"toolName":"view","toolArgs":{"path":"x"},"toolResult":{"resultType":"success","textResultForLlm":` + string(quoted) + `},"tool_use_id":"after"}`, "textResultForLlm"},
		{Cursor, `{"conversation_id":"c","hook_event_name":"afterShellExecution","command":"x","output":` + string(quoted) + `,"tool_use_id":"after"}`, "output"},
	} {
		m, _ := translate(t, c.d, c.raw, protocol.PostToolUse)
		if field(m, "tool_response", c.path) != big || field(m, "tool_use_id") != "after" {
			t.Errorf("%s: the output or the field after it was lost", c.d.Name)
		}
	}
	// Gemini's older AfterTool sample: tool_response is a plain string.
	m, _ := translate(t, Gemini, `{"hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{"file_path":"..."},"tool_response":"file contents..."}`, protocol.PostToolUse)
	if field(m, "tool_response") != "file contents..." || field(m, "tool_name") != "Read" {
		t.Errorf("gemini string response: %v", m)
	}
}

// An event of another hook is refused, never answered in the wrong shape.
func TestAdvWrongHook(t *testing.T) {
	for _, c := range []struct {
		d    *Dialect
		raw  string
		want string
	}{
		{Cursor, `{"conversation_id":"c","hook_event_name":"stop","status":"completed","loop_count":0}`, protocol.PreToolUse},
		{Gemini, `{"hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r"}`, protocol.PreToolUse},
		{Cursor, `{"conversation_id":"c","hook_event_name":"workspaceOpen"}`, protocol.SessionStart},
		{Gemini, `{"hook_event_name":"BeforeModel","llm_request":{}}`, protocol.PreToolUse},
	} {
		out, _, err := c.d.Event([]byte(c.raw), c.want)
		if err == nil {
			if _, err = protocol.ParseEvent(out, c.want); err == nil {
				t.Errorf("%s %s accepted by the %s hook", c.d.Name, c.raw, c.want)
			}
		}
	}
}

// documented lists the answer fields each CLI reads, per native event
// (dialects.md). An answer with anything else leaks Claude Code's protocol.
var documented = map[string]map[string][]string{
	"cursor": {
		"preToolUse":           {"permission", "user_message", "agent_message", "updated_input", "continue"},
		"beforeShellExecution": {"permission", "user_message", "agent_message", "continue"},
		"beforeMCPExecution":   {"permission", "user_message", "agent_message", "continue"},
		// agent_message is documented for the other gates only; Cursor
		// ignores it here (noted, harmless).
		"beforeReadFile":     {"permission", "user_message", "agent_message", "continue"},
		"postToolUse":        {"updated_mcp_tool_output", "additional_context", "continue"},
		"afterMCPExecution":  {"additional_context", "continue"},
		"sessionStart":       {"env", "additional_context", "continue", "user_message"},
		"stop":               {"followup_message", "continue"},
		"subagentStop":       {"followup_message", "continue"},
		"postToolUseFailure": {"continue"},
		"subagentStart":      {"permission", "user_message", "continue"},
	},
	"copilot": {
		"preToolUse":         {"permissionDecision", "permissionDecisionReason", "modifiedArgs", "additionalContext"},
		"postToolUseFailure": {"additionalContext"},
		"postToolUse":        {"modifiedResult", "additionalContext"},
		"agentStop":          {"decision", "reason"},
		"subagentStop":       {"decision", "reason", "modifiedResponse"},
		"sessionStart":       {"additionalContext"},
		"subagentStart":      {"additionalContext"},
	},
	"gemini": {
		"BeforeTool":   {"systemMessage", "suppressOutput", "continue", "stopReason", "decision", "reason", "hookSpecificOutput"},
		"AfterTool":    {"systemMessage", "suppressOutput", "continue", "stopReason", "decision", "reason", "hookSpecificOutput"},
		"AfterAgent":   {"systemMessage", "suppressOutput", "continue", "stopReason", "decision", "reason", "hookSpecificOutput"},
		"SessionStart": {"systemMessage", "suppressOutput", "continue", "stopReason", "decision", "reason", "hookSpecificOutput"},
	},
	"codex": {
		protocol.PreToolUse:  {"systemMessage", "decision", "reason", "hookSpecificOutput"},
		protocol.PostToolUse: {"continue", "stopReason", "systemMessage", "decision", "reason", "hookSpecificOutput"},
		// Stop: Codex documents no hookSpecificOutput, but neither does
		// Claude Code and the stop hook never gives context: not tested.
	},
}

// outputs are Claude Code answers of every kind a hook gives.
func outputs(event string) []protocol.Output {
	f := false
	upd := json.RawMessage(`{"command":"npm ci"}`)
	out := []protocol.Output{
		protocol.Deny("no"), protocol.AskUser("check"), protocol.Context(event, "ctx"), protocol.Block("again"),
		{SystemMessage: "warn"}, {Continue: &f, StopReason: "halt"}, {SuppressOutput: true},
		{HookSpecificOutput: &protocol.HookSpecific{PermissionDecision: protocol.DecisionAllow, UpdatedInput: upd}},
		{HookSpecificOutput: &protocol.HookSpecific{PermissionDecision: protocol.DecisionAsk, PermissionDecisionReason: "r", UpdatedInput: upd}, SystemMessage: "w"},
		{HookSpecificOutput: &protocol.HookSpecific{UpdatedToolOutput: json.RawMessage(`"new"`), AdditionalContext: "c"}},
		{Decision: "block", Reason: "r", HookSpecificOutput: &protocol.HookSpecific{AdditionalContext: "c"}},
	}
	return out
}

func TestAdvAnswersUseOnlyDocumentedFields(t *testing.T) {
	for name, natives := range documented {
		d, _ := Named(name)
		for native, fields := range natives {
			event, _ := d.events.get(native)
			for i, o := range outputs(event) {
				if o.Validate(event) != nil {
					continue // not an answer this event can give
				}
				var w, notes bytes.Buffer
				if _, err := d.Answer(&w, &notes, Native{Event: native}, event, o); err != nil {
					continue
				}
				body := bytes.TrimSpace(w.Bytes())
				if len(body) == 0 {
					continue
				}
				var m map[string]json.RawMessage
				if err := json.Unmarshal(body, &m); err != nil {
					t.Errorf("%s %s #%d: not one JSON object: %s", name, native, i, body)
					continue
				}
				for k := range m {
					if !slices.Contains(fields, k) {
						t.Errorf("%s %s #%d: field %q is not in the CLI's answer: %s", name, native, i, k, body)
					}
				}
				if name == "copilot" && native == "preToolUse" && field(m, "permissionDecision") == "deny" && field(m, "permissionDecisionReason") == "" {
					t.Errorf("copilot deny without permissionDecisionReason (documented as required): %s", body)
				}
				if h, ok := m["hookSpecificOutput"]; ok && name == "gemini" && !bytes.Contains(h, []byte(`"hookEventName":"`+native+`"`)) {
					t.Errorf("gemini %s: hookSpecificOutput names another event: %s", native, body)
				}
				if bytes.Contains(body, []byte(`"ask"`)) && !(name == "copilot" || native == "beforeShellExecution" || native == "beforeMCPExecution") {
					t.Errorf("%s %s: ask where the CLI cannot ask: %s", name, native, body)
				}
			}
		}
	}
}

// Cursor's documented per-event samples omit the common fields, the event
// name with them. With --dialect cursor, an event without hook_event_name
// is taken to be the alphabetically first Cursor name for the hook's event.
// For pre-tool-use that is beforeMCPExecution: a preToolUse Shell call
// (C1's sample) is then not mapped to Bash, and the guards for Bash never
// see it; for post-tool-use it is afterFileEdit, which rewrites the call as
// an Edit of "" and drops the real input.
// Expected: a Shell call reaches the guards as Bash.
// Actual: tool_name stays "Shell".
func TestRegression_CursorEventWithoutNameIsTakenForMCP(t *testing.T) {
	m, native := translate(t, Cursor, `{"tool_name":"Shell","tool_input":{"command":"rm -rf /","working_directory":"/project"},"tool_use_id":"abc123","cwd":"/project"}`, protocol.PreToolUse)
	if field(m, "tool_name") != "Bash" {
		t.Errorf("taken as %s: tool_name %q, want Bash", native, field(m, "tool_name"))
	}
	m, native = translate(t, Cursor, `{"tool_name":"Shell","tool_input":{"command":"npm test"},"tool_output":"{\"exitCode\":0}","tool_use_id":"abc123","cwd":"/project"}`, protocol.PostToolUse)
	if field(m, "tool_name") != "Bash" || field(m, "tool_input", "command") != "npm test" {
		raw, _ := json.Marshal(m)
		t.Errorf("taken as %s: %s", native, raw)
	}
}

// Regression (found by a red team): a tool input that holds both the CLI's
// own argument and Claude Code's name for it was judged by the Claude
// Code name, which the CLI does not read: Copilot's view of .env with an
// extra "file_path": "ok.txt" was judged as a read of ok.txt. The CLI's
// own argument is what it uses, so it is what the guards see.
func TestRegression_CLIArgumentWinsOverClaudeName(t *testing.T) {
	for _, tc := range []struct {
		d    *Dialect
		raw  string
		at   string // the judged field in tool_input, as a gjson path
		want string
	}{
		{Copilot, `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"view","toolArgs":"{\"path\": \"/p/.env\", \"file_path\": \"/p/ok.txt\"}"}`,
			"file_path", "/p/.env"},
		{Pi, `{"hook_event_name":"tool_call","session_id":"s","cwd":"/p","toolName":"read","toolCallId":"c","input":{"path":"/p/.env","file_path":"/p/ok.txt"}}`,
			"file_path", "/p/.env"},
		{OpenCode, `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/p","tool":"read","call_id":"c","args":{"filePath":"/p/.env","file_path":"/p/ok.txt"}}`,
			"file_path", "/p/.env"},
		{Gemini, `{"hook_event_name":"BeforeTool","session_id":"s","cwd":"/p","tool_name":"grep_search","tool_input":{"pattern":"SECRET","dir_path":"/p/.env","path":"/p/ok.txt"}}`,
			"path", "/p/.env"},
		{Pi, `{"hook_event_name":"tool_call","session_id":"s","cwd":"/p","toolName":"edit","toolCallId":"c","input":{"path":"/p/a.txt","edits":[{"oldText":"x","newText":"SECRET","new_string":"decoy"}]}}`,
			"edits.0.new_string", "SECRET"},
	} {
		m, _ := translate(t, tc.d, tc.raw, protocol.PreToolUse)
		if got := gjson.GetBytes(m["tool_input"], tc.at).Str; got != tc.want {
			t.Errorf("%s: tool_input.%s = %q, want the CLI's own argument %q\n%s", tc.d.Name, tc.at, got, tc.want, m["tool_input"])
		}
	}
}
