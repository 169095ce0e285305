package lifecycle

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// stopRecord counts one agent's consecutive blocked stops in one session.
type stopRecord struct {
	Blocks int    `json:"blocks"`
	Reason string `json:"last_reason,omitempty"`
}

// capStopsWithLate is capStops with the inbox's late messages: the agent's
// messages that expired before a tool call could carry them block its stop
// once, beside the protocol's own reason, and the block counts toward the
// cap. When the cap lets the agent go, they stay undelivered, for the next
// session start or stop, and `massgen-hook inbox` shows them. The main
// thread's stop also carries its subagents' notices (withNotices), on the
// same terms.
func capStopsWithLate(env *hookenv.Env, ev *protocol.Event, agent, label, reason string, withNotices bool) (protocol.Output, stopOutcome, error) {
	why := stopReason{protocol: reason}
	var settles []func(bool)
	if late := env.LateMessages(ev); late != nil {
		why.late, why.lateCount = late.Text(), len(late.Items)
		settles = append(settles, late.Settle)
	}
	if withNotices {
		var settle func(bool)
		if why.notices, settle = env.TakeNotices(ev); settle != nil {
			settles = append(settles, settle)
		}
	}
	out, outcome, err := capStops(env, ev, agent, label, why)
	for _, settle := range settles {
		if err == nil && outcome == stopBlocked {
			env.OnAnswer(settle)
		} else {
			settle(false)
		}
	}
	return out, outcome, err
}

// stopOutcome is what a stop check did: let the agent stop, block it, or
// let it go at the cap.
type stopOutcome int

const (
	stopPassed stopOutcome = iota
	stopBlocked
	stopReleased
)

// stopReason is why a stop is blocked: the protocol's own reason, the
// subagents' notices, and the inbox's late messages (told to the agent,
// but only counted when the user is told of a release: they are addressed
// to the agent).
type stopReason struct {
	protocol  string
	notices   string
	late      string
	lateCount int
}

func (r stopReason) forAgent() string { return protocol.Paragraphs(r.protocol, r.notices, r.late) }

// forUser says what was not done when the cap let the agent go.
func (r stopReason) forUser() string {
	var parts []string
	if r.protocol != "" {
		parts = append(parts, "the scratchpad protocol was NOT met: "+r.protocol)
	}
	if r.lateCount > 0 {
		parts = append(parts, fmt.Sprintf("%d inbox message(s) are still undelivered (see massgen-hook inbox)", r.lateCount))
	}
	return strings.Join(parts, "; ")
}

// capStops turns a stop check's verdict into the hook's answer, keeping the
// loop guard: a stop hook that blocks forever traps the user (Claude Code
// only gives up after 8 blocks), so after block_cap blocks in a row the agent
// is let go with a systemMessage saying the protocol was not met, and the
// release is recorded in the audit trail. A pass resets the count.
//
// agent keys the count (a subagent's agent_id, so two parallel subagents of
// one type are counted apart); label names the agent in the message.
func capStops(env *hookenv.Env, ev *protocol.Event, agent, label string, why stopReason) (protocol.Output, stopOutcome, error) {
	name := "sessions/" + state.Key(ev.SessionID) + "/stop-" + state.Key(agent) + ".json"
	reason := why.forAgent()
	if reason == "" {
		if err := env.State.Remove(name); err != nil {
			env.Note("could not reset the stop counter: %v", err)
		}
		return protocol.Output{}, stopPassed, nil
	}
	limit := env.Config.Scratchpad.BlockCap
	released := 0
	err := env.State.Update(name, func(old []byte) ([]byte, error) {
		var rec stopRecord
		if len(old) > 0 && json.Unmarshal(old, &rec) != nil {
			env.Note("stop counter %s was corrupt; starting again from 0", name)
			rec = stopRecord{}
		}
		if rec.Blocks >= limit {
			released = rec.Blocks
			return nil, nil
		}
		rec.Blocks++
		rec.Reason = reason
		return json.Marshal(rec)
	})
	if err != nil {
		// Without the counter the cap cannot be kept; blocking anyway could
		// trap the agent, so this is an error (fail open unless fail_closed).
		return protocol.Output{}, stopPassed, fmt.Errorf("stop loop guard: %w", err)
	}
	if released == 0 {
		return protocol.Block(reason), stopBlocked, nil
	}
	msg := fmt.Sprintf("massgen-hook: let %s stop after %d blocked attempts; %s", label, released, why.forUser())
	if err := env.State.Audit(releaseRecord{
		Time: env.Now.UTC().Format(time.RFC3339), Event: ev.HookEventName, Session: ev.SessionID,
		Agent: agent, Who: label, Rule: "scratchpad.block_cap", Outcome: "released", Blocks: released, Reason: why.forUser(),
	}); err != nil {
		env.Note("could not record the release: %v", err)
	}
	return protocol.Output{SystemMessage: msg}, stopReleased, nil
}

// releaseRecord is the audit line of a stop the cap let go. Agent is the
// count's key (a subagent's agent_id, or "main"); Who names it.
type releaseRecord struct {
	Time    string `json:"time"`
	Event   string `json:"event"`
	Session string `json:"session"`
	Agent   string `json:"agent"`
	Who     string `json:"who"`
	Rule    string `json:"rule"`
	Outcome string `json:"outcome"`
	Blocks  int    `json:"blocks"`
	Reason  string `json:"reason"`
}
