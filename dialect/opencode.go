package dialect

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
)

// OpenCode speaks the events of massgen-hook's OpenCode plugin
// (integrations/opencode/massgen-hook.js), which OpenCode loads from
// .opencode/plugins: OpenCode runs no hook commands itself, so the plugin
// hands each of its hooks to massgen-hook as one JSON object named after
// the hook (tool.execute.before, tool.execute.after), or after the moment
// the plugin saw (session.start: a main session's first model request;
// subagent.start: a child session's; subagent.stop: the task tool's
// result; session.idle: the run's end). The answer is a small object the
// plugin applies: block (tool.execute.before throws it; at subagent.stop
// the subagent is sent back with it), args (the tool's arguments, changed
// in place), context (the system prompt at a start, the tool's result
// after a call) and output (the tool's result, replaced).
var OpenCode = &Dialect{
	Name: "opencode",
	// Its plugin may change a shell command's arguments before the call.
	ConfinesBy: ConfineByRewrite,
	// OpenCode 1.18.33 runs tool.execute.before first, then the bash
	// tool, which asks its permission rules (opencode.json
	// permission.bash) about every command tree-sitter finds in the
	// rewritten line: a user's "git push*": "deny" still denies when the
	// command's words follow the exec.
	RewriteForm: RewriteExecTail,
	RewriteAsks: "OpenCode asks before the exec and the exit 126 this adds to each shell command when your permission.bash rules ask about commands no rule allows",
	events: eventNames{
		{"session.start", protocol.SessionStart},
		{"subagent.start", protocol.SubagentStart},
		{"tool.execute.before", protocol.PreToolUse},
		{"tool.execute.after", protocol.PostToolUse},
		{"tool.execute.error", protocol.PostToolUseFailure},
		{"subagent.stop", protocol.SubagentStop},
		{"session.idle", protocol.Stop},
	},
	in:           opencodeIn,
	out:          opencodeOut,
	failOpenExit: protocol.ExitError,
	ProjectEnv:   "OPENCODE_PROJECT_DIR",
	// Its permission rules judge the arguments the plugin changed.
	JudgesRewrites: true,
}

// opencodeTool is one of OpenCode's tools under Claude Code's name: the
// argument a call of it must have (a call without it keeps OpenCode's
// name, so a tool the guards do not know is left to the rules rather than
// denied as malformed), and the arguments whose names differ.
type opencodeTool struct {
	name, needs string
	args        [][2]string
}

// opencodeTools are OpenCode 1.18.33's tools whose arguments are Claude
// Code's once renamed (its file tools take camelCase names). webfetch,
// skill and todowrite keep their names: their arguments are not Claude
// Code's. apply_patch, offered to GPT models, takes the patch text, which
// becomes Codex's apply_patch input (command), the shape the guards read.
var opencodeTools = &lazy.Value[map[string]opencodeTool]{New: func() map[string]opencodeTool {
	return map[string]opencodeTool{
		"bash":  {name: "Bash", needs: "command"},
		"read":  {"Read", "filePath", [][2]string{{"filePath", "file_path"}}},
		"write": {"Write", "filePath", [][2]string{{"filePath", "file_path"}}},
		"edit": {"Edit", "filePath", [][2]string{{"filePath", "file_path"}, {"oldString", "old_string"},
			{"newString", "new_string"}, {"replaceAll", "replace_all"}}},
		"glob":        {name: "Glob", needs: "pattern"},
		"grep":        {"Grep", "pattern", [][2]string{{"include", "glob"}}},
		"list":        {name: "LS"},
		"task":        {name: "Task", needs: "prompt"},
		"apply_patch": {"apply_patch", "patchText", [][2]string{{"patchText", "command"}}},
	}
}}

