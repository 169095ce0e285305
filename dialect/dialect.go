// Package dialect lets the same hooks serve other agent CLIs: it turns an
// event from Cursor, Gemini CLI, Codex or Copilot CLI into Claude Code's
// shape, and Claude Code's answer back into theirs, with their exit codes
// (../shared/PROTOCOL.md §3). Everything between works on Claude Code's
// protocol alone.
package dialect

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/protocol"
)

// Dialect is one agent CLI's hook protocol.
type Dialect struct {
	Name string
	// events maps the CLI's event names to Claude Code's.
	events map[string]string
	// in rewrites a decoded event into Claude Code's fields; native is the
	// CLI's event name.
	in func(ev object, native string) error
	// out builds the CLI's answer from Claude Code's (already checked and
	// capped). dropped reports agent-facing text it has no place for.
	// It is an object, or a protocol.Output for Claude Code's own shape.
	out func(native string, o protocol.Output) (answer any, dropped bool)
	// systemMessage reports that the CLI shows Claude Code's top-level
	// systemMessage warning; elsewhere it goes to stderr.
	systemMessage bool
	// failOpenExit is the status that lets the action go on after a
	// failure: 1 nearly everywhere, 0 where any other exit blocks.
	failOpenExit int
	// ProjectEnv names the variable the CLI sets to the project root.
	ProjectEnv string
}

var all = map[string]*Dialect{}

func register(d *Dialect) *Dialect {
	all[d.Name] = d
	return d
}

// Claude is Claude Code: events and answers pass through untouched.
var Claude = register(&Dialect{Name: "claude", failOpenExit: protocol.ExitError, ProjectEnv: "CLAUDE_PROJECT_DIR"})

// Named returns the dialect called name.
func Named(name string) (*Dialect, error) {
	if d, ok := all[name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("unknown dialect %q: use %s", name, strings.Join(Names(), ", "))
}

// Names lists the dialects, sorted.
func Names() []string { return slices.Sorted(maps.Keys(all)) }

// Event turns raw, an event of d's CLI, into a Claude Code event for the
// hook that handles want, and returns the CLI's own name for it (which
// decides the answer's shape). An event without a name is taken to be the
// CLI's name for want: Copilot's camelCase payloads carry none.
func (d *Dialect) Event(raw []byte, want string) ([]byte, string, error) {
	if d.in == nil {
		return raw, want, nil
	}
	ev, err := decode(raw)
	if err != nil {
		return raw, want, nil // the Claude parser says what is wrong with it
	}
	native := ev.str("hook_event_name")
	if native == "" {
		native = d.nativeName(want)
	}
	event, ok := d.events[native]
	if !ok {
		return nil, "", &protocol.InputError{Field: "hook_event_name",
			Msg: fmt.Sprintf("is %q, which is not a %s event massgen-hook handles", native, d.Name)}
	}
	if err := d.in(ev, native); err != nil {
		return nil, "", err
	}
	ev.set("hook_event_name", event)
	out, err := json.Marshal(ev)
	if err != nil {
		return nil, "", err
	}
	return out, native, nil
}

// nativeName is the CLI's name for Claude Code's event: its own spelling
// of the same name (preToolUse for PreToolUse) where it has one, not one of
// the narrower events that also map there (beforeMCPExecution).
func (d *Dialect) nativeName(event string) string {
	var names []string
	for n, e := range d.events {
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
func (d *Dialect) Answer(w, notes io.Writer, native, event string, o protocol.Output) (dropped bool, err error) {
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
			fmt.Fprintf(notes, "massgen-hook: %s has no place for a warning on %s: %s\n", d.Name, native, msg)
		}
		if len(a) == 0 {
			return dropped, nil
		}
		return dropped, writeJSON(w, a)
	}
	return dropped, fmt.Errorf("dialect %s: no answer for %s", d.Name, native)
}

// Exit maps the exit status of a hook run (0, 1 fail open, 2 block) to
// d's CLI.
func (d *Dialect) Exit(code int) int {
	if code == protocol.ExitError {
		return d.failOpenExit
	}
	return code
}
