package protocol

import (
	"encoding/json"
	"fmt"
)

// Output is one hook answer. The zero Output is "no opinion": Write prints
// nothing for it, which Claude Code treats as neither allow nor deny.
// Field order here is the order on the wire.
type Output struct {
	// Continue false stops Claude altogether; it beats every other field.
	Continue *bool `json:"continue,omitempty"`
	// StopReason is shown to the user when Continue is false.
	StopReason     string `json:"stopReason,omitempty"`
	SuppressOutput bool   `json:"suppressOutput,omitempty"`
	// SystemMessage is a warning shown to the user.
	SystemMessage string `json:"systemMessage,omitempty"`
	// Decision is "block" or empty; "approve" is deprecated and never written.
	Decision string `json:"decision,omitempty"`
	// Reason is what the agent is told when Decision is "block".
	Reason             string        `json:"reason,omitempty"`
	HookSpecificOutput *HookSpecific `json:"hookSpecificOutput,omitempty"`
}

// HookSpecific is hookSpecificOutput. HookEventName must equal the event the
// hook answers; Write fills it in.
type HookSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	// UpdatedToolOutput replaces, on PostToolUse, the tool output the model sees.
	UpdatedToolOutput json.RawMessage `json:"updatedToolOutput,omitempty"`
	// Decision answers a PermissionRequest: the permission dialog Claude
	// Code was about to show is settled without asking.
	Decision *PermissionBehavior `json:"decision,omitempty"`
}

// PermissionBehavior is PermissionRequest's decision.
type PermissionBehavior struct {
	// Behavior is "allow" or "deny".
	Behavior string `json:"behavior"`
	// Message tells the model why, on a deny.
	Message string `json:"message,omitempty"`
}

// GrantPermission answers a PermissionRequest with allow: the call goes
// ahead as if the user had said yes. Anything short of a yes is silence,
// so Claude Code asks as usual.
func GrantPermission() Output {
	return Output{HookSpecificOutput: &HookSpecific{HookEventName: PermissionRequest,
		Decision: &PermissionBehavior{Behavior: DecisionAllow}}}
}

// PreToolUse permission decisions. There is deliberately no "no opinion"
// value: that is the zero Output.
const (
	DecisionAllow = "allow"
	DecisionDeny  = "deny"
	DecisionAsk   = "ask"
	DecisionDefer = "defer"
)

// IsEmpty reports whether o says nothing at all.
func (o Output) IsEmpty() bool { return o == Output{} }

// Block stops the action of a Stop, SubagentStop, PostToolUse or
// UserPromptSubmit event; reason is what the agent is told. For PreToolUse use
// Deny.
func Block(reason string) Output { return Output{Decision: "block", Reason: reason} }

// Context adds text to the agent's context on event.
func Context(event, text string) Output {
	return Output{HookSpecificOutput: &HookSpecific{HookEventName: event, AdditionalContext: text}}
}

// Deny refuses a PreToolUse tool call; reason is shown to Claude.
func Deny(reason string) Output { return permission(DecisionDeny, reason) }

// AskUser asks the user to confirm a PreToolUse tool call; reason is shown to
// the user.
func AskUser(reason string) Output { return permission(DecisionAsk, reason) }

func permission(decision, reason string) Output {
	return Output{HookSpecificOutput: &HookSpecific{
		HookEventName: PreToolUse, PermissionDecision: decision, PermissionDecisionReason: reason}}
}

// ShapeError says an Output cannot be sent for an event: Claude Code would
// ignore the field, or reject the whole answer.
type ShapeError struct{ Event, Msg string }

func (e *ShapeError) Error() string {
	return fmt.Sprintf("output not valid for %s: %s", e.Event, e.Msg)
}

// Validate checks o against the shapes Claude Code accepts for event.
func (o Output) Validate(event string) error {
	bad := func(format string, args ...any) error {
		return &ShapeError{Event: event, Msg: fmt.Sprintf(format, args...)}
	}
	switch o.Decision {
	case "":
		if o.Reason != "" && (o.HookSpecificOutput == nil || o.HookSpecificOutput.PermissionDecision == "") {
			return bad("reason without decision \"block\"")
		}
	case "block":
		if !takesTopLevelBlock.Get()[event] {
			return bad("decision \"block\" is not how %s blocks", event)
		}
		if o.Reason == "" {
			return bad("decision \"block\" needs a reason: it is what the agent is told")
		}
	default:
		return bad("decision %q: only \"block\" is current", o.Decision)
	}
	if o.StopReason != "" && (o.Continue == nil || *o.Continue) {
		return bad("stopReason without continue: false")
	}
	h := o.HookSpecificOutput
	if h == nil {
		return nil
	}
	if h.HookEventName != "" && h.HookEventName != event {
		return bad("hookSpecificOutput.hookEventName is %q", h.HookEventName)
	}
	if h.AdditionalContext != "" && !takesContext.Get()[event] {
		return bad("additionalContext is not read on %s", event)
	}
	if h.PermissionDecision != "" || h.PermissionDecisionReason != "" || h.UpdatedInput != nil {
		if event != PreToolUse {
			return bad("permission decisions belong to PreToolUse")
		}
		switch h.PermissionDecision {
		case DecisionAllow, DecisionDeny, DecisionAsk, DecisionDefer:
		case "":
			// A rewrite alone: Claude Code applies it and judges the
			// rewritten call by the user's permission rules.
			if h.UpdatedInput == nil || h.PermissionDecisionReason != "" {
				return bad("permissionDecision %q", h.PermissionDecision)
			}
		default:
			return bad("permissionDecision %q", h.PermissionDecision)
		}
	}
	if d := h.Decision; d != nil {
		if event != PermissionRequest {
			return bad("decision {behavior} belongs to PermissionRequest")
		}
		if d.Behavior != DecisionAllow && d.Behavior != DecisionDeny {
			return bad("decision.behavior %q (want allow or deny)", d.Behavior)
		}
		if d.Message != "" && d.Behavior != DecisionDeny {
			return bad("decision.message goes with behavior \"deny\"")
		}
	}
	if h.UpdatedToolOutput != nil && event != PostToolUse {
		return bad("updatedToolOutput belongs to PostToolUse")
	}
	if h.UpdatedInput != nil && !isObject(h.UpdatedInput) {
		return bad("updatedInput must be a JSON object: it replaces the whole tool input")
	}
	return nil
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}
