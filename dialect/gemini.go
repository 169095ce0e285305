package dialect

import (
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
)

// Gemini speaks Gemini CLI's hooks (.gemini/settings.json): its own event
// names and tool names, decision deny/block at the top level, and timeouts
// in milliseconds. Gemini CLI HTML-escapes the context it is given, and
// runs a failed hook's stderr as the deny reason of any exit but 0 and 1.
var Gemini = &Dialect{
	Name: "gemini",
	// Its pre-tool hook may rewrite a shell command (see cli/shell_rewrite.go).
	ConfinesBy: ConfineByRewrite,
	// Its policy rules see the rewritten command.
	RewriteForm:   RewriteBashC,
	OwnSandboxVar: "SANDBOX",
	events: eventNames{
		{"BeforeTool", protocol.PreToolUse},
		{"AfterTool", protocol.PostToolUse},
		{"AfterAgent", protocol.Stop},
		{"BeforeAgent", protocol.UserPromptSubmit},
		{"SessionStart", protocol.SessionStart},
		{"SessionEnd", protocol.SessionEnd},
		{"PreCompress", protocol.PreCompact},
		{"Notification", protocol.Notification},
	},
	in:            geminiIn,
	out:           geminiOut,
	systemMessage: true,
	failOpenExit:  protocol.ExitError,
	// A block on AfterAgent sends Gemini CLI round again with the reason as
	// the prompt, with no cap of its own: a stop hook that failed must not
	// do that, fail_closed or not.
	failOpenOnly: []string{protocol.Stop},
	ProjectEnv:   "GEMINI_PROJECT_DIR",
	// Gemini CLI 0.61 runs its policy check after BeforeTool, on the
	// input the hook rewrote: a rewrite goes without a decision.
	JudgesRewrites: true,
	// Gemini CLI 0.61 fires no hook when a subagent starts or ends, and a
	// subagent's calls carry no agent id: its delegation is seen only as
	// the main agent's invoke_agent call.
	DelegationTool: "invoke_agent",
}

// geminiTool is one of Gemini CLI's built-in tools under Claude Code's
// name, with the arguments whose names differ.
type geminiTool struct {
	name string
	args [][2]string
}

// geminiTools are Gemini CLI's tools whose arguments are Claude Code's
// (file_path, content, old_string, new_string, command, pattern, query),
// once dir_path is path. Tools whose arguments are not (web_fetch's prompt
// holds the URL, write_todos' items, invoke_agent's agent_name) keep their
// own names: rules match them by those, and no schema of Claude Code's
// judges them.
var geminiTools = &lazy.Value[map[string]geminiTool]{New: func() map[string]geminiTool {
	return map[string]geminiTool{
		"run_shell_command":   {name: "Bash"},
		"write_file":          {name: "Write"},
		"replace":             {name: "Edit"},
		"read_file":           {name: "Read"},
		"glob":                {"Glob", [][2]string{{"dir_path", "path"}}},
		"grep_search":         {"Grep", [][2]string{{"dir_path", "path"}}},
		"search_file_content": {"Grep", [][2]string{{"dir_path", "path"}}}, // before 0.61
		"list_directory":      {"LS", [][2]string{{"dir_path", "path"}}},
		"google_web_search":   {name: "WebSearch"},
	}
}}

func geminiIn(ev object, n *Native) error {
	if n.Event == "AfterTool" {
		geminiFailure(ev)
	}
	t, ok := geminiTools.Get()[ev.str("tool_name")]
	if !ok {
		return nil
	}
	ev.set("tool_name", t.name)
	ev.renameArgs(n, t.args...)
	if t.name == "Bash" {
		geminiShellDir(ev)
	}
	return nil
}

// geminiFailure marks the response of a call that failed as Claude Code's
// hooks read a failure, `is_error: true` (the retry guard counts it):
// Gemini CLI 0.61 reports a failed tool with an error object, which stays,
// and a shell command that exited non-zero or was killed only in the text
// for the model, which becomes the error.
func geminiFailure(ev object) {
	resp, err := decode(rawOf(ev["tool_response"]))
	if err != nil {
		return
	}
	if e, ok := resp["error"]; ok && string(rawOf(e)) != "null" {
		resp.set("is_error", true)
	} else if msg, failed := shellFailure(ev.str("tool_name"), resp.str("llmContent")); failed {
		resp.set("is_error", true)
		resp.set("error", msg)
	} else {
		return
	}
	ev.set("tool_response", resp)
}

