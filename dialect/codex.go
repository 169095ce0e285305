package dialect

import "github.com/massgen/massgen-hook/protocol"

// Codex speaks Codex CLI's hooks (.codex/hooks.json): Claude Code's events
// and answers, plus turn_id and model, with a few answers it parses but
// does not support. On PreToolUse an unsupported field fails the hook run
// and the call PROCEEDS, so an ask would let it through unasked.
var Codex = register(&Dialect{
	Name: "codex",
	events: map[string]string{
		protocol.SessionStart:      protocol.SessionStart,
		protocol.SubagentStart:     protocol.SubagentStart,
		protocol.PreToolUse:        protocol.PreToolUse,
		protocol.PermissionRequest: protocol.PermissionRequest,
		protocol.PostToolUse:       protocol.PostToolUse,
		protocol.PreCompact:        protocol.PreCompact,
		protocol.UserPromptSubmit:  protocol.UserPromptSubmit,
		protocol.SubagentStop:      protocol.SubagentStop,
		protocol.Stop:              protocol.Stop,
	},
	in:           func(object, string) error { return nil },
	out:          codexOut,
	failOpenExit: protocol.ExitError,
})

func codexOut(native string, o protocol.Output) (any, bool) {
	h := o.HookSpecificOutput
	switch native {
	case protocol.PreToolUse:
		// continue, stopReason and suppressOutput fail the run here.
		o.Continue, o.StopReason, o.SuppressOutput = nil, "", false
		if h != nil {
			v := read(o)
			v.askDenied("Codex", native)
			c := *h
			c.PermissionDecision, c.PermissionDecisionReason = v.permission, v.reason
			// Codex takes a rewrite only with allow.
			if c.PermissionDecision != protocol.DecisionAllow {
				c.UpdatedInput = nil
			}
			h = &c
		}
	case protocol.PostToolUse:
		o.SuppressOutput = false
		if h != nil && h.UpdatedToolOutput != nil {
			c := *h
			c.UpdatedToolOutput = nil
			h = &c
		}
	}
	if h != nil && h.PermissionDecision == "" && h.PermissionDecisionReason == "" && h.UpdatedInput == nil &&
		h.AdditionalContext == "" && h.UpdatedToolOutput == nil {
		h = nil // nothing left to say in it
	}
	o.HookSpecificOutput = h
	return o, false
}
