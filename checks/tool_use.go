package checks

import (
	"context"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/checks/lifecycle"
	"github.com/massgen/massgen-hook/protocol"
)

// ToolUse runs the rules for a PreToolUse, PostToolUse or
// PostToolUseFailure event (the default guards and the configured rules)
// and records the decision in the audit trail: every call that ran a rule,
// a silent pass of the defaults as a short line (see Result.Audit). After
// a call of the main thread, what waits for it about its subagents comes
// first in the context (see hookenv.Env.AddNotice).
func ToolUse(ctx context.Context, env *hookenv.Env, ev *protocol.Event) (protocol.Output, error) {
	res, call := env.RunRules(ctx, ev)
	env.OnAnswer(call.Settlers()...)
	if ev.HookEventName != protocol.PreToolUse {
		res.Output = env.WithNotices(ev, res.Output)
	}
	if ev.HookEventName == protocol.PostToolUse && env.DelegationTool != "" && ev.ToolName == env.DelegationTool && !env.DryRun {
		lifecycle.RecordDelegation(env, ev)
	}
	if len(res.Hooks) > 0 && !env.DryRun {
		if err := env.State.AuditLine(res.Audit(call)); err != nil {
			// The decision stands; only its record is lost, and the user is told.
			env.Note("could not append to the audit trail: %v", err)
		}
	}
	return res.Output, nil
}
