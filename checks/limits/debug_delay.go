package limits

import (
	"context"
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/watchdog"
)

// debugDelay slows an agent down once, to test mid-stream injection
// (seed 002's debug_delay_seconds): after after_tools calls, the next call
// waits seconds before it runs. Waiting at the start would only restart
// the agent; after some calls it has work in progress for an injection to
// land in. It runs once per session and agent. Give its rule a timeout
// above seconds: the rule's timeout cuts the wait short.
type debugDelay struct {
	wait       time.Duration
	afterTools int
}

type delayOptions struct {
	Seconds    float64 `yaml:"seconds"`
	AfterTools *int    `yaml:"after_tools"`
}

func NewDebugDelay(options *yaml.Node) (engine.Builtin, error) {
	var o delayOptions
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	if o.Seconds <= 0 {
		return nil, fmt.Errorf("seconds: give the delay in seconds (e.g. seconds: 30)")
	}
	after := 3
	if o.AfterTools != nil {
		after = *o.AfterTools
	}
	if after < 0 {
		return nil, fmt.Errorf("after_tools: must be 0 or more")
	}
	return &debugDelay{wait: seconds(o.Seconds), afterTools: after}, nil
}

// delayRecord counts an agent's calls until its delay has run.
type delayRecord struct {
	Calls   int  `json:"calls"`
	Delayed bool `json:"delayed,omitempty"`
}

func (d *debugDelay) Check(ctx context.Context, call *engine.Call) (engine.Verdict, error) {
	name := AgentRecord("delay", call.Agent)
	var rec delayRecord
	wait := false
	err := call.State.UpdateSession(call.Event.SessionID, name, &rec, func() (bool, error) {
		if rec.Delayed {
			return false, nil
		}
		rec.Calls++
		// Marked before the wait, so parallel calls do not all wait.
		wait = rec.Calls > d.afterTools
		rec.Delayed = wait
		return true, nil
	})
	if err != nil || !wait {
		return engine.Verdict{}, err
	}
	// A wait chosen by the user, not the guards' judgement: their time
	// (guard_timeout) stops meanwhile.
	defer watchdog.Away(ctx)()
	select {
	case <-time.After(d.wait):
		return engine.Verdict{Notes: []string{fmt.Sprintf("debug delay: waited %s after %d calls", d.wait, d.afterTools)}}, nil
	case <-ctx.Done():
		return engine.Verdict{}, fmt.Errorf("debug delay of %s cut short by the rule's timeout: give the rule a timeout above seconds", d.wait)
	}
}