// shellTrailer are the lines run_shell_command puts after the command's
// output for the model, each only when it applies; true for those that
// say it failed.
var shellTrailer = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"Error: ": false, "Exit Code: ": true, "Signal: ": true,
		"Background PIDs: ": false, "Process Group PGID: ": false}
}}

// shellFailure reads run_shell_command's text for the model
// ("<untrusted_context>\nOutput: ...\nExit Code: 2\nProcess Group PGID:
// 81\n</untrusted_context>", then any note Gemini CLI appends): a call
// failed when its trailer has an exit code or a signal. Only the trailer
// is read; a command whose output ends in such a line right before the
// trailer counts as failed too, which only feeds that call's retry count.
func shellFailure(tool, content string) (msg string, failed bool) {
	if tool != "run_shell_command" {
		return "", false
	}
	if i := strings.LastIndex(content, "</untrusted_context>"); i >= 0 {
		content = strings.TrimPrefix(content[:i], "<untrusted_context>")
	}
	content = strings.TrimSpace(content)
	lines := strings.Split(content, "\n")
	for i := len(lines) - 1; i > 0; i-- {
		label, _, ok := strings.Cut(lines[i], ": ")
		fails, trailer := shellTrailer.Get()[label+": "]
		if !ok || !trailer {
			break
		}
		failed = failed || fails
	}
	return content, failed
}

// geminiShellDir makes the event's cwd the directory run_shell_command
// runs in: its dir_path, relative to the project (which is Gemini CLI's
// cwd), so that relative paths in the command are judged from there.
func geminiShellDir(ev object) {
	in, _ := ev.input()
	dir, cwd := in.str("dir_path"), ev.str("cwd")
	if dir == "" || !filepath.IsAbs(cwd) {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	ev.set("cwd", filepath.Clean(dir))
}

func geminiOut(n Native, o protocol.Output) (any, bool) {
	a, v := object{}, read(o)
	common(o, a)
	specific := object{}
	dropped := false
	switch n.Event {
	case "BeforeTool":
		v.askDenied("Gemini CLI", n.Event)
		if v.permission != "" {
			a.set("decision", v.permission)
		}
		if v.reason != "" {
			a.set("reason", v.reason)
		}
		// Gemini merges tool_input into the arguments; Claude Code's
		// updatedInput is the whole input, so every field is given.
		if v.updatedInput != nil {
			specific.set("tool_input", n.cliInput(v.updatedInput))
		}
		dropped = v.context != ""
	case "AfterTool":
		// Gemini CLI 0.61 hands the model an AfterTool deny's reason in
		// place of the tool's result ({"error": reason}): the one way
		// to replace an output there, so a replacement goes that way,
		// and the original never reaches the model.
		reason := v.block
		if v.updatedOutput != nil {
			reason = protocol.Paragraphs(replacementText(v.updatedOutput), reason)
		}
		if reason != "" {
			a.set("decision", "deny")
			a.set("reason", reason)
		}
		if v.context != "" {
			specific.set("additionalContext", withoutMarkup(v.context))
		}
	case "AfterAgent":
		if v.block != "" {
			a.set("decision", "deny") // Gemini retries the turn with reason as the prompt
			a.set("reason", v.block)
		}
		dropped = v.context != ""
	case "SessionStart", "BeforeAgent":
		if v.context != "" {
			specific.set("additionalContext", withoutMarkup(v.context))
		}
		if v.block != "" {
			a.set("decision", "deny")
			a.set("reason", v.block)
		}
	default:
		dropped = v.context != "" || v.block != ""
	}
	if len(specific) > 0 {
		specific.set("hookEventName", n.Event)
		a.set("hookSpecificOutput", specific)
	}
	return a, dropped
}
