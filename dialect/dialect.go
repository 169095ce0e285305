// Package dialect lets the same hooks serve other agent CLIs: it turns an
// event from Cursor, Gemini CLI, Codex, Copilot CLI, OpenCode or pi into Claude Code's
// shape, and Claude Code's answer back into theirs, with their exit codes
// (../shared/PROTOCOL.md §3). Everything between works on Claude Code's
// protocol alone.
package dialect

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/protocol"
)

// Dialect is one agent CLI's hook protocol.
type Dialect struct {
	Name string
	// events maps the CLI's event names to Claude Code's.
	events eventNames
	// in rewrites a decoded event into Claude Code's fields, noting in n
	// how its tool input was translated.
	in func(ev object, n *Native) error
	// eventOf, where one of the CLI's events is two of Claude Code's (pi's
	// tool_result, failed or not), names the one raw is, given event (what
	// events says) and want (what the hook handles); nil: events says.
	eventOf func(ev object, event, want string) string
	// out builds the CLI's answer from Claude Code's (already checked and
	// capped). dropped reports agent-facing text it has no place for.
	// It is an object, or a protocol.Output for Claude Code's own shape.
	out func(n Native, o protocol.Output) (answer any, dropped bool)
	// systemMessage reports that the CLI shows Claude Code's top-level
	// systemMessage warning; elsewhere it goes to stderr.
	systemMessage bool
	// failOpenExit is the status that lets the action go on after a
	// failure: 1 nearly everywhere, 0 where any other exit blocks.
	failOpenExit int
	// failOpenOnly are the events (Claude Code's names) where a failure
	// fails open even when the config says fail_closed, because the CLI
	// would take the block as a reason to go round again, without end.
	failOpenOnly []string
	// ProjectEnv names the variable the CLI sets to the project root.
	ProjectEnv string
	// ProjectFromHookDir: the event's cwd is the folder the call runs in,
	// which the model chooses (Codex's exec_command workdir), while the
	// hook process runs in the session's folder. The project is found
	// from the hook's own folder: a workdir in a repository the agent made,
	// with a config of its own (confine: off, no guards), must not become
	// the project.
	ProjectFromHookDir bool
	// PlainContext, JudgesRewrites and ShapesOutput are what the rules'
	// answers may rely on (see engine.Client).
	PlainContext, JudgesRewrites, ShapesOutput bool
	// FileToolScratchpad: the CLI asks before a write under .claude/, and
	// the permission-request hook grants an agent its own scratchpad only
	// through its file tools (Claude Code's Write and Edit), so agents are
	// told to write it with those, not with a shell command.
	FileToolScratchpad bool
	// DelegationTool is the tool (as the checks see it) whose call runs a
	// subagent from start to end, in a CLI that fires no subagent events
	// (Gemini CLI's invoke_agent): its completed call in the main thread is
	// the session's delegation, for which stop asks the coordinator's log.
	DelegationTool string
	// ConfinesBy is how the CLI's shell commands reach massgen-hook's
	// sandbox: ConfineByPrefix where the CLI runs each through a prefix
	// program after its own permission checks (Claude Code's
	// CLAUDE_CODE_SHELL_PREFIX), ConfineByRewrite where the pre-tool-use
	// hook's answer rewrites the command to run through it.
	ConfinesBy string
	// RewriteForm is how the rewritten line is written, so that the
	// CLI's own shell rules, which judge the line the hook hands back,
	// still judge the agent's command in it.
	RewriteForm RewriteForm
	// RewriteAsks is what the CLI's own permissions ask of the rewritten
	// line that they would not ask of the command, which init tells the
	// user ("": nothing).
	RewriteAsks string
	// OwnSandboxVar is the variable the CLI sets when it runs, hooks
	// included, in a container sandbox of its own (Gemini CLI's --sandbox
	// sets SANDBOX to the container's name): massgen-hook's wrapper,
	// installed outside it, is not there.
	OwnSandboxVar string
}

// RewriteForm is the form of a rewritten shell line (cli/shell_rewrite.go).
type RewriteForm int

const (
	// RewritePlain: the CLI's rules are not known to read the line: the
	// wrapper, then the agent's command as one quoted word (Cursor).
	RewritePlain RewriteForm = iota
	// RewriteExecTail: the CLI's rules read a line's commands by their
	// words (Codex's execpolicy, after the hook, an allow not skipping
	// them): the wrapper is exec'd, and the agent's command follows as
	// words, never run.
	RewriteExecTail
	// RewriteKept: the CLI's rules read every command's words, and ask
	// about a program named by a path outside the project and about any
	// command no rule allows (Copilot CLI): the wrapper is named through
	// a variable, the line adds no command but its exec, and the agent's
	// command sits in a function nothing calls.
	RewriteKept
	// RewriteBashC: the CLI's rules judge a `bash -c "COMMAND"` among a
	// line's commands by COMMAND (Gemini CLI's policy engine): the line
	// keeps that form, the bash being massgen-hook's.
	RewriteBashC
)

// The routes of ConfinesBy.
const (
	ConfineByPrefix  = "prefix"
	ConfineByRewrite = "rewrite"
)

// all are the dialects, sorted by name. (A function, not a table built at
// start-up: most hook calls never look a dialect up by name.)
func all() []*Dialect { return []*Dialect{Claude, Codex, Copilot, Cursor, Gemini, OpenCode, Pi} }

