// Package doctor holds the pure checks of `massgen-hook doctor`: what is
// wrong with one hook handler as Claude Code's settings wire it (its event
// name, matcher, timeout and command), and which handlers run the same thing
// twice. It reads files only to look at the programs a command names; it
// runs nothing.
package doctor

// Severity says whether a finding makes the setup unhealthy.
type Severity string

const (
	// Problem is something that does not work as written: it counts
	// towards doctor's exit status 1.
	Problem Severity = "problem"
	// Note is something doctor cannot check, or that works but is odd.
	Note Severity = "note"
)

// Issue is one thing wrong with a value: how bad, and one sentence that
// says what and how to fix it.
type Issue struct {
	Severity Severity
	Message  string
}

func problem(msg string) Issue { return Issue{Severity: Problem, Message: msg} }
func note(msg string) Issue    { return Issue{Severity: Note, Message: msg} }

// Finding is an Issue placed in a file.
type Finding struct {
	Severity Severity `json:"severity"`
	// Scope is user, project, local, config or timing.
	Scope string `json:"scope"`
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	// Field names the JSON field, like hooks.PreToolUse[0].hooks[1].timeout.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}
