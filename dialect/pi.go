package dialect

import (
	"encoding/json"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
)

// Pi speaks pi's (npm @mariozechner/pi-coding-agent) extension events, as
// massgen-hook's extension (integrations/pi/massgen-hook.ts) hands them
// over: pi's own event type and fields (toolName, toolCallId, input,
// content, details, isError, reason) beside the session's (session_id,
// transcript_path, cwd). The extension applies a small answer object:
// block with a reason, replace the arguments, ask, replace the result, add
// context, send the agent on at its end. A run the extension could not
// read is a failure: exit 1 lets the action go on, exit 2 blocks it.
var Pi = &Dialect{
	Name: "pi",
	// The extension's tool_call handler changes the bash call's command
	// in place before it runs (see cli/shell_rewrite.go).
	ConfinesBy: ConfineByRewrite,
	// pi 0.73 has no permission rules of its own to read the line.
	RewriteForm: RewritePlain,
	events: eventNames{
		{"session_start", protocol.SessionStart},
		{"tool_call", protocol.PreToolUse},
		{"tool_result", protocol.PostToolUse},
		{"agent_end", protocol.Stop},
	},
	eventOf: piEventOf,
	in:      piIn,
	out:     piOut,
	// The extension shows it to the user: pi's UI, else stderr.
	systemMessage: true,
	failOpenExit:  protocol.ExitError,
	// The extension sends the reason of a block at agent_end as the next
	// user message, which pi answers, without a cap of its own: a stop
	// hook that failed must not do that, fail_closed or not.
	failOpenOnly: []string{protocol.Stop},
	ProjectEnv:   "PI_PROJECT_DIR",
	// pi 0.73 asks nobody before any call: a rewritten call runs as the
	// agent's own would, which is what a rewrite with no decision means.
	// An ask would block it whenever pi has no UI.
	JudgesRewrites: true,
}

// piDenied opens the text pi hands the model for a call the extension
// blocked: pi gives the model the block's reason alone, as the call's
// failed result, so it says who blocked it.
const piDenied = "Blocked by massgen-hook: "

// piTool is one of pi's built-in tools under Claude Code's name, with the
// arguments whose names differ, and those inside each of its "edits".
type piTool struct {
	name  string
	args  [][2]string
	items [][2]string
}

// piTools are pi 0.73's built-in tools (bash, read, write, edit, grep,
// find, ls): its edit takes a list of replacements, which is Claude Code's
// MultiEdit; its find is a glob. Tools of other extensions keep their
// names, for the rules to match.
var piTools = &lazy.Value[map[string]piTool]{New: func() map[string]piTool {
	path := [][2]string{{"path", "file_path"}}
	return map[string]piTool{
		"bash":  {name: "Bash"},
		"read":  {name: "Read", args: path},
		"write": {name: "Write", args: path},
		"edit":  {name: "MultiEdit", args: path, items: [][2]string{{"oldText", "old_string"}, {"newText", "new_string"}}},
		"grep":  {name: "Grep"},
		"find":  {name: "Glob"},
		"ls":    {name: "LS"},
	}
}}

// piSources are pi's session_start reasons as Claude Code's sources: a
// fresh conversation (pi's start or /new) gets the whole orientation; a
// resumed, reloaded or forked one keeps what it had.
var piSources = &lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{"startup": "startup", "new": "startup", "resume": "resume", "reload": "resume", "fork": "resume"}
}}

// piEventOf tells a failed tool_result (isError: true) from one that
// succeeded; one that does not say is the one the hook handles.
func piEventOf(ev object, event, want string) string {
	if event != protocol.PostToolUse {
		return event
	}
	switch string(rawOf(ev["isError"])) {
	case "true":
		return protocol.PostToolUseFailure
	case "false":
		return protocol.PostToolUse
	}
	if want == protocol.PostToolUseFailure {
		return want
	}
	return event
}