// Claude is Claude Code: events and answers pass through untouched.
var Claude = &Dialect{Name: "claude", failOpenExit: protocol.ExitError, ProjectEnv: "CLAUDE_PROJECT_DIR",
	PlainContext: true, JudgesRewrites: true, ShapesOutput: true, FileToolScratchpad: true,
	ConfinesBy: ConfineByPrefix}

// eventNames pairs a CLI's event names with Claude Code's. A list, not a
// map: the dialects are package variables, and a map in one is built when
// the program starts, by every hook, whichever dialect it speaks.
type eventNames [][2]string

// get is Claude Code's name for the CLI's event name.
func (e eventNames) get(name string) (string, bool) {
	for _, pair := range e {
		if pair[0] == name {
			return pair[1], true
		}
	}
	return "", false
}

// Named returns the dialect called name.
func Named(name string) (*Dialect, error) {
	for _, d := range all() {
		if d.Name == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown dialect %q: use %s", name, strings.Join(Names(), ", "))
}

// Names lists the dialects, sorted.
func Names() []string {
	var names []string
	for _, d := range all() {
		names = append(names, d.Name)
	}
	return names
}

// Native is what the answer to one event must know of the CLI's own
// event: its name, which decides the answer's shape, and how its tool
// input was translated, so that a rewrite goes back in the CLI's terms.
type Native struct {
	Event string
	// args are the tool arguments renamed, each the CLI's name first.
	args [][2]string
	// textInput names the field that held the CLI's tool input when that
	// was text, not an object (Copilot's apply_patch): a rewrite goes
	// back as that field's text.
	textInput string
	// itemArgs are the renames inside each element of the input's "edits"
	// list (pi's edit), each the CLI's name first.
	itemArgs [][2]string
	// canAsk: the CLI can put this call's question to a person (pi with
	// a UI); elsewhere an ask is a deny.
	canAsk bool
}

// Event turns raw, an event of d's CLI, into a Claude Code event for the
// hook that handles want, and returns what the answer must know of the
// CLI's own event. An event without a name is taken to be the CLI's name
// for want: Copilot's camelCase payloads carry none.
func (d *Dialect) Event(raw []byte, want string) ([]byte, Native, error) {
	if d.in == nil {
		return raw, Native{Event: want}, nil
	}
	ev, err := decode(raw)
	if err != nil {
		// The Claude parser says what is wrong with it; the native name
		// (read past whatever is nested too deep to decode) lets a tool
		// call that cannot be read be denied in d's words.
		name := gjson.GetBytes(raw, "hook_event_name").String()
		if _, known := d.events.get(name); !known {
			name = d.nativeName(want)
		}
		return raw, Native{Event: name}, nil
	}
	n := Native{Event: ev.str("hook_event_name")}
	if n.Event == "" {
		n.Event = d.nativeName(want)
	}
	event, ok := d.events.get(n.Event)
	if !ok {
		return nil, Native{}, &protocol.InputError{Field: "hook_event_name",
			Msg: fmt.Sprintf("is %q, which is not a %s event massgen-hook handles", n.Event, d.Name)}
	}
	if d.eventOf != nil {
		event = d.eventOf(ev, event, want)
	}
	if err := d.in(ev, &n); err != nil {
		return nil, Native{}, err
	}
	ev.set("hook_event_name", event)
	out, err := json.Marshal(ev)
	if err != nil {
		return nil, Native{}, err
	}
	return out, n, nil
}

// nativeName is the CLI's name for Claude Code's event: its own spelling
// of the same name (preToolUse for PreToolUse) where it has one, not one of
// the narrower events that also map there (beforeMCPExecution).
func (d *Dialect) nativeName(event string) string {
	var names []string
	for _, pair := range d.events {
		n, e := pair[0], pair[1]
		if strings.EqualFold(n, event) {
			return n
		}
		if e == event {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return event
	}
	return names[0]
}

// Answer writes o, the answer to event, in d's shape for native. dropped
// reports agent-facing text (context, a block's reason) the CLI has no
// place for on that event: whoever handed it over (the inbox) must keep it
// for later. A user-facing warning with no place goes to notes.
func (d *Dialect) Answer(w, notes io.Writer, native Native, event string, o protocol.Output) (dropped bool, err error) {
	if d.out == nil || o.IsEmpty() {
		return false, protocol.Write(w, event, o)
	}
	o, err = protocol.Finish(event, o)
	if err != nil {
		return false, err
	}
	answer, dropped := d.out(native, o)
	switch a := answer.(type) {
	case protocol.Output:
		return dropped, protocol.Write(w, event, a)
	case object:
		if msg, ok := a["systemMessage"]; ok && !d.systemMessage {
			delete(a, "systemMessage")
			fmt.Fprintf(notes, "massgen-hook: %s has no place for a warning on %s: %s\n", d.Name, native.Event, msg)
		}
		if len(a) == 0 {
			return dropped, nil
		}
		return dropped, writeJSON(w, a)
	}
	return dropped, fmt.Errorf("dialect %s: no answer for %s", d.Name, native.Event)
}

// ShowsWarnings reports whether d's CLI shows the user a top-level
// systemMessage; where it does not, warnings go to stderr.
func (d *Dialect) ShowsWarnings() bool { return d.out == nil || d.systemMessage }

// Exit maps the exit status of a failed hook run for event (1 fail open,
// 2 fail closed) to d's CLI.
func (d *Dialect) Exit(code int, event string) int {
	if code == protocol.ExitError || (code == protocol.ExitBlock && slices.Contains(d.failOpenOnly, event)) {
		return d.failOpenExit
	}
	return code
}
