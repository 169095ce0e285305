package dialect

import (
	"encoding/json"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
)

// Cursor speaks Cursor's hooks (.cursor/hooks.json, version 1): lowerCamel
// events, conversation_id for the session, permission/user_message/
// agent_message to gate, additional_context and followup_message to talk.
var Cursor = &Dialect{
	Name: "cursor",
	// Its pre-tool hook may rewrite a shell command (see cli/shell_rewrite.go).
	ConfinesBy: ConfineByRewrite,
	events: eventNames{
		{"sessionStart", protocol.SessionStart},
		{"preToolUse", protocol.PreToolUse},
		{"beforeShellExecution", protocol.PreToolUse},
		{"beforeMCPExecution", protocol.PreToolUse},
		{"beforeReadFile", protocol.PreToolUse},
		{"postToolUse", protocol.PostToolUse},
		{"afterShellExecution", protocol.PostToolUse},
		{"afterMCPExecution", protocol.PostToolUse},
		{"afterFileEdit", protocol.PostToolUse},
		{"postToolUseFailure", protocol.PostToolUseFailure},
		{"subagentStart", protocol.SubagentStart},
		{"subagentStop", protocol.SubagentStop},
		{"stop", protocol.Stop},
		{"beforeSubmitPrompt", protocol.UserPromptSubmit},
		{"sessionEnd", protocol.SessionEnd},
		{"preCompact", protocol.PreCompact},
	},
	in:           cursorIn,
	out:          cursorOut,
	failOpenExit: protocol.ExitError,
	ProjectEnv:   "CURSOR_PROJECT_DIR",
}

// cursorTools are Cursor's tool types under Claude Code's names.
var cursorTools = &lazy.Value[map[string]string]{New: func() map[string]string { return map[string]string{"Shell": "Bash"} }}

func cursorIn(ev object, n *Native) error {
	native := n.Event
	ev.rename("conversation_id", "session_id")
	if !ev.has("cwd") {
		var roots []string
		if raw, ok := ev["workspace_roots"].(json.RawMessage); ok && json.Unmarshal(raw, &roots) == nil && len(roots) > 0 {
			ev.set("cwd", roots[0])
		}
	}
	switch native {
	case "beforeShellExecution", "afterShellExecution":
		input := map[string]any{"command": ev.str("command")}
		ev.set("tool_name", "Bash")
		ev.set("tool_input", input)
		if native == "afterShellExecution" {
			ev.set("tool_response", map[string]any{"output": ev.str("output")})
		}
	case "beforeMCPExecution", "afterMCPExecution":
		ev.set(protocol.MCPField, true) // the tool's bare name does not say so
		ev.unstring("tool_input")
		ev.rename("result_json", "tool_response")
		ev.unstring("tool_response")
	case "beforeReadFile":
		ev.set("tool_name", "Read")
		ev.set("tool_input", map[string]any{"file_path": ev.str("file_path")})
	case "afterFileEdit":
		ev.set("tool_name", "Edit")
		ev.set("tool_input", map[string]any{"file_path": ev.str("file_path"), "edits": ev["edits"]})
		ev.set("tool_response", map[string]any{})
	case "preToolUse", "postToolUse", "postToolUseFailure":
		ev.mapTool(cursorTools.Get())
		ev.unstring("tool_input")
		ev.rename("tool_output", "tool_response")
		ev.unstring("tool_response")
		ev.rename("error_message", "error")
	case "subagentStart", "subagentStop":
		ev.rename("subagent_type", "agent_type")
		ev.rename("subagent_id", "agent_id")
	case "sessionStart":
		if !ev.has("source") {
			ev.set("source", "startup") // Cursor runs sessionStart for new conversations only
		}
	}
	// Cursor counts the follow-ups its stop hooks caused; Claude Code says
	// whether the agent is already continuing because of one.
	if ev.has("loop_count") {
		ev.set("stop_hook_active", ev.num("loop_count") > 0)
	}
	return nil
}

func cursorOut(n Native, o protocol.Output) (any, bool) {
	native := n.Event
	a, v := object{}, read(o)
	dropped := false
	switch native {
	case "preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile":
		// Cursor enforces ask only before shell and MCP calls.
		if native == "preToolUse" || native == "beforeReadFile" {
			v.askDenied("Cursor", native)
		}
		if v.permission != "" {
			a.set("permission", v.permission)
		}
		if v.reason != "" {
			a.set("user_message", v.reason)
			if v.permission != protocol.DecisionAllow {
				a.set("agent_message", v.reason)
			}
		}
		if v.updatedInput != nil && native == "preToolUse" {
			a.set("updated_input", v.updatedInput)
		}
		if o.SystemMessage != "" && !a.has("user_message") {
			a.set("user_message", o.SystemMessage)
		}
		dropped = v.context != ""
	case "postToolUse", "afterMCPExecution":
		if text := protocol.Paragraphs(v.block, v.context); text != "" {
			a.set("additional_context", text)
		}
		dropped = v.updatedOutput != nil
	case "sessionStart":
		if v.context != "" {
			a.set("additional_context", v.context)
		}
	case "stop", "subagentStop":
		if v.block != "" {
			a.set("followup_message", v.block)
		}
		dropped = v.context != ""
	default:
		dropped = v.context != "" || v.block != ""
	}
	if o.Continue != nil && !*o.Continue {
		a.set("continue", false)
	}
	if o.SystemMessage != "" && !a.has("user_message") {
		a.set("systemMessage", o.SystemMessage) // Answer moves it to stderr
	}
	return a, dropped
}
