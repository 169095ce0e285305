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

// replacementText is a rule's replacement of a tool's output as the text
// a CLI hands the model in its place: a JSON string's text; a shell
// result in Claude Code's shape ({"stdout", "stderr"}) as its output, the
// way the CLI shows a command's; anything else as its JSON.
func replacementText(replacement json.RawMessage) string {
	var s string
	if json.Unmarshal(replacement, &s) == nil {
		return s
	}
	var shell struct {
		Stdout *string `json:"stdout"`
		Stderr *string `json:"stderr"`
	}
	if json.Unmarshal(replacement, &shell) == nil && (shell.Stdout != nil || shell.Stderr != nil) {
		var parts []string
		for _, p := range []*string{shell.Stdout, shell.Stderr} {
			if p != nil && *p != "" {
				parts = append(parts, *p)
			}
		}
		return strings.Join(parts, "\n")
	}
	return string(replacement)
}
