package lifecycle

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

// SubagentStop lets a subagent finish only when its scratchpad for today
// exists, has every required heading, and was written by THIS subagent:
// it changed since the subagent started (its stamp at SubagentStart), so a
// second subagent of one type on one day does not pass on the first one's
// file. A subagent whose start was not seen (hooks installed mid-session,
// a CLI that fires no SubagentStart) is judged by today's file alone, with
// a note. An exempt agent type (no tool to write with) passes. A file that
// is missing, incomplete, unchanged or not a file blocks (the agent can fix
// it); a file the hook cannot read is an error, so the agent is not trapped
// by a fault it cannot fix. How it ended goes in the session's ledger; a
// subagent let go at the stop cap leaves a notice for the main thread.
func SubagentStop(env *hookenv.Env, ev *protocol.Event) (protocol.Output, error) {
	var rec *subagent
	if ev.AgentID != "" {
		rec = readLedger(env, ev.SessionID).Agents[ev.AgentID]
	}
	agentType := ev.AgentType
	if agentType == "" && rec != nil {
		// Claude Code sends "" on SubagentStop at times; its start said.
		agentType = rec.Type
	}
	dir, err := scratchpad.DirName(agentType, env.Config.Scratchpad.DefaultAgent)
	if err != nil {
		return protocol.Output{}, &protocol.InputError{Field: "agent_type", Msg: err.Error()}
	}
	exempt := env.Config.Scratchpad.Exempt(agentType)
	reason := ""
	if !exempt {
		path := env.Layout.File(dir, env.Today())
		var now scratchpad.Stamp
		if reason, now, err = scratchpadProblem(env, path); err != nil {
			return protocol.Output{}, err
		}
		if reason == "" {
			reason = writtenSinceStart(env, ev, rec, dir, path, now)
		}
	}
	key := ev.AgentID
	if key == "" {
		key = dir
	}
	label := "subagent " + scratchpad.DisplayName(dir)
	out, outcome, err := capStopsWithLate(env, ev, key, label, reason, false)
	if err != nil {
		return out, err
	}
	switch {
	case outcome == stopReleased && reason != "":
		recordStop(env, ev, rec, dir, exempt, outcomeReleased, reason)
		noticeRelease(env, ev, dir, reason)
	case outcome == stopBlocked:
		recordStop(env, ev, rec, dir, exempt, "", "")
	case exempt:
		recordStop(env, ev, rec, dir, exempt, outcomeExempt, "")
	default:
		recordStop(env, ev, rec, dir, exempt, outcomeDone, "")
	}
	return out, nil
}

// writtenSinceStart is why the scratchpad at path, complete as it is (now
// its stamp as read for that), does not count for the subagent of ev: it
// is unchanged since the subagent started. "" when it changed, or when the
// start is unknown (noted).
func writtenSinceStart(env *hookenv.Env, ev *protocol.Event, rec *subagent, dir, path string, now scratchpad.Stamp) string {
	day := env.Today()
	switch {
	case ev.AgentID == "":
		return "" // an event without agent_id (2025 and older): by the date alone
	case rec == nil || rec.Start == nil:
		env.Note("subagent-stop: no recorded start for subagent %s (%s): hooks installed mid-session, or SubagentStart not wired; today's scratchpad is accepted as it stands",
			ev.AgentID, scratchpad.DisplayName(dir))
		return ""
	case rec.Day != day || rec.Dir != dir:
		env.Note("subagent-stop: subagent %s started on %s as %s; today's scratchpad is accepted as it stands",
			ev.AgentID, rec.Day, scratchpad.DisplayName(rec.Dir))
		return ""
	}
	if now != *rec.Start {
		return ""
	}
	return fmt.Sprintf("Scratchpad %s has not changed since you started: what it holds was written before you, by another %s agent or an earlier run. "+
		"Add your own entry to it (keep what is there) under these Markdown headings: %s.",
		env.Layout.Rel(path), scratchpad.DisplayName(dir), headingList(env.Config.Scratchpad.RequiredSections))
}

// noticeRelease tells the main thread that a subagent was let go without
// meeting the protocol: its own warning (a systemMessage) is not shown to
// the coordinator, nor anywhere in a headless run.
func noticeRelease(env *hookenv.Env, ev *protocol.Event, dir, reason string) {
	id := ev.AgentID
	if id == "" {
		id = "unknown id"
	}
	text := "massgen-hook: subagent " + scratchpad.DisplayName(dir) + " (agent_id " + id + ") was let go after " +
		strconv.Itoa(env.Config.Scratchpad.BlockCap) + " blocked stops without completing the scratchpad protocol. " +
		"It was last told: " + strconv.Quote(reason) + " Its scratchpad does not hold its work: record in yours what it did and what it left undone."
	if err := env.AddNotice(ev.SessionID, text); err != nil {
		env.Note("could not leave the main thread a notice of subagent %s's release: %v (the audit trail has it)", id, err)
	}
}

// scratchpadProblem returns why the scratchpad at path does not meet the
// protocol, or "" when it does, with the stamp of the file it read: the
// stop asks next whether it changed, of the same read.
func scratchpadProblem(env *hookenv.Env, path string) (string, scratchpad.Stamp, error) {
	rel := env.Layout.Rel(path)
	required := env.Config.Scratchpad.RequiredSections
	content, stamp, err := env.Layout.ReadStamped(path)
	var notFile *scratchpad.NotFileError
	var tooLarge *scratchpad.TooLargeError
	var escape *scratchpad.EscapeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "Scratchpad missing. Before completing, write " + rel + " with these Markdown headings: " +
			headingList(required) + ".", scratchpad.Stamp{}, nil
	case errors.As(err, &notFile):
		return fmt.Sprintf("Scratchpad %s is %s, not a file. Replace it with a Markdown file that has these headings: %s.",
			rel, notFile.What(), headingList(required)), scratchpad.Stamp{}, nil
	case errors.As(err, &tooLarge):
		return tooLargeReason(rel, tooLarge) + fmt.Sprintf(" It must have these headings: %s.", headingList(required)), scratchpad.Stamp{}, nil
	case errors.As(err, &escape):
		return "", scratchpad.Stamp{}, &protocol.InputError{Field: "agent_type", Msg: err.Error()}
	case err != nil:
		return "", scratchpad.Stamp{}, fmt.Errorf("cannot read scratchpad %s: %w", rel, err)
	}
	missing := scratchpad.MissingSections(content, required)
	if len(missing) == 0 {
		return "", stamp, nil
	}
	return fmt.Sprintf("Scratchpad incomplete: %s lacks %s. Add each as a Markdown heading line (for example \"## %s\"), outside code blocks, before completing.",
		rel, headingList(missing), missing[0]), scratchpad.Stamp{}, nil
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
