package dialect

import "github.com/massgen/massgen-hook/protocol"

// Gemini speaks Gemini CLI's hooks (.gemini/settings.json): its own event
// names and tool names, decision deny/block at the top level, and timeouts
// in milliseconds.
var Gemini = register(&Dialect{
	Name: "gemini",
	events: map[string]string{
		"BeforeTool":   protocol.PreToolUse,
		"AfterTool":    protocol.PostToolUse,
		"AfterAgent":   protocol.Stop,
		"BeforeAgent":  protocol.UserPromptSubmit,
		"SessionStart": protocol.SessionStart,
		"SessionEnd":   protocol.SessionEnd,
		"PreCompress":  protocol.PreCompact,
		"Notification": protocol.Notification,
	},
	in:            geminiIn,
	out:           geminiOut,
	systemMessage: true,
	failOpenExit:  protocol.ExitError,
	ProjectEnv:    "GEMINI_PROJECT_DIR",
})

// geminiTools are Gemini CLI's built-in tools under Claude Code's names;
// their arguments already use Claude Code's field names (file_path,
// content, old_string, new_string, command).
var geminiTools = map[string]string{
	"run_shell_command":   "Bash",
	"write_file":          "Write",
	"replace":             "Edit",
	"read_file":           "Read",
	"glob":                "Glob",
	"search_file_content": "Grep",
	"list_directory":      "LS",
	"web_fetch":           "WebFetch",
	"google_web_search":   "WebSearch",
	"write_todos":         "TodoWrite",
	"delegate_to_agent":   "Task",
}

func geminiIn(ev object, native string) error {
	ev.mapTool(geminiTools)
	return nil
}

func geminiOut(native string, o protocol.Output) (any, bool) {
	a, v := object{}, read(o)
	common(o, a)
	specific := object{}
	dropped := false
	switch native {
	case "BeforeTool":
		v.askDenied("Gemini CLI", native)
		if v.permission != "" {
			a.set("decision", v.permission)
		}
		if v.reason != "" {
			a.set("reason", v.reason)
		}
		// Gemini merges tool_input into the arguments; Claude Code's
		// updatedInput is the whole input, so every field is given.
		if v.updatedInput != nil {
			specific.set("tool_input", v.updatedInput)
		}
		dropped = v.context != ""
	case "AfterTool":
		if v.block != "" {
			a.set("decision", "deny")
			a.set("reason", v.block)
		}
		if v.context != "" {
			specific.set("additionalContext", v.context)
		}
		if v.updatedOutput != nil {
			specific.set("tool_output", v.updatedOutput)
		}
	case "AfterAgent":
		if v.block != "" {
			a.set("decision", "deny") // Gemini retries the turn with reason as the prompt
			a.set("reason", v.block)
		}
		dropped = v.context != ""
	case "SessionStart", "BeforeAgent":
		if v.context != "" {
			specific.set("additionalContext", v.context)
		}
		if v.block != "" {
			a.set("decision", "deny")
			a.set("reason", v.block)
		}
	default:
		dropped = v.context != "" || v.block != ""
	}
	if len(specific) > 0 {
		specific.set("hookEventName", native)
		a.set("hookSpecificOutput", specific)
	}
	return a, dropped
}
