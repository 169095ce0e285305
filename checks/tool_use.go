package checks

import (
	"context"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
)

// ToolUse runs the rules for a PreToolUse, PostToolUse or
// PostToolUseFailure event (the default guards and the configured rules)
// and records the decision in the audit trail: every call that ran a rule,
// a silent pass of the defaults as a short line (see Result.Audit). After
// a call of the main thread, what waits for it about its subagents comes
// first in the context (see addNotice).
func ToolUse(ctx context.Context, env *Env, ev *protocol.Event) (protocol.Output, error) {
	res, call := env.RunRules(ctx, ev)
	env.OnAnswer(call.Settlers()...)
	if ev.HookEventName != protocol.PreToolUse {
		res.Output = env.withNotices(ev, res.Output)
	}
	if ev.HookEventName == protocol.PostToolUse && env.DelegationTool != "" && ev.ToolName == env.DelegationTool && !env.DryRun {
		env.recordDelegation(ev)
	}
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
		Client:       env.Client,
		Event:        ev,
		HookType:     ev.HookEventName,
		Agent:        env.Agent,
		Recipient:    env.Recipient,
		Orchestrator: env.Orchestrator,
		Roster:       env.roster(),
		Now:          env.Now,
		Project:      env.Layout.Project,
		ToolInput:    ev.ToolInput,
		ToolOutput:   ev.ToolResponse,
		Environ:      env.Environ,
		Detach:       env.Detach,
		Replay:       env.Replay,
		State:        env.State,
		Notes:        env.Notes,
	}
	if env.Rules == nil {
		return engine.Result{Decision: "none"}, call
	}
	// Found only by the inbox rule, after a tool: it may read a folder.
	call.Memo(massgenFilesKey{}, func() any { return func() []payloadFile { return env.massgenPayloadFiles(ev) } })
	call.Memo(brokerKey{}, func() any { return env.Broker })
	return env.Rules.Run(ctx, call), call
}
