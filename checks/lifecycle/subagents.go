package lifecycle

import (
	"hash/fnv"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
	"github.com/massgen/massgen-hook/state"
)

// subagentsRecord is the session record of its subagents.
const subagentsRecord = "subagents"

// ledger is one session's subagents, by agent_id: what each found when it
// started and how it ended. It is what lets subagent-stop ask whether THIS
// subagent wrote its file (a second subagent of one type on one day would
// otherwise pass on the first one's file), and stop ask whether THIS
// session delegated (not whether any session wrote a scratchpad today).
type ledger struct {
	Agents map[string]*subagent `json:"agents"`
}

// subagent is one subagent of the session.
type subagent struct {
	// Type is the agent type as the events gave it ("" when they never
	// did); Dir its scratchpad folder.
	Type string `json:"type"`
	Dir  string `json:"dir"`
	// Day is the day of the file Start stamps.
	Day string `json:"day"`
	// Start is the subagent's scratchpad when it started; nil when its
	// start was not seen (hooks installed mid-session, or a CLI that fires
	// no SubagentStart).
	Start *scratchpad.Stamp `json:"start,omitempty"`
	// Coordinator is the coordinator's scratchpad for Day when the
	// subagent started (or, start unseen, first stopped): the main
	// thread's log of it must be written after that.
	Coordinator scratchpad.Stamp `json:"coordinator"`
	Exempt      bool             `json:"exempt,omitempty"`
	// Outcome is "" while it runs, then done (the check passed), released
	// (let go by the stop cap without meeting the protocol) or exempt.
	Outcome string `json:"outcome,omitempty"`
	// Skipped is, for a released subagent, what it did not do.
	Skipped string `json:"skipped,omitempty"`
	// Logged: a stop of the main thread has accounted for it.
	Logged bool `json:"logged,omitempty"`
}

// Subagent outcomes.
const (
	outcomeDone     = "done"
	outcomeReleased = "released"
	outcomeExempt   = "exempt"
)

// delegated reports whether the main thread owes a log entry for s: it
// did the protocol's work (or should have) and has ended, and no stop has
// accounted for it yet.
func (s *subagent) delegated() bool {
	return !s.Exempt && !s.Logged && (s.Outcome == outcomeDone || s.Outcome == outcomeReleased)
}

// readLedger reads the session's ledger; an absent or unreadable one is
// empty (its failure noted): the checks then fall back to what they can
// see without it.
func readLedger(env *hookenv.Env, session string) ledger {
	var l ledger
	if _, err := env.State.ReadJSON(state.SessionRecord(session, subagentsRecord), &l); err != nil {
		env.Note("reading the session's subagents: %v", err)
	}
	return l
}

// knowSession records, at a session's start, that the hooks know it: its
// stop is then judged by its own ledger (what it delegated), never by
// another session's scratchpads. A session the hooks never saw start (the
// seed's {} on stdin, hooks wired mid-session) falls back to the seed's
// sentinel detection (see knownLedger).
func knowSession(env *hookenv.Env, session string) {
	if session == "" || env.DryRun {
		return
	}
	var known ledger
	if env.State.Peek(state.SessionRecord(session, subagentsRecord), &known) && known.Agents != nil {
		// Known already (a resumed or compacted session): nothing to
		// write, so no lock to take. Once known, a ledger stays known.
		return
	}
	var l ledger
	err := env.State.UpdateSession(session, subagentsRecord, &l, func() (bool, error) {
		if l.Agents != nil {
			return false, nil // known already: a resumed or compacted session
		}
		l.Agents = map[string]*subagent{}
		return true, nil
	})
	if err != nil {
		env.Note("recording the session's start: %v; its stop is judged by today's scratchpads", err)
	}
}

// updateLedger changes the session's ledger under its lock.
func updateLedger(env *hookenv.Env, session string, fn func(l *ledger) bool) error {
	var l ledger
	return env.State.UpdateSession(session, subagentsRecord, &l, func() (bool, error) {
		if l.Agents == nil {
			l.Agents = map[string]*subagent{}
		}
		return fn(&l), nil
	})
}

