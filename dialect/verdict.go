package dialect

import (
	"encoding/json"
	"strings"

	"github.com/massgen/massgen-hook/protocol"
)

// verdict is Claude Code's answer, taken apart for translation.
type verdict struct {
	// permission is PreToolUse's allow, deny or ask; "" for none. Defer
	// (hand the call to the SDK host) exists only in Claude Code: elsewhere
	// it is no opinion.
	permission, reason string
	// confirmsRewrite: the ask only has the user confirm a rule's rewrite.
	confirmsRewrite bool
	updatedInput    json.RawMessage
	// block is the reason of a top-level decision "block".
	block         string
	context       string
	updatedOutput json.RawMessage
}

func read(o protocol.Output) verdict {
	v := verdict{}
	if o.Decision == "block" {
		v.block = o.Reason
	}
	if h := o.HookSpecificOutput; h != nil {
		v.permission, v.reason = h.PermissionDecision, h.PermissionDecisionReason
		v.confirmsRewrite = h.AskConfirmsRewrite
		if v.permission == protocol.DecisionDefer {
			v.permission = ""
		}
		v.updatedInput, v.context, v.updatedOutput = h.UpdatedInput, h.AdditionalContext, h.UpdatedToolOutput
	}
	return v
}

// rewriteAlone drops the ask that only has the user confirm a rule's
// rewrite, for a CLI that checks its own permissions on the rewritten
// input after its hooks: it asks the user, or not, as it would for that
// call, so the rewrite goes without a decision.
func (v *verdict) rewriteAlone() {
	if v.permission == protocol.DecisionAsk && v.confirmsRewrite {
		v.permission, v.reason = "", ""
	}
}

// askDenied turns ask into deny for a CLI that cannot ask on this event:
// there an ask would let the call through unasked, the very mistake of
// treating "ask" as "allow".
func (v *verdict) askDenied(cli, native string) {
	if v.permission != protocol.DecisionAsk {
		return
	}
	v.permission = protocol.DecisionDeny
	v.reason = protocol.Paragraphs(v.reason, "(massgen-hook: this call needs a person's approval, and "+cli+
		" cannot ask for it on "+native+", so it is denied. Run it yourself, or allow it in the config.)")
}

// common copies the fields every Claude-like CLI reads at the top level.
func common(o protocol.Output, a object) {
	if o.Continue != nil {
		a.set("continue", *o.Continue)
	}
	if o.StopReason != "" {
		a.set("stopReason", o.StopReason)
	}
	if o.SystemMessage != "" {
		a.set("systemMessage", o.SystemMessage)
	}
	if o.SuppressOutput {
		a.set("suppressOutput", true)
	}
}

// Frames massgen-hook puts around text meant as a user message (engine's
// UserMessage injections, inbox messages). Claude Code reads them as
// markup; CLIs that HTML-escape hook context (Gemini CLI) would show the
// model "&lt;system-reminder&gt;", so there the frames are taken off.
const (
	reminderOpen  = "<system-reminder>\n"
	reminderClose = "\n</system-reminder>"
)

// withoutMarkup is context with massgen-hook's markup frames taken off.
func withoutMarkup(context string) string {
	return strings.NewReplacer(reminderOpen, "", reminderClose, "").Replace(context)
}

// unreplacedOutput is what a CLI that cannot replace a tool's output gets
// instead of a rule's replacement: the replacement as context for the
// model, saying that the original stands above it, and a warning for the
// user that the model saw the original.
func unreplacedOutput(cli string, replacement json.RawMessage) (context, warning string) {
	text := string(replacement)
	var s string
	if json.Unmarshal(replacement, &s) == nil {
		text = s
	}
	context = "(massgen-hook: a rule replaced this tool's output, but " + cli + " cannot replace it, so the original is shown above. Use this replacement instead of it:)\n" + text
	warning = "massgen-hook: a rule replaced a tool's output, but " + cli + " cannot: the model also saw the original output."
	return context, warning
}
