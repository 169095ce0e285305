package checks

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

// mainThread is the loop-cap key of the session's main thread.
const mainThread = "main"

// Stop lets the main session end unless it delegated work today (some
// subagent wrote a scratchpad for today) without writing the coordinator's
// scratchpad for today. While background tasks are still running the turn is
// not over (Claude Code will wake the session when they finish), so Stop
// waits for the final stop before it asks for the log.
func Stop(env *Env, ev *protocol.Event) (protocol.Output, error) {
	reason, err := env.stopProblem(ev)
	if err != nil {
		return protocol.Output{}, err
	}
	return env.capStopsWithLate(ev, mainThread, "the session", reason)
}

// stopProblem is why the main session may not end yet, or "".
func (env *Env) stopProblem(ev *protocol.Event) (string, error) {
	if ev.BackgroundTasks > 0 {
		env.note("stop: %d background task(s) still running; the coordinator scratchpad is checked at the final stop", ev.BackgroundTasks)
		return "", nil
	}
	day := env.Today()
	agents, err := env.Layout.Delegated(day)
	if err != nil {
		return "", fmt.Errorf("looking for today's subagent scratchpads: %w", err)
	}
	if len(agents) == 0 {
		return "", nil
	}
	return env.coordinatorProblem(day, agents)
}

func (env *Env) coordinatorProblem(day string, agents []string) (string, error) {
	path := env.Layout.File(scratchpad.CoordinatorDir, day)
	rel := env.Layout.Rel(path)
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = scratchpad.DisplayName(a)
	}
	content, err := env.Layout.ReadFile(path)
	var notFile *scratchpad.NotFileError
	var tooLarge *scratchpad.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.As(err, &notFile):
	case errors.As(err, &tooLarge):
		return tooLargeReason(rel, tooLarge), nil
	case err != nil:
		return "", fmt.Errorf("cannot read coordinator scratchpad %s: %w", rel, err)
	case strings.TrimSpace(strings.TrimPrefix(string(content), "\uFEFF")) != "":
		return "", nil
	}
	return fmt.Sprintf("Multi-agent delegation detected (today's scratchpads from: %s) but no coordinator scratchpad for today. "+
		"Write %s (what you delegated, to whom, and what came back) before ending the session.",
		strings.Join(names, ", "), rel), nil
}