// stampLedger writes the ledger's entry id (an agent_id, or a delegation
// call's id) under its lock, stamped with day and the coordinator's
// scratchpad for day as it is now: the main thread's log of the subagent
// must be written after that. entry gets the entry the ledger has (nil when
// none) and the coordinator's stamp, and returns the entry to keep, or nil
// to leave the ledger unwritten.
func stampLedger(env *hookenv.Env, session, id, day string, entry func(old *subagent, coord scratchpad.Stamp) *subagent) error {
	coord, err := env.Layout.StampOf(env.Layout.File(scratchpad.CoordinatorDir, day))
	if err != nil {
		return err
	}
	return updateLedger(env, session, func(l *ledger) bool {
		s := entry(l.Agents[id], coord)
		if s == nil {
			return false
		}
		l.Agents[id] = s
		return true
	})
}

// recordStart notes a subagent's start: its scratchpad (start, as
// stamped for today, or the error that stamping met) and the coordinator's
// as they are now. A failure is noted and the hook goes on: the stop then
// judges by the date alone.
func recordStart(env *hookenv.Env, ev *protocol.Event, dir string, exempt bool, start scratchpad.Stamp, err error) {
	if ev.AgentID == "" {
		return
	}
	day := env.Today()
	if err == nil {
		err = stampLedger(env, ev.SessionID, ev.AgentID, day, func(_ *subagent, coord scratchpad.Stamp) *subagent {
			return &subagent{Type: ev.AgentType, Dir: dir, Day: day, Start: &start, Coordinator: coord, Exempt: exempt}
		})
	}
	if err != nil {
		env.Note("could not record the start of subagent %s (%s): %v; its stop is judged by today's file alone", ev.AgentID, scratchpad.DisplayName(dir), err)
	}
}

// recordStop notes how a subagent's stop ended, adding it to the ledger
// when its start was not seen, so the main thread's stop still counts it.
// known is its record as last read: when it already says so, nothing is
// written.
func recordStop(env *hookenv.Env, ev *protocol.Event, known *subagent, dir string, exempt bool, outcome, skipped string) {
	if ev.AgentID == "" || known != nil && known.Outcome == outcome && known.Skipped == skipped {
		return
	}
	day := env.Today()
	err := stampLedger(env, ev.SessionID, ev.AgentID, day, func(s *subagent, coord scratchpad.Stamp) *subagent {
		if s == nil {
			s = &subagent{Type: ev.AgentType, Dir: dir, Day: day, Coordinator: coord, Exempt: exempt}
		}
		s.Outcome, s.Skipped = outcome, skipped
		return s
	})
	if err != nil {
		env.Note("could not record the stop of subagent %s (%s): %v", ev.AgentID, scratchpad.DisplayName(dir), err)
	}
}

// RecordDelegation notes a subagent's whole run seen as one completed call
// of the delegation tool (Gemini CLI's invoke_agent, whose agent_name is
// the agent type), in a CLI that fires no subagent events: the main
// thread's stop then owes the coordinator's log for it. Its id is the
// call's (tool_use_id, else the event's hash), so a hook run twice for one
// call counts it once. A failure is noted; the stop then does not ask.
func RecordDelegation(env *hookenv.Env, ev *protocol.Event) {
	agentType := gjson.GetBytes(ev.ToolInput, "agent_name").String()
	dir, err := scratchpad.DirName(agentType, env.Config.Scratchpad.DefaultAgent)
	if err != nil {
		env.Note("delegation to %q not recorded: %v", agentType, err)
		return
	}
	id := ev.ToolUseID
	if id == "" {
		h := fnv.New64a()
		h.Write(ev.Raw) // the event's timestamp tells two calls apart
		id = "call-" + strconv.FormatUint(h.Sum64(), 16)
	}
	day := env.Today()
	exempt := env.Config.Scratchpad.Exempt(agentType)
	err = stampLedger(env, ev.SessionID, id, day, func(old *subagent, coord scratchpad.Stamp) *subagent {
		if old != nil {
			return nil // counted already: this call's hook ran before
		}
		return &subagent{Type: agentType, Dir: dir, Day: day, Coordinator: coord, Exempt: exempt, Outcome: outcomeDone}
	})
	if err != nil {
		env.Note("could not record the delegation to %s: %v; the stop does not ask for the coordinator's log for it", scratchpad.DisplayName(dir), err)
	}
}
