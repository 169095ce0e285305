package dialect

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// Tests written from the payloads Gemini CLI 0.61.0, Codex 0.169.0 and
// Copilot CLI 1.0.102 really sent, and from what each does with an answer.

// rewrite is a PreToolUse answer that rewrites the input to in.
func rewrite(in string) protocol.Output {
	return protocol.Output{HookSpecificOutput: &protocol.HookSpecific{
		PermissionDecision: protocol.DecisionAsk, PermissionDecisionReason: "r", UpdatedInput: json.RawMessage(in)}}
}

// answerTo translates raw and answers o to it, as the hook would.
func answerTo(t *testing.T, d *Dialect, raw, event string, o protocol.Output) (translated map[string]json.RawMessage, answer string) {
	t.Helper()
	out, n, err := d.Event([]byte(raw), event)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &translated); err != nil {
		t.Fatal(err)
	}
	var w, notes bytes.Buffer
	if _, err := d.Answer(&w, &notes, n, event, o); err != nil {
		t.Fatal(err)
	}
	return translated, strings.TrimSpace(w.String())
}

// Gemini's tools get Claude Code's names where their arguments are Claude
// Code's; a rewrite goes back with Gemini's argument names.
func TestGeminiTools(t *testing.T) {
	for _, c := range []struct {
		raw, tool, input, answer string
	}{
		{`{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"grep_search","tool_input":{"pattern":"x","dir_path":".env"}}`,
			"Grep", `{"path":".env","pattern":"x"}`, `"tool_input":{"dir_path":"src","pattern":"y"}`},
		{`{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"glob","tool_input":{"pattern":"*.go","dir_path":"src"}}`,
			"Glob", `{"path":"src","pattern":"*.go"}`, `"tool_input":{"dir_path":"src","pattern":"y"}`},
		{`{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"read_file","tool_input":{"file_path":".netrc"}}`,
			"Read", `{"file_path":".netrc"}`, `"tool_input":{"path":"src","pattern":"y"}`},
		// Arguments unlike Claude Code's: the tool keeps its name.
		{`{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"web_fetch","tool_input":{"prompt":"Summarize http://x"}}`,
			"web_fetch", `{"prompt":"Summarize http://x"}`, `"tool_input":{"path":"src","pattern":"y"}`},
		{`{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"write_todos","tool_input":{"todos":[]}}`,
			"write_todos", `{"todos":[]}`, `"tool_input":{"path":"src","pattern":"y"}`},
		{`{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"invoke_agent","tool_input":{"agent_name":"a","prompt":"p"}}`,
			"invoke_agent", `{"agent_name":"a","prompt":"p"}`, `"tool_input":{"path":"src","pattern":"y"}`},
	} {
		m, got := answerTo(t, Gemini, c.raw, protocol.PreToolUse, rewrite(`{"path":"src","pattern":"y"}`))
		if field(m, "tool_name") != c.tool || string(m["tool_input"]) != c.input {
			t.Errorf("%s: translated to %s %s, want %s %s", c.raw, field(m, "tool_name"), m["tool_input"], c.tool, c.input)
		}
		if !strings.Contains(got, c.answer) {
			t.Errorf("%s: answer %s, want %s in it", c.raw, got, c.answer)
		}
	}
}

// run_shell_command runs in its dir_path, relative to the project (the
// event's cwd): that is the cwd its command is judged from.
func TestGeminiShellDir(t *testing.T) {
	for dir, want := range map[string]string{
		`,"dir_path":".aws"`:        "/p/.aws",
		`,"dir_path":"a/../b"`:      "/p/b",
		`,"dir_path":"/elsewhere/"`: "/elsewhere",
		`,"dir_path":""`:            "/p",
		``:                          "/p",
	} {
		raw := `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"cat credentials"` + dir + `}}`
		m, _ := answerTo(t, Gemini, raw, protocol.PreToolUse, protocol.Output{})
		if field(m, "cwd") != want || field(m, "tool_name") != "Bash" {
			t.Errorf("%s: cwd %s (%s), want %s", dir, field(m, "cwd"), field(m, "tool_name"), want)
		}
	}
	// A relative cwd gives nothing to resolve against: left alone.
	m, _ := answerTo(t, Gemini, `{"hook_event_name":"BeforeTool","cwd":"p","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"x"}}`, protocol.PreToolUse, protocol.Output{})
	if field(m, "cwd") != "p" {
		t.Errorf("relative cwd became %s", field(m, "cwd"))
	}
}

