package dialect

import (
	"encoding/json"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
)

// Copilot speaks GitHub Copilot CLI's hooks (.github/hooks/*.json). Its
// camelCase payloads (sessionId, toolName, toolArgs) carry no event name,
// so the hook's own event names it. A preToolUse hook that exits with any
// status but 0 denies the call, so failing open is exit 0.
var Copilot = &Dialect{
	Name: "copilot",
	// Its pre-tool hook may rewrite a shell command (see cli/shell_rewrite.go).
	ConfinesBy: ConfineByRewrite,
	// 1.0.102 judges modifiedArgs as if the model had written them: its
	// --deny-tool 'shell(git push)' would no longer see `git push`, and the
	// wrapper's path, outside the project, would be asked about (a refusal
	// under -p, even with --allow-all-tools).
	RewriteForm: RewriteKept,
	// The line's exec is one more command for its permissions to approve.
	RewriteAsks: "Copilot CLI asks before the exec this adds to each shell command unless you run it with --allow-all-tools or --allow-tool 'shell(exec)'",
	events: eventNames{
		{"sessionStart", protocol.SessionStart},
		{"subagentStart", protocol.SubagentStart},
		{"preToolUse", protocol.PreToolUse},
		{"postToolUse", protocol.PostToolUse},
		{"postToolUseFailure", protocol.PostToolUseFailure},
		{"agentStop", protocol.Stop},
		{"subagentStop", protocol.SubagentStop},
		{"userPromptSubmitted", protocol.UserPromptSubmit},
		{"sessionEnd", protocol.SessionEnd},
		{"preCompact", protocol.PreCompact},
	},
	in:           copilotIn,
	out:          copilotOut,
	failOpenExit: protocol.ExitOK,
	// Copilot CLI 1.0.102 sets it (and CLAUDE_PROJECT_DIR, which wins).
	ProjectEnv: "COPILOT_PROJECT_DIR",
	// It applies modifiedArgs sent without a permissionDecision, and its
	// own permissions judge the rewritten call (1.0.102: under
	// --allow-all-tools it runs); an ask is a deny under -p.
	JudgesRewrites: true,
}

// copilotTool is one of Copilot CLI's tools under Claude Code's name, with
// the arguments whose names differ. A call that lacks the first renamed
// argument keeps Copilot's name: a tool the guards do not know is left to
// the rules rather than denied as malformed.
type copilotTool struct {
	name string
	args [][2]string
}

// copilotTools are Copilot CLI's tools whose arguments are Claude Code's
// once renamed: its file tools take the str_replace editor's (path,
// file_text, old_str, new_str); grep and rg keep their "paths" (a string or
// a list), which protected paths judges one by one. web_fetch has no
// prompt, so it keeps its name, as do the tools Claude Code lacks.
var copilotTools = &lazy.Value[map[string]copilotTool]{New: func() map[string]copilotTool {
	return map[string]copilotTool{
		"bash":      {name: "Bash"},
		"view":      {"Read", [][2]string{{"path", "file_path"}}},
		"read_file": {"Read", [][2]string{{"filePath", "file_path"}}},
		"create":    {"Write", [][2]string{{"path", "file_path"}, {"file_text", "content"}}},
		"edit":      {"Edit", [][2]string{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}}},
		"grep":      {name: "Grep"},
		"rg":        {name: "Grep"},
		"glob":      {name: "Glob"},
		"task":      {"Task", [][2]string{{"agent_type", "subagent_type"}}},
	}
}}

// copilotEditor are the commands of str_replace_editor, the one file tool
// some models are offered, by the tool each is. Its insert has no Claude
// Code counterpart: it keeps the editor's name, and protected paths judges
// its path as written.
var copilotEditor = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{"view": "view", "create": "create", "str_replace": "edit"}
}}

func copilotIn(ev object, n *Native) error {
	// In order: agentType wins over agentName for agent_type.
	for _, r := range [][2]string{
		{"sessionId", "session_id"}, {"transcriptPath", "transcript_path"},
		{"toolName", "tool_name"}, {"toolArgs", "tool_input"}, {"toolResult", "tool_response"},
		{"agentId", "agent_id"}, {"agentType", "agent_type"}, {"agentName", "agent_type"},
	} {
		ev.rename(r[0], r[1])
	}
	// Copilot's sessions start "new"; Claude Code's "startup" is the source
	// that gets the whole orientation (scratchpads and git log).
	if n.Event == "sessionStart" && ev.str("source") == "new" {
		ev.set("source", "startup")
	}
	copilotShellFailure(ev)
	ev.unstring("tool_input")
	if text := ev.str("tool_input"); text != "" && ev.str("tool_name") == "apply_patch" {
		// Under GPT models apply_patch's input is the raw patch: it gets
		// the shape of Codex's apply_patch input, which the guards read.
		// Other text stays text, for the malformed tool call check.
		ev.set("tool_input", map[string]string{"command": text})
		n.textInput = "command"
	}
	name := ev.str("tool_name")
	if in, ok := ev.input(); ok && name == "str_replace_editor" {
		name = copilotEditor.Get()[in.str("command")]
	}
	t, ok := copilotTools.Get()[name]
	if !ok {
		return nil
	}
	if len(t.args) > 0 {
		if in, ok := ev.input(); !ok || !in.has(t.args[0][0]) {
			return nil
		}
	}
	if in, _ := ev.input(); t.name == "Edit" && !in.has("new_str") {
		// edit without new_str deletes old_str: Claude Code's Edit, whose
		// new_string is required, says so with an empty one.
		in.set("new_str", "")
		ev.set("tool_input", in)
	}
	ev.set("tool_name", t.name)
	ev.renameArgs(n, t.args...)
	return nil
}

func copilotOut(n Native, o protocol.Output) (any, bool) {
	a, v := object{}, read(o)
	dropped := false
	switch n.Event {
	case "preToolUse":
		if v.permission != "" {
			a.set("permissionDecision", v.permission)
		}
		if v.reason != "" {
			a.set("permissionDecisionReason", v.reason)
		}
		if v.updatedInput != nil {
			a.set("modifiedArgs", n.cliInput(v.updatedInput))
		}
		if v.context != "" {
			a.set("additionalContext", v.context) // a user message before the call
		}
	case "postToolUse":
		if text := protocol.Paragraphs(v.block, v.context); text != "" {
			a.set("additionalContext", text)
		}
		if v.updatedOutput != nil {
			a.set("modifiedResult", copilotResult(v.updatedOutput))
		}
	case "postToolUseFailure", "sessionStart", "subagentStart":
		if v.context != "" {
			a.set("additionalContext", v.context)
		}
	case "agentStop", "subagentStop":
		if v.block != "" {
			a.set("decision", "block")
			a.set("reason", v.block)
		}
		dropped = v.context != ""
	default:
		dropped = v.context != "" || v.block != ""
	}
	if o.SystemMessage != "" {
		a.set("systemMessage", o.SystemMessage) // Answer moves it to stderr
	}
	return a, dropped
}

// copilotResult is a replaced tool output as Copilot's tool result: a rule
// that rewrote Copilot's own result object (textResultForLlm) gives it
// whole; text, or any other JSON, becomes the text the model reads.
// postToolUse runs only after a tool succeeded.
func copilotResult(out json.RawMessage) any {
	if r, err := decode(out); err == nil && r.has("textResultForLlm") {
		if !r.has("resultType") {
			r.set("resultType", "success")
		}
		return r
	}
	text := string(out)
	var s string
	if json.Unmarshal(out, &s) == nil {
		text = s
	}
	return map[string]string{"textResultForLlm": text, "resultType": "success"}
}
