package dialect

import "github.com/massgen/massgen-hook/protocol"

// Codex speaks Codex CLI's hooks (.codex/hooks.json): Claude Code's events
// and answers, plus turn_id and model, with a few answers it parses but
// does not support. On PreToolUse an unsupported field fails the hook run
// and the call PROCEEDS, so an ask would let it through unasked; an allow
// is unsupported unless it carries a rewrite.
var Codex = &Dialect{
	Name: "codex",
	// Its pre-tool hook may rewrite a shell command (see cli/shell_rewrite.go).
	ConfinesBy: ConfineByRewrite,
	// Codex 0.169 applies its execpolicy rules after the pre-tool hook,
	// to the rewritten command (an allow does not skip them): a forbidden
	// `git push` runs once the rewrite hides it in the wrapper's argument,
	// and is rejected again when the line still holds it as words.
	RewriteForm: RewriteExecTail,
	// Codex 0.169 hands PreToolUse, as cwd, the call's workdir, and runs
	// the hook in the session's folder.
	ProjectFromHookDir: true,
	events: eventNames{
		{protocol.SessionStart, protocol.SessionStart},
		{protocol.SubagentStart, protocol.SubagentStart},
		{protocol.PreToolUse, protocol.PreToolUse},
		{protocol.PermissionRequest, protocol.PermissionRequest},
		{protocol.PostToolUse, protocol.PostToolUse},
		{protocol.PreCompact, protocol.PreCompact},
		{protocol.UserPromptSubmit, protocol.UserPromptSubmit},
		{protocol.SubagentStop, protocol.SubagentStop},
		{protocol.Stop, protocol.Stop},
	},
	in:           func(object, *Native) error { return nil },
	out:          codexOut,
	failOpenExit: protocol.ExitError,
	// Codex shows the top-level systemMessage as a warning.
	systemMessage: true,
	// A rewrite goes to Codex as an allow with the new input (codexOut),
	// and Codex's own sandbox and approval policy judge the rewritten call:
	// with Codex 0.169.0 under -s read-only, a rewritten `touch` still
	// fails "Read-only file system".
	JudgesRewrites: true,
}

func codexOut(n Native, o protocol.Output) (any, bool) {
	h := o.HookSpecificOutput
	switch n.Event {
	case protocol.PreToolUse:
		// continue, stopReason and suppressOutput fail the run here.
		o.Continue, o.StopReason, o.SuppressOutput = nil, "", false
		if h != nil {
			v := read(o)
			v.askDenied("Codex", n.Event)
			c := *h
			c.PermissionDecision, c.PermissionDecisionReason = v.permission, v.reason
			switch {
			case c.PermissionDecision == "" && c.UpdatedInput != nil:
				// A rewrite nobody decided on: Codex applies updatedInput
				// only with allow, and drops it (running the original
				// call) without one.
				c.PermissionDecision = protocol.DecisionAllow
			case c.PermissionDecision != protocol.DecisionAllow:
				c.UpdatedInput = nil // Codex takes a rewrite only with allow
			case c.UpdatedInput == nil:
				// A plain allow fails the run ("unsupported"), and so does
				// a reason without a decision: say nothing instead.
				c.PermissionDecision, c.PermissionDecisionReason = "", ""
			}
			h = &c
		}
	case protocol.PostToolUse:
		o.SuppressOutput = false
		if h != nil && h.UpdatedToolOutput != nil {
			// Codex 0.169 ignores updatedToolOutput, but hands the model
			// a PostToolUse block's reason as the call's output: the
			// replacement goes that way, and the original never
			// reaches the model.
			c := *h
			o.Decision = "block"
			o.Reason = protocol.Paragraphs(replacementText(c.UpdatedToolOutput), o.Reason)
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