// Gemini CLI HTML-escapes context: massgen-hook's frames are taken off.
func TestGeminiContextWithoutMarkup(t *testing.T) {
	ctx := "<system-reminder>\n[Human Input]: hi\n</system-reminder>\n\nplain <b>kept</b>"
	for native, event := range map[string]string{"AfterTool": protocol.PostToolUse, "SessionStart": protocol.SessionStart} {
		got, _ := answer(t, Gemini, native, event, protocol.Context(event, ctx))
		if !strings.Contains(got, `"additionalContext":"[Human Input]: hi\n\nplain <b>kept</b>"`) {
			t.Errorf("%s: %s", native, got)
		}
	}
}

// Gemini CLI and Codex take no updatedToolOutput, but each hands the model
// a reason in place of the tool's result: Gemini CLI an AfterTool deny's
// ({"error": reason}), Codex a PostToolUse block's. A replacement goes that
// way, as the text the CLI would show (a shell result's output; anything
// else as given), before a rule's own reason; no warning, since the model
// never sees the original.
func TestReplacedOutputAsTheReason(t *testing.T) {
	for _, c := range []struct {
		d             *Dialect
		native, avoid string
		decision      string
		replacement   string
		block, reason string
	}{
		{Gemini, "AfterTool", "tool_output", "deny", `{"stdout":"x [hidden]","stderr":""}`, "", "x [hidden]"},
		{Codex, protocol.PostToolUse, "updatedToolOutput", "block", `{"stdout":"x [hidden]"}`, "", "x [hidden]"},
		{Codex, protocol.PostToolUse, "updatedToolOutput", "block", `"plain text"`, "", "plain text"},
		{Gemini, "AfterTool", "tool_output", "deny", `{"content":"y"}`, "", `{\"content\":\"y\"}`},
		{Codex, protocol.PostToolUse, "updatedToolOutput", "block", `{"stdout":"out","stderr":"err"}`, "look again", `out\nerr\n\nlook again`},
	} {
		o := protocol.Output{Decision: "", HookSpecificOutput: &protocol.HookSpecific{UpdatedToolOutput: json.RawMessage(c.replacement)}}
		if c.block != "" {
			o.Decision, o.Reason = "block", c.block
		}
		got, dropped := answer(t, c.d, c.native, protocol.PostToolUse, o)
		if dropped || strings.Contains(got, c.avoid) || strings.Contains(got, "systemMessage") ||
			!strings.Contains(got, `"decision":"`+c.decision+`"`) || !strings.Contains(got, `"reason":"`+c.reason+`"`) {
			t.Errorf("%s %s: %s (dropped %v); want reason %s", c.d.Name, c.replacement, got, dropped, c.reason)
		}
	}
}

// Codex rejects a plain allow (and a reason without a decision): silence
// says allow. An allow with a rewrite is Codex's own way to rewrite.
func TestCodexAllow(t *testing.T) {
	allow := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{PermissionDecision: protocol.DecisionAllow, PermissionDecisionReason: "fine"}}
	if got, _ := answer(t, Codex, protocol.PreToolUse, protocol.PreToolUse, allow); got != "" {
		t.Errorf("plain allow: %s", got)
	}
	allow.HookSpecificOutput.AdditionalContext = "note"
	if got, _ := answer(t, Codex, protocol.PreToolUse, protocol.PreToolUse, allow); got != `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"note"}}` {
		t.Errorf("allow with context: %s", got)
	}
	allow.HookSpecificOutput.UpdatedInput = json.RawMessage(`{"command":"ls"}`)
	if got, _ := answer(t, Codex, protocol.PreToolUse, protocol.PreToolUse, allow); !strings.Contains(got, `"permissionDecision":"allow","permissionDecisionReason":"fine","updatedInput":{"command":"ls"}`) {
		t.Errorf("allow with a rewrite: %s", got)
	}
	// A rewrite without a decision (the engine leaves it to the CLI's own
	// rules): Codex drops updatedInput without allow and runs the original
	// call, so it goes as an allow.
	rewritten := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)}}
	if got, _ := answer(t, Codex, protocol.PreToolUse, protocol.PreToolUse, rewritten); got != `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}` {
		t.Errorf("a rewrite without a decision: %s", got)
	}
}

