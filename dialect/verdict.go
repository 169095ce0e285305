package dialect

import (
	"encoding/json"

	"github.com/massgen/massgen-hook/protocol"
)

// verdict is Claude Code's answer, taken apart for translation.
type verdict struct {
	// permission is PreToolUse's allow, deny or ask; "" for none. Defer
	// (hand the call to the SDK host) exists only in Claude Code: elsewhere
	// it is no opinion.
	permission, reason string
	updatedInput       json.RawMessage
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
		if v.permission == protocol.DecisionDefer {
			v.permission = ""
		}
		v.updatedInput, v.context, v.updatedOutput = h.UpdatedInput, h.AdditionalContext, h.UpdatedToolOutput
	}
	return v
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