func opencodeIn(ev object, n *Native) error {
	for _, r := range [][2]string{{"call_id", "tool_use_id"}, {"tool", "tool_name"}, {"args", "tool_input"}, {"result", "tool_response"}} {
		ev.rename(r[0], r[1])
	}
	// A child session (a subagent's) is the main session's subagent:
	// Claude Code names the main session and gives the subagent's id and
	// type.
	if parent := ev.str("parent_session_id"); parent != "" {
		ev.set("agent_id", ev.str("session_id"))
		ev.set("session_id", parent)
		ev.rename("agent", "agent_type")
	}
	delete(ev, "parent_session_id")
	if n.Event == "session.start" {
		ev.set("source", "startup")
	}
	if n.Event == "tool.execute.after" {
		opencodeShellFailure(ev)
	}
	t, ok := opencodeTools.Get()[ev.str("tool_name")]
	if !ok {
		return nil
	}
	if in, ok := ev.input(); t.needs != "" && (!ok || !in.has(t.needs)) {
		return nil
	}
	ev.set("tool_name", t.name)
	ev.renameArgs(n, t.args...)
	if t.name == "Bash" {
		opencodeShellDir(ev)
	}
	return nil
}

// opencodeShellFailure marks a bash result whose command exited non-zero
// as failed, as Claude Code reports such a call (PostToolUseFailure):
// OpenCode 1.18.33 runs tool.execute.after for it as for a success, with
// the exit status in metadata.exit. The result keeps OpenCode's fields
// and gains is_error and error ("Exit code N" and the output), which the
// failure checks read.
func opencodeShellFailure(ev object) {
	if ev.str("tool_name") != "bash" {
		return
	}
	res, err := decode(rawOf(ev["tool_response"]))
	if err != nil {
		return
	}
	meta, err := decode(rawOf(res["metadata"]))
	if err != nil || !meta.has("exit") {
		return
	}
	code := meta.num("exit")
	if code == 0 && string(rawOf(meta["exit"])) != "null" {
		return
	}
	msg := "Exit code " + strconv.FormatFloat(code, 'f', -1, 64)
	if string(rawOf(meta["exit"])) == "null" {
		msg = "Killed (no exit code)" // a timeout or an abort
	}
	if out := strings.TrimRight(res.str("output"), "\n"); out != "" {
		msg += "\n" + out
	}
	res.set("is_error", true)
	res.set("error", msg)
	ev.set("tool_response", res)
}

// opencodeShellDir makes the event's cwd the folder bash runs the command
// in: its workdir, relative to the session's folder.
func opencodeShellDir(ev object) {
	in, _ := ev.input()
	dir, cwd := in.str("workdir"), ev.str("cwd")
	if dir == "" || !filepath.IsAbs(cwd) {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	ev.set("cwd", filepath.Clean(dir))
}

// opencodeOut is the answer the plugin applies. OpenCode has no way to
// ask the user from a plugin, so an ask is a deny.
func opencodeOut(n Native, o protocol.Output) (any, bool) {
	a, v := object{}, read(o)
	dropped := false
	switch n.Event {
	case "tool.execute.before":
		v.askDenied("OpenCode", n.Event)
		if v.permission == protocol.DecisionDeny {
			a.set("block", protocol.Paragraphs(v.reason, "(denied by massgen-hook)"))
			break
		}
		if v.updatedInput != nil {
			a.set("args", n.cliInput(v.updatedInput))
		}
		if v.context != "" {
			a.set("context", v.context) // the plugin adds it to the call's result
		}
	case "tool.execute.after":
		if v.updatedOutput != nil {
			a.set("output", replacementText(v.updatedOutput))
		}
		if text := protocol.Paragraphs(v.block, v.context); text != "" {
			a.set("context", text)
		}
	case "session.start", "subagent.start":
		if v.context != "" {
			a.set("context", v.context)
		}
		dropped = v.block != ""
	case "subagent.stop":
		// The plugin sends the subagent back with the reason as its next
		// message (its child session, prompted again), before the task
		// tool's result reaches the main agent.
		if v.block != "" {
			a.set("block", v.block)
		}
		dropped = v.context != ""
	case "session.idle":
		// The run is over: nothing can send the agent round again.
		if v.block != "" {
			o.SystemMessage = protocol.Paragraphs(o.SystemMessage, "massgen-hook would have kept the agent going: "+v.block)
		}
		dropped = v.context != ""
	default:
		dropped = v.context != "" || v.block != ""
	}
	if o.SystemMessage != "" {
		a.set("systemMessage", o.SystemMessage) // Answer moves it to stderr, which the plugin shows
	}
	return a, dropped
}
