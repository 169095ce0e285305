package checks

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

// SubagentStop lets a subagent finish only when its scratchpad for today
// exists and has every required heading. A file that is missing, incomplete
// or not a file blocks (the agent can fix it); a file the hook cannot read
// is an error, so the agent is not trapped by a fault it cannot fix.
func SubagentStop(env *Env, ev *protocol.Event) (protocol.Output, error) {
	dir, err := scratchpad.DirName(ev.AgentType, env.Config.Scratchpad.DefaultAgent)
	if err != nil {
		return protocol.Output{}, &protocol.InputError{Field: "agent_type", Msg: err.Error()}
	}
	path := env.Layout.File(dir, env.Today())
	reason, err := env.scratchpadProblem(path)
	if err != nil {
		return protocol.Output{}, err
	}
	agent := ev.AgentID
	if agent == "" {
		agent = dir
	}
	return env.capStopsWithLate(ev, agent, "subagent "+scratchpad.DisplayName(dir), reason)
}

// scratchpadProblem returns why the scratchpad at path does not meet the
// protocol, or "" when it does.
func (env *Env) scratchpadProblem(path string) (string, error) {
	rel := env.Layout.Rel(path)
	required := env.Config.Scratchpad.RequiredSections
	content, err := env.Layout.ReadFile(path)
	var notFile *scratchpad.NotFileError
	var tooLarge *scratchpad.TooLargeError
	var escape *scratchpad.EscapeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("Scratchpad missing. Before completing, write %s with these Markdown headings: %s.",
			rel, headingList(required)), nil
	case errors.As(err, &notFile):
		return fmt.Sprintf("Scratchpad %s is %s, not a file. Replace it with a Markdown file that has these headings: %s.",
			rel, notFile.What(), headingList(required)), nil
	case errors.As(err, &tooLarge):
		return tooLargeReason(rel, tooLarge) + fmt.Sprintf(" It must have these headings: %s.", headingList(required)), nil
	case errors.As(err, &escape):
		return "", &protocol.InputError{Field: "agent_type", Msg: err.Error()}
	case err != nil:
		return "", fmt.Errorf("cannot read scratchpad %s: %w", rel, err)
	}
	missing := scratchpad.MissingSections(content, required)
	if len(missing) == 0 {
		return "", nil
	}
	return fmt.Sprintf("Scratchpad incomplete: %s lacks %s. Add each as a Markdown heading line (for example \"## %s\"), outside code blocks, before completing.",
		rel, headingList(missing), missing[0]), nil
}

// tooLargeReason tells the agent a scratchpad is over what the hook reads:
// a fault it can fix, so the stop is blocked rather than let through.
func tooLargeReason(rel string, e *scratchpad.TooLargeError) string {
	return fmt.Sprintf("Scratchpad %s is too large to check (%.1f MiB; at most %d MiB is read). Shorten it: a scratchpad is a summary, not a dump.",
		rel, float64(e.Size)/(1<<20), scratchpad.MaxFileBytes>>20)
}

func headingList(hs []string) string {
	quoted := make([]string, len(hs))
	for i, h := range hs {
		quoted[i] = "## " + h
	}
	return strings.Join(quoted, ", ")
}
