package dialect

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// opencodeEvent is a plugin event for tool with args (and, after the call,
// OpenCode's result object).
func opencodeEvent(event, tool, args, result string) string {
	raw := `{"hook_event_name":"` + event + `","session_id":"ses_1","call_id":"call_1","cwd":"/p","tool":"` + tool + `","args":` + args
	if result != "" {
		raw += `,"result":` + result
	}
	return raw + "}"
}

// OpenCode's tools get Claude Code's names and argument names where their
// arguments are Claude Code's once renamed; a rewrite goes back in
// OpenCode's names. A call that lacks the argument its tool needs keeps
// OpenCode's name.
func TestOpenCodeTools(t *testing.T) {
	for _, c := range []struct {
		tool, args, wantTool, wantInput, rewrite, wantArgs string
	}{
		{"bash", `{"command":"ls","description":"d"}`, "Bash", `{"command":"ls","description":"d"}`,
			`{"command":"exec x","description":"d"}`, `{"command":"exec x","description":"d"}`},
		{"read", `{"filePath":"/p/.env"}`, "Read", `{"file_path":"/p/.env"}`, `{"file_path":"/p/a"}`, `{"filePath":"/p/a"}`},
		{"write", `{"filePath":"/p/a","content":"x"}`, "Write", `{"content":"x","file_path":"/p/a"}`,
			`{"file_path":"/p/b","content":"y"}`, `{"content":"y","filePath":"/p/b"}`},
		{"edit", `{"filePath":"/p/a","oldString":"x","newString":"y","replaceAll":true}`, "Edit",
			`{"file_path":"/p/a","new_string":"y","old_string":"x","replace_all":true}`,
			`{"file_path":"/p/a","old_string":"x","new_string":"z"}`, `{"filePath":"/p/a","newString":"z","oldString":"x"}`},
		{"grep", `{"pattern":"KEY","path":"/p","include":"*.env"}`, "Grep", `{"glob":"*.env","path":"/p","pattern":"KEY"}`,
			`{"pattern":"K","glob":"*.go"}`, `{"include":"*.go","pattern":"K"}`},
		{"grep", `{"pattern":"KEY"}`, "Grep", `{"pattern":"KEY"}`, ``, ``},
		{"glob", `{"pattern":"**/*.env","path":"/p"}`, "Glob", `{"path":"/p","pattern":"**/*.env"}`, ``, ``},
		{"task", `{"description":"d","prompt":"p","subagent_type":"general"}`, "Task", `{"description":"d","prompt":"p","subagent_type":"general"}`, ``, ``},
		{"apply_patch", `{"patchText":"*** Begin Patch\n*** End Patch"}`, "apply_patch", `{"command":"*** Begin Patch\n*** End Patch"}`,
			`{"command":"*** Begin Patch\n*** Add File: a\n*** End Patch"}`, `{"patchText":"*** Begin Patch\n*** Add File: a\n*** End Patch"}`},
		// Not the tool's shape, or no tool Claude Code has: kept as sent.
		{"read", `{"path":"/p/a"}`, "read", `{"path":"/p/a"}`, ``, ``},
		{"webfetch", `{"url":"http://x"}`, "webfetch", `{"url":"http://x"}`, ``, ``},
	} {
		o := protocol.Output{}
		if c.rewrite != "" {
			o.HookSpecificOutput = &protocol.HookSpecific{UpdatedInput: json.RawMessage(c.rewrite)}
		}
		m, got := answerTo(t, OpenCode, opencodeEvent("tool.execute.before", c.tool, c.args, ""), protocol.PreToolUse, o)
		var name string
		_ = json.Unmarshal(m["tool_name"], &name)
		if name != c.wantTool || compact(t, m["tool_input"]) != c.wantInput {
			t.Errorf("%s %s: became %s %s, want %s %s", c.tool, c.args, name, m["tool_input"], c.wantTool, c.wantInput)
		}
		if string(m["hook_event_name"]) != `"PreToolUse"` || string(m["tool_use_id"]) != `"call_1"` {
			t.Errorf("%s: event %s, call %s", c.tool, m["hook_event_name"], m["tool_use_id"])
		}
		if c.rewrite == "" {
			continue
		}
		var a struct{ Args json.RawMessage }
		if err := json.Unmarshal([]byte(got), &a); err != nil || compact(t, a.Args) != c.wantArgs {
			t.Errorf("%s: the rewrite went back as %s, want args %s", c.tool, got, c.wantArgs)
		}
	}
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// A deny is a block the plugin throws, with massgen-hook named in it; an
// ask is a deny too, since a plugin cannot ask; a rewrite no rule decided
// goes as the new arguments alone, and context before the call as context
// the plugin adds to the call's result.
func TestOpenCodeBeforeAnswers(t *testing.T) {
	rewrite := json.RawMessage(`{"command":"exec w","description":"d"}`)
	for _, c := range []struct {
		name string
		o    protocol.Output
		want string
	}{
		{"deny", protocol.Deny("protected path: .env"), `{"block":"protected path: .env\n\n(denied by massgen-hook)"}`},
		{"ask", protocol.AskUser("check it"), `{"block":"check it\n\n(massgen-hook: this call needs a person's approval, and OpenCode cannot ask for it on tool.execute.before, so it is denied. Run it yourself, or allow it in the config.)\n\n(denied by massgen-hook)"}`},
		{"rewrite", protocol.Output{HookSpecificOutput: &protocol.HookSpecific{UpdatedInput: rewrite}}, `{"args":{"command":"exec w","description":"d"}}`},
		{"context", protocol.Context(protocol.PreToolUse, "mind the tests"), `{"context":"mind the tests"}`},
		{"allow", protocol.Output{HookSpecificOutput: &protocol.HookSpecific{PermissionDecision: protocol.DecisionAllow}}, ``},
		{"defer", protocol.Output{HookSpecificOutput: &protocol.HookSpecific{PermissionDecision: protocol.DecisionDefer}}, ``},
	} {
		got, _ := answer(t, OpenCode, "tool.execute.before", protocol.PreToolUse, c.o)
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// After the call: a replacement is the text the model reads in place of
// the result; a block's reason and context are added to the result.
// Context at a start goes to the system prompt; a subagent's stop block
// is a block (the plugin sends the subagent back with it); a stop block
// has no place (the run is over) and is told to the user.
func TestOpenCodeOtherAnswers(t *testing.T) {
	for _, c := range []struct {
		native, event string
		o             protocol.Output
		want          string
		dropped       bool
	}{
		{"tool.execute.after", protocol.PostToolUse, protocol.Output{HookSpecificOutput: &protocol.HookSpecific{
			UpdatedToolOutput: json.RawMessage(`{"stdout":"[redacted]","stderr":""}`)}}, `{"output":"[redacted]"}`, false},
		{"tool.execute.after", protocol.PostToolUse, protocol.Block("that failed twice"), `{"context":"that failed twice"}`, false},
		{"tool.execute.after", protocol.PostToolUse, protocol.Context(protocol.PostToolUse, "inbox: hi"), `{"context":"inbox: hi"}`, false},
		{"tool.execute.error", protocol.PostToolUseFailure, protocol.Context(protocol.PostToolUseFailure, "inbox: hi"), ``, true},
		{"session.start", protocol.SessionStart, protocol.Context(protocol.SessionStart, "orientation"), `{"context":"orientation"}`, false},
		{"subagent.start", protocol.SubagentStart, protocol.Context(protocol.SubagentStart, "write your pad"), `{"context":"write your pad"}`, false},
		{"subagent.stop", protocol.SubagentStop, protocol.Block("scratchpad missing"), `{"block":"scratchpad missing"}`, false},
		{"session.idle", protocol.Stop, protocol.Block("write the log"), ``, false},
		{"session.idle", protocol.Stop, protocol.Context(protocol.Stop, "x"), ``, true},
	} {
		var out, notes strings.Builder
		dropped, err := OpenCode.Answer(&out, &notes, Native{Event: c.native}, c.event, c.o)
		if err != nil {
			t.Fatalf("%s: %v", c.native, err)
		}
		if got := strings.TrimSpace(out.String()); got != c.want || dropped != c.dropped {
			t.Errorf("%s %+v: %s (dropped %v), want %s (dropped %v)", c.native, c.o, got, dropped, c.want, c.dropped)
		}
		if c.native == "session.idle" && c.o.Decision == "block" && !strings.Contains(notes.String(), "write the log") {
			t.Errorf("a stop block was not told to the user: notes %q", notes.String())
		}
	}
}

// A subagent's call (a child session) names the main session, and the
// child as the agent, as Claude Code's subagent events do; a main
// session's call has no agent id.
func TestOpenCodeSubagentCalls(t *testing.T) {
	child := `{"hook_event_name":"tool.execute.before","session_id":"ses_child","parent_session_id":"ses_main","agent":"scribe","call_id":"c","cwd":"/p","tool":"bash","args":{"command":"ls"}}`
	out, _, err := OpenCode.Event([]byte(child), protocol.PreToolUse)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := protocol.ParseEvent(out, protocol.PreToolUse)
	if err != nil {
		t.Fatal(err)
	}
	if ev.SessionID != "ses_main" || ev.AgentID != "ses_child" || ev.AgentType != "scribe" || ev.ToolName != "Bash" {
		t.Errorf("child call became %+v", ev)
	}
	if ev.Get("parent_session_id").Exists() {
		t.Errorf("parent_session_id left in the event: %s", out)
	}
	main := `{"hook_event_name":"tool.execute.before","session_id":"ses_main","agent":"build","call_id":"c","cwd":"/p","tool":"bash","args":{"command":"ls"}}`
	out, _, _ = OpenCode.Event([]byte(main), protocol.PreToolUse)
	if ev, err = protocol.ParseEvent(out, protocol.PreToolUse); err != nil || ev.AgentID != "" || ev.SessionID != "ses_main" {
		t.Errorf("main call became %+v (%v)", ev, err)
	}
	start := `{"hook_event_name":"session.start","session_id":"ses_main","cwd":"/p"}`
	out, _, _ = OpenCode.Event([]byte(start), protocol.SessionStart)
	if ev, err = protocol.ParseEvent(out, protocol.SessionStart); err != nil || ev.Source != "startup" {
		t.Errorf("session.start became %+v (%v)", ev, err)
	}
}

// A bash call whose command exited non-zero (OpenCode's metadata.exit),
// or was killed (exit null), reaches the hooks as failed; exit 0 and the
// other tools' results are left as they came.
func TestOpenCodeShellFailure(t *testing.T) {
	for _, c := range []struct {
		tool, result, err string // err "": not failed
	}{
		{"bash", `{"title":"ls x","output":"ls: x: No such file\n","metadata":{"exit":2,"output":"ls: x"}}`, "Exit code 2\nls: x: No such file"},
		{"bash", `{"title":"sleep","output":"(no output)","metadata":{"exit":null}}`, "Killed (no exit code)\n(no output)"},
		{"bash", `{"title":"ls","output":"a\n","metadata":{"exit":0}}`, ""},
		{"bash", `{"title":"ls","output":"a\n","metadata":{}}`, ""},
		{"bash", `"text"`, ""},
		{"read", `{"title":"a","output":"x","metadata":{"exit":2}}`, ""},
	} {
		m, _ := answerTo(t, OpenCode, opencodeEvent("tool.execute.after", c.tool, `{"command":"ls x","filePath":"/p/a"}`, c.result), protocol.PostToolUse, protocol.Output{})
		var resp struct {
			IsError bool   `json:"is_error"`
			Error   string `json:"error"`
		}
		_ = json.Unmarshal(m["tool_response"], &resp)
		if resp.IsError != (c.err != "") || resp.Error != c.err {
			t.Errorf("%s %s: %s, want error %q", c.tool, c.result, m["tool_response"], c.err)
		}
	}
}

// The shell's workdir is where its command runs: relative paths in it
// are judged from there.
func TestOpenCodeShellDir(t *testing.T) {
	for args, want := range map[string]string{
		`{"command":"ls","workdir":"sub"}`:  `"/p/sub"`,
		`{"command":"ls","workdir":"/tmp"}`: `"/tmp"`,
		`{"command":"ls"}`:                  `"/p"`,
	} {
		m, _ := answerTo(t, OpenCode, opencodeEvent("tool.execute.before", "bash", args, ""), protocol.PreToolUse, protocol.Output{})
		if string(m["cwd"]) != want {
			t.Errorf("%s: cwd %s, want %s", args, m["cwd"], want)
		}
	}
}
