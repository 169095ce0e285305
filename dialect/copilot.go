package dialect

import (
	"encoding/json"

	"github.com/massgen/massgen-hook/protocol"
)

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
// own Claude-compatible payloads name them, where the arguments are the
// same. The file tools are in copilotFileTools.
var copilotTools = map[string]string{
	"bash": "Bash", "grep": "Grep", "rg": "Grep", "glob": "Glob",
	"web_fetch": "WebFetch", "web_search": "WebSearch",
}

// copilotFileTools are Copilot CLI's file tools, whose arguments are those
// of the str_replace editor (path, file_text, old_str, new_str): they are
// renamed to Claude Code's, so the schema check and the protected-path
// guard read them. A call without a path keeps Copilot's own name: a tool
// the guards do not know is left alone rather than denied as malformed.
var copilotFileTools = map[string]string{"view": "Read", "create": "Write", "edit": "Edit"}

// copilotArgs are the argument names, Copilot's to Claude Code's.
var copilotArgs = [][2]string{
	{"path", "file_path"}, {"file_text", "content"}, {"old_str", "old_string"}, {"new_str", "new_string"},
}

func copilotIn(ev object, native string) error {
	// In order: agentType wins over agentName for agent_type.
	for _, r := range [][2]string{
		{"sessionId", "session_id"}, {"transcriptPath", "transcript_path"},
		{"toolName", "tool_name"}, {"toolArgs", "tool_input"}, {"toolResult", "tool_response"},
		{"agentId", "agent_id"}, {"agentType", "agent_type"}, {"agentName", "agent_type"},
	} {
		ev.rename(r[0], r[1])
	}
	ev.mapTool(copilotTools)
	ev.unstring("tool_input")
	if name, ok := copilotFileTools[ev.str("tool_name")]; ok {
		if input, err := decode(rawOf(ev["tool_input"])); err == nil && input.str("path") != "" {
			for _, r := range copilotArgs {
				input.rename(r[0], r[1])
			}
			ev.set("tool_input", input)
			ev.set("tool_name", name)
		}
	}
	return nil
}

// rawOf is a field's JSON, whichever form it is held in.
func rawOf(v any) []byte {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	raw, _ := json.Marshal(v)
	return raw
}

// copilotModifiedArgs gives a rewritten input back Copilot's argument names.
func copilotModifiedArgs(input json.RawMessage) any {
	args, err := decode(input)
	if err != nil {
		return input
	}
	for _, r := range copilotArgs {
		args.rename(r[1], r[0])
	}
	return args
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
			a.set("modifiedArgs", copilotModifiedArgs(v.updatedInput))
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
