package dialect

import "github.com/massgen/massgen-hook/protocol"

// Copilot speaks GitHub Copilot CLI's hooks (.github/hooks/*.json). Its
// camelCase payloads (sessionId, toolName, toolArgs) carry no event name,
// so the hook's own event names it. A preToolUse hook that exits with any
// status but 0 denies the call, so failing open is exit 0.
var Copilot = register(&Dialect{
	Name: "copilot",
	events: map[string]string{
		"sessionStart":        protocol.SessionStart,
		"subagentStart":       protocol.SubagentStart,
		"preToolUse":          protocol.PreToolUse,
		"postToolUse":         protocol.PostToolUse,
		"postToolUseFailure":  protocol.PostToolUseFailure,
		"agentStop":           protocol.Stop,
		"subagentStop":        protocol.SubagentStop,
		"userPromptSubmitted": protocol.UserPromptSubmit,
		"sessionEnd":          protocol.SessionEnd,
		"preCompact":          protocol.PreCompact,
	},
	in:           copilotIn,
	out:          copilotOut,
	failOpenExit: protocol.ExitOK,
})

// copilotTools are Copilot CLI's tools under Claude Code's names, as its
// own Claude-compatible payloads name them.
var copilotTools = map[string]string{
	"bash": "Bash", "view": "Read", "create": "Write", "edit": "Edit",
	"str_replace_editor": "Edit", "apply_patch": "Edit", "grep": "Grep", "rg": "Grep",
	"glob": "Glob", "web_fetch": "WebFetch", "web_search": "WebSearch",
	"ask_user": "AskUserQuestion", "update_todo": "TodoWrite", "task": "Task",
}

func copilotIn(ev object, native string) error {
	for from, to := range map[string]string{
		"sessionId": "session_id", "transcriptPath": "transcript_path",
		"toolName": "tool_name", "toolArgs": "tool_input", "toolResult": "tool_response",
		"agentId": "agent_id", "agentType": "agent_type", "agentName": "agent_type",
	} {
		ev.rename(from, to)
	}
	ev.mapTool(copilotTools)
	ev.unstring("tool_input")
	return nil
}

func copilotOut(native string, o protocol.Output) (any, bool) {
	a, v := object{}, read(o)
	dropped := false
	switch native {
	case "preToolUse":
		if v.permission != "" {
			a.set("permissionDecision", v.permission)
		}
		if v.reason != "" {
			a.set("permissionDecisionReason", v.reason)
		}
		if v.updatedInput != nil {
			a.set("modifiedArgs", v.updatedInput)
		}
		dropped = v.context != ""
	case "postToolUse":
		if text := protocol.Paragraphs(v.block, v.context); text != "" {
			a.set("additionalContext", text)
		}
		dropped = v.updatedOutput != nil
	case "agentStop", "subagentStop":
		if v.block != "" {
			a.set("decision", "block")
			a.set("reason", v.block)
		}
		dropped = v.context != ""
	case "sessionStart", "subagentStart":
		if v.context != "" {
			a.set("additionalContext", v.context)
		}
	default:
		dropped = v.context != "" || v.block != ""
	}
	if o.SystemMessage != "" {
		a.set("systemMessage", o.SystemMessage) // Answer moves it to stderr
	}
	return a, dropped
}
