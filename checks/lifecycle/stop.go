package lifecycle

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
	"github.com/massgen/massgen-hook/state"
)

// mainThread is the loop-cap key of the session's main thread.
const mainThread = "main"

// Stop lets the main session end unless THIS session delegated work (a
// subagent it ran, other than an exempt one, has ended since the last
// stop that passed) and the coordinator's scratchpad
// for today has not been written since that subagent started. Scratchpads
// other sessions wrote today do not count: they are not this session's
// delegation, and a log written before the work was delegated does not
// log it. While background tasks are still running the turn is not over
// (Claude Code will wake the session when they finish), so Stop waits for
// the final stop before it asks for the log. The subagents' notices (one
// let go at the stop cap) block the stop once, so the coordinator hears of
// them.
//
// A stop that names a subagent is that subagent's: Copilot CLI fires
// agentStop inside a subagent too, just before its subagentStop, and does
// not act on the answer there. subagent-stop judges the subagent; here it
// must neither be asked for the coordinator's log nor be handed late inbox
// messages, which would be lost.
func Stop(env *hookenv.Env, ev *protocol.Event) (protocol.Output, error) {
	if ev.AgentID != "" {
		return protocol.Output{}, nil
	}
	reason, owed, err := stopProblem(env, ev)
	if err != nil {
		return protocol.Output{}, err
	}
	out, outcome, err := capStopsWithLate(env, ev, mainThread, "the session", reason, true)
	if err == nil && outcome == stopPassed && len(owed) > 0 {
		// Logged. (Let go at the cap, they are still owed: the next
		// turn's stop asks again, as for any log still missing.)
		if err := updateLedger(env, ev.SessionID, func(l *ledger) bool {
			for _, id := range owed {
				if s := l.Agents[id]; s != nil {
					s.Logged = true
				}
			}
			return true
		}); err != nil {
			env.Note("could not mark this session's subagents as logged: %v; the next stop asks again", err)
		}
	}
	return out, err
}

// knownLedger reads the session's ledger, and whether there is one: a
// session none of whose subagents the hooks saw (the seed's `{}` has no
// session at all) has none.
func knownLedger(env *hookenv.Env, session string) (ledger, bool) {
	var l ledger
	if session == "" {
		return l, false
	}
	ok, err := env.State.ReadJSON(state.SessionRecord(session, subagentsRecord), &l)
	if err != nil {
		env.Note("reading the session's subagents: %v; judging by today's scratchpads", err)
	}
	return l, ok && err == nil
}

// sentinelProblem is the seed's sentinel detection, for a stop whose
// session the ledger does not know: a subagent's scratchpad dated day (the
// coordinator's and the ego's aside) says work was delegated, and then the
// coordinator's scratchpad for day must hold more than white space.
func sentinelProblem(env *hookenv.Env, day string) (string, error) {
	dirs, err := env.Layout.Delegated(day)
	if err != nil {
		return "", fmt.Errorf("cannot list the scratchpads for %s: %w", day, err)
	}
	if len(dirs) == 0 {
		return "", nil
	}
	written, _, rel, problem, err := coordinatorWritten(env, day)
	if written || problem != "" || err != nil {
		return problem, err
	}
	names := make([]string, len(dirs))
	for i, d := range dirs {
		names[i] = scratchpad.DisplayName(d)
	}
	return fmt.Sprintf("Multi-agent delegation detected (subagent scratchpads for today: %s) but no coordinator scratchpad for today. "+
		"Write %s (what you delegated, to whom, and what came back) before ending the session.", strings.Join(names, ", "), rel), nil
}

// stopProblem is why the main session may not end yet, or "", with the
// agent_ids of the subagents the coordinator owes a log entry for.
func stopProblem(env *hookenv.Env, ev *protocol.Event) (string, []string, error) {
	if ev.BackgroundTasks > 0 {
		env.Note("stop: %d background task(s) still running; the coordinator scratchpad is checked at the final stop", ev.BackgroundTasks)
		return "", nil, nil
	}
	l, known := knownLedger(env, ev.SessionID)
	if !known {
		reason, err := sentinelProblem(env, env.Today())
		return reason, nil, err
	}
	var owed []string
	for id, s := range l.Agents {
		if s.delegated() {
			owed = append(owed, id)
		}
	}
	if len(owed) == 0 {
		return "", nil, nil
	}
	slices.Sort(owed)
	reason, err := coordinatorProblem(env, env.Today(), l, owed)
	return reason, owed, err
}

// coordinatorWritten reads the coordinator's scratchpad for day: written
// when it holds more than white space (a missing file, or one that is no
// regular file, is not written), with the stamp of what was read; rel is
// its path for messages; problem is the stop's reason when the file is too
// large to judge.
func coordinatorWritten(env *hookenv.Env, day string) (written bool, stamp scratchpad.Stamp, rel, problem string, err error) {
	path := env.Layout.File(scratchpad.CoordinatorDir, day)
	rel = env.Layout.Rel(path)
	content, stamp, err := env.Layout.ReadStamped(path)
	var notFile *scratchpad.NotFileError
	var tooLarge *scratchpad.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.As(err, &notFile):
		return false, scratchpad.Stamp{}, rel, "", nil
	case errors.As(err, &tooLarge):
		return false, scratchpad.Stamp{}, rel, tooLargeReason(rel, tooLarge), nil
	case err != nil:
		return false, scratchpad.Stamp{}, rel, "", fmt.Errorf("cannot read coordinator scratchpad %s: %w", rel, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(string(content), "\uFEFF")) != "", stamp, rel, "", nil
}

// coordinatorProblem is why the coordinator's scratchpad for day does not
// log the subagents owed, or "": it must hold more than white space and
// have changed since each of them started (on day).
func coordinatorProblem(env *hookenv.Env, day string, l ledger, owed []string) (string, error) {
	var names []string
	for _, id := range owed {
		s := l.Agents[id]
		name := scratchpad.DisplayName(s.Dir)
		if s.Outcome == outcomeReleased {
			name += " (let go without completing its scratchpad)"
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	who := strings.Join(names, ", ")
	written, now, rel, problem, err := coordinatorWritten(env, day)
	switch {
	case problem != "" || err != nil:
		return problem, err
	case written:
		for _, id := range owed {
			if s := l.Agents[id]; s.Day == day && s.Coordinator == now {
				return fmt.Sprintf("This session delegated work (subagents: %s) but the coordinator scratchpad %s has not been written since they started. "+
					"Add to it what you delegated, to whom, and what came back, before ending the session.", who, rel), nil
			}
		}
		return "", nil
	}
	return fmt.Sprintf("Multi-agent delegation detected (this session's subagents: %s) but no coordinator scratchpad for today. "+
		"Write %s (what you delegated, to whom, and what came back) before ending the session.", who, rel), nil
}
