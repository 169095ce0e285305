package checks

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// stopRecord counts one agent's consecutive blocked stops in one session.
type stopRecord struct {
	Blocks int    `json:"blocks"`
	Reason string `json:"last_reason,omitempty"`
}

// capStops turns a stop check's verdict into the hook's answer, keeping the
// loop guard: a stop hook that blocks forever traps the user (Claude Code
// only gives up after 8 blocks), so after block_cap blocks in a row the agent
// is let go with a systemMessage saying the protocol was not met, and the
// release is recorded in the audit trail. A pass resets the count.
//
// agent keys the count (a subagent's agent_id, so two parallel subagents of
// one type are counted apart); label names the agent in the message.
func (env *Env) capStops(ev *protocol.Event, agent, label, reason string) (protocol.Output, error) {
	name := "sessions/" + state.Key(ev.SessionID) + "/stop-" + state.Key(agent) + ".json"
	if reason == "" {
		if err := env.State.Remove(name); err != nil {
			env.note("could not reset the stop counter: %v", err)
		}
		return protocol.Output{}, nil
	}
	limit := env.Config.Scratchpad.BlockCap
	released := 0
	err := env.State.Update(name, func(old []byte) ([]byte, error) {
		var rec stopRecord
		if len(old) > 0 && json.Unmarshal(old, &rec) != nil {
			env.note("stop counter %s was corrupt; starting again from 0", name)
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
		return protocol.Output{}, fmt.Errorf("stop loop guard: %w", err)
	}
	if released == 0 {
		return protocol.Block(reason), nil
	}
	msg := fmt.Sprintf("massgen-hook: let %s stop after %d blocked attempts; the scratchpad protocol was NOT met: %s",
		label, released, reason)
	if err := env.State.Audit(map[string]any{
		"time": env.Now.UTC().Format(time.RFC3339), "event": ev.HookEventName, "session": ev.SessionID,
		"agent": agent, "rule": "scratchpad.block_cap", "outcome": "released", "blocks": released, "reason": reason,
	}); err != nil {
		env.note("could not record the release: %v", err)
	}
	return protocol.Output{SystemMessage: msg}, nil
}
