package checks

import (
	"context"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
)

// ToolUse runs the configured rules for a PreToolUse or PostToolUse event
// and records the decision in the audit trail. With no rule for the event
// it answers at once: that is the path every tool call of an unconfigured
// project takes.
func ToolUse(ctx context.Context, env *Env, ev *protocol.Event) (protocol.Output, error) {
	res, call := env.RunRules(ctx, ev)
	if len(res.Hooks) > 0 && !env.DryRun {
		if err := env.State.Audit(res.Audit(call)); err != nil {
			// The decision stands; only its record is lost, and the user is told.
			env.note("could not append to the audit trail: %v", err)
		}
	}
	return res.Output, nil
}

// RunRules runs the rules that apply to ev and returns their combined
// result with the call they saw.
func (env *Env) RunRules(ctx context.Context, ev *protocol.Event) (engine.Result, *engine.Call) {
	call := &engine.Call{
		Event:        ev,
		HookType:     ev.HookEventName,
		Agent:        env.Agent,
		Orchestrator: env.Orchestrator,
		Now:          env.Now,
		Project:      env.Layout.Project,
		ToolInput:    ev.ToolInput,
		ToolOutput:   ev.ToolResponse,
		Environ:      env.Environ,
	}
	if env.Rules == nil {
		return engine.Result{Decision: "none"}, call
	}
	return env.Rules.Run(ctx, call), call
}