func piIn(ev object, n *Native) error {
	n.canAsk = string(rawOf(ev["hasUI"])) == "true"
	for _, r := range [][2]string{{"toolName", "tool_name"}, {"toolCallId", "tool_use_id"}, {"input", "tool_input"}} {
		ev.rename(r[0], r[1])
	}
	switch n.Event {
	case "session_start":
		if source, ok := piSources.Get()[ev.str("reason")]; ok {
			ev.set("source", source)
		}
	case "tool_result":
		piResult(ev)
	}
	t, ok := piTools.Get()[ev.str("tool_name")]
	if !ok {
		return nil
	}
	if len(t.args) > 0 {
		if in, ok := ev.input(); !ok || !in.has(t.args[0][0]) {
			return nil // not the shape the guards know: left to the rules
		}
	}
	ev.set("tool_name", t.name)
	ev.renameArgs(n, t.args...)
	if len(t.items) > 0 {
		in, _ := ev.input()
		if edits, ok := renameItems(in["edits"], t.items); ok {
			in.set("edits", edits)
			ev.set("tool_input", in)
			n.itemArgs = t.items
		}
	}
	return nil
}

// piResult gives a tool_result Claude Code's fields: the result pi hands
// the model (content, details) as tool_response, and for a failed call
// (isError: a command that exited non-zero, a file not found, a call
// blocked) its text as the error, which the failure checks read.
func piResult(ev object) {
	resp := object{"content": ev["content"], "details": ev["details"]}
	if string(rawOf(ev["isError"])) == "true" {
		text := piText(rawOf(ev["content"]))
		resp.set("is_error", true)
		resp.set("error", text)
		ev.set("error", text)
	}
	delete(ev, "content")
	delete(ev, "details")
	ev.set("tool_response", resp)
}

// piText is the text of a result's content blocks, one paragraph each.
func piText(content []byte) string {
	var blocks []struct{ Type, Text string }
	if json.Unmarshal(content, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// renameItems renames the fields of each object in list (a JSON array),
// each pair's first name to its second, the CLI's value kept where an item
// holds both (see renameArgs); false when list is no array.
func renameItems(list any, pairs [][2]string) ([]any, bool) {
	var items []json.RawMessage
	if json.Unmarshal(rawOf(list), &items) != nil || items == nil {
		return nil, false
	}
	out := make([]any, len(items))
	for i, raw := range items {
		item, err := decode(raw)
		if err != nil {
			out[i] = raw
			continue
		}
		for _, p := range pairs {
			if item.has(p[0]) {
				delete(item, p[1])
				item.rename(p[0], p[1])
			}
		}
		out[i] = item
	}
	return out, true
}

func piOut(n Native, o protocol.Output) (any, bool) {
	a, v := object{}, read(o)
	dropped := false
	switch n.Event {
	case "tool_call":
		if !n.canAsk {
			v.askDenied("pi without a UI (print or JSON mode)", n.Event)
		}
		switch v.permission {
		case protocol.DecisionDeny:
			a.set("block", true)
			a.set("reason", piDenied+v.reason)
		case protocol.DecisionAsk:
			a.set("ask", v.reason)
		}
		if v.updatedInput != nil && v.permission != protocol.DecisionDeny {
			a.set("input", n.cliInput(v.updatedInput))
		}
		if v.context != "" {
			a.set("context", v.context) // a message before the next model call
		}
	case "tool_result":
		if v.updatedOutput != nil {
			a.set("content", []map[string]string{{"type": "text", "text": replacementText(v.updatedOutput)}})
		}
		if text := protocol.Paragraphs(v.block, v.context); text != "" {
			a.set("context", text)
		}
	case "session_start":
		if v.context != "" {
			a.set("context", v.context)
		}
		dropped = v.block != ""
	case "agent_end":
		if v.block != "" {
			a.set("block", true)
			a.set("reason", v.block)
		}
		dropped = v.context != ""
	default:
		dropped = v.context != "" || v.block != ""
	}
	if o.SystemMessage != "" {
		a.set("systemMessage", o.SystemMessage)
	}
	return a, dropped
}