// Copilot's tools: every path-bearing argument reaches the guards under
// Claude Code's names, and a rewrite goes back under Copilot's.
func TestCopilotTools(t *testing.T) {
	for _, c := range []struct {
		raw, tool, input, rewrite, modified string
	}{
		{`{"sessionId":"s","cwd":"/p","toolName":"grep","toolArgs":{"pattern":"SECRET","paths":["/p/.env"],"output_mode":"content"}}`,
			"Grep", `{"output_mode":"content","paths":["/p/.env"],"pattern":"SECRET"}`, `{"pattern":"x","paths":["src"]}`, `{"paths":["src"],"pattern":"x"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"rg","toolArgs":{"pattern":"SECRET","paths":".env"}}`,
			"Grep", `{"paths":".env","pattern":"SECRET"}`, `{"pattern":"x"}`, `{"pattern":"x"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"view","toolArgs":{"path":"/p/.env"}}`,
			"Read", `{"file_path":"/p/.env"}`, `{"file_path":"/p/a"}`, `{"path":"/p/a"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"read_file","toolArgs":{"filePath":"/p/.env","startLine":1,"endLine":9}}`,
			"Read", `{"endLine":9,"file_path":"/p/.env","startLine":1}`, `{"file_path":"/p/a"}`, `{"filePath":"/p/a"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"edit","toolArgs":{"path":"/p/a","old_str":"x"}}`,
			"Edit", `{"file_path":"/p/a","new_string":"","old_string":"x"}`, `{"file_path":"/p/a","old_string":"x","new_string":""}`, `{"new_str":"","old_str":"x","path":"/p/a"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"task","toolArgs":{"name":"h","description":"d","agent_type":"general-purpose","prompt":"p","mode":"sync"}}`,
			"Task", `{"description":"d","mode":"sync","name":"h","prompt":"p","subagent_type":"general-purpose"}`, `{"prompt":"q","subagent_type":"x"}`, `{"agent_type":"x","prompt":"q"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"}`,
			"apply_patch", `{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"}`, `{"command":"*** Begin Patch\n*** Add File: b\n+x\n*** End Patch\n"}`, `"*** Begin Patch\n*** Add File: b\n+x\n*** End Patch\n"`},
		{`{"sessionId":"s","cwd":"/p","toolName":"str_replace_editor","toolArgs":{"command":"view","path":"/p/.env"}}`,
			"Read", `{"command":"view","file_path":"/p/.env"}`, `{"command":"view","file_path":"/p/a"}`, `{"command":"view","path":"/p/a"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"str_replace_editor","toolArgs":{"command":"create","path":"/p/a","file_text":"x"}}`,
			"Write", `{"command":"create","content":"x","file_path":"/p/a"}`, `{"command":"create","file_path":"/p/b","content":"y"}`, `{"command":"create","file_text":"y","path":"/p/b"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"str_replace_editor","toolArgs":{"command":"str_replace","path":"/p/a","old_str":"x","new_str":"y"}}`,
			"Edit", `{"command":"str_replace","file_path":"/p/a","new_string":"y","old_string":"x"}`, `{"file_path":"/p/a"}`, `{"path":"/p/a"}`},
		{`{"sessionId":"s","cwd":"/p","toolName":"str_replace_editor","toolArgs":{"command":"insert","path":"/p/a","insert_line":1,"new_str":"y"}}`,
			"str_replace_editor", `{"command":"insert","insert_line":1,"new_str":"y","path":"/p/a"}`, `{"path":"/p/b"}`, `{"path":"/p/b"}`},
		// Without its path argument a file tool keeps its name.
		{`{"sessionId":"s","cwd":"/p","toolName":"view","toolArgs":{"file":"/p/.env"}}`,
			"view", `{"file":"/p/.env"}`, `{"file":"/p/b"}`, `{"file":"/p/b"}`},
		// web_fetch has no prompt: it is not Claude Code's WebFetch.
		{`{"sessionId":"s","cwd":"/p","toolName":"web_fetch","toolArgs":{"url":"http://x"}}`,
			"web_fetch", `{"url":"http://x"}`, `{"url":"http://y"}`, `{"url":"http://y"}`},
	} {
		m, got := answerTo(t, Copilot, c.raw, protocol.PreToolUse, rewrite(c.rewrite))
		var canon any // keys sorted, for comparing
		_ = json.Unmarshal(m["tool_input"], &canon)
		input, _ := json.Marshal(canon)
		if field(m, "tool_name") != c.tool || string(input) != c.input {
			t.Errorf("%s: translated to %s %s, want %s %s", c.raw, field(m, "tool_name"), input, c.tool, c.input)
		}
		var a map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got), &a); err != nil {
			t.Fatalf("%s: %s", c.raw, got)
		}
		var mod any
		_ = json.Unmarshal(a["modifiedArgs"], &mod)
		modified, _ := json.Marshal(mod)
		if string(modified) != c.modified {
			t.Errorf("%s: modifiedArgs %s, want %s", c.raw, modified, c.modified)
		}
	}
}

// Copilot's sessions start "new": the full orientation of a startup.
func TestCopilotSessionStartNew(t *testing.T) {
	for source, want := range map[string]string{"new": "startup", "startup": "startup", "resume": "resume"} {
		m, _ := answerTo(t, Copilot, `{"sessionId":"s","cwd":"/p","source":"`+source+`","initialPrompt":"x"}`, protocol.SessionStart, protocol.Output{})
		if field(m, "source") != want {
			t.Errorf("%s became %s, want %s", source, field(m, "source"), want)
		}
	}
}

// Copilot CLI reads preToolUse context (a user message before the call)
// and postToolUse modifiedResult (the tool output the model sees).
func TestCopilotContextAndResult(t *testing.T) {
	if got, _ := answer(t, Copilot, "preToolUse", protocol.PreToolUse, protocol.Context(protocol.PreToolUse, "mind the tests")); got != `{"additionalContext":"mind the tests"}` {
		t.Errorf("preToolUse context: %s", got)
	}
	for out, want := range map[string]string{
		`"token [hidden]"`:         `{"modifiedResult":{"resultType":"success","textResultForLlm":"token [hidden]"}}`,
		`{"textResultForLlm":"t"}`: `{"modifiedResult":{"resultType":"success","textResultForLlm":"t"}}`,
		`{"resultType":"success","textResultForLlm":"t","sessionLog":"l"}`: `{"modifiedResult":{"resultType":"success","sessionLog":"l","textResultForLlm":"t"}}`,
		`{"stdout":"x"}`: `{"modifiedResult":{"resultType":"success","textResultForLlm":"{\"stdout\":\"x\"}"}}`,
	} {
		o := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{UpdatedToolOutput: json.RawMessage(out)}}
		if got, dropped := answer(t, Copilot, "postToolUse", protocol.PostToolUse, o); got != want || dropped {
			t.Errorf("%s: %s (dropped %v), want %s", out, got, dropped, want)
		}
	}
}

// A failed stop hook under Gemini CLI exits 1 even when fail_closed says
// 2: Gemini takes anything but 0 and 1 as a deny, and goes round again
// with the error as the prompt. Its tool hooks still fail closed.
func TestGeminiStopFailsOpen(t *testing.T) {
	for _, c := range []struct {
		d          *Dialect
		event      string
		code, want int
	}{
		{Gemini, protocol.Stop, 2, 1}, {Gemini, protocol.Stop, 1, 1}, {Gemini, protocol.PreToolUse, 2, 2},
		{Claude, protocol.Stop, 2, 2}, {Copilot, protocol.Stop, 1, 0},
	} {
		if got := c.d.Exit(c.code, c.event); got != c.want {
			t.Errorf("%s %s: Exit(%d) = %d, want %d", c.d.Name, c.event, c.code, got, c.want)
		}
	}
}
