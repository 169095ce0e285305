package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/massgen/massgen-hook/internal/deadline"
	"github.com/massgen/massgen-hook/protocol"
)

// HookRecord is what one rule did, for the audit trail and explain.
type HookRecord struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Scope string `json:"scope"`
	// Decision is deny, ask, allow, defer, none (no opinion) or skipped
	// (an earlier deny ended the chain).
	Decision   string  `json:"decision"`
	Reason     string  `json:"reason,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	// Error is why the rule failed; Outcome says what was done about it.
	Error     string   `json:"error,omitempty"`
	Injection string   `json:"injection_preview,omitempty"`
	Rewrote   bool     `json:"rewrote_input,omitempty"`
	Notes     []string `json:"notes,omitempty"`
}

// Result is the engine's answer to one call.
type Result struct {
	Output protocol.Output
	// Decision sums up Output: deny, ask, allow, defer, block, inject or none.
	Decision string
	Reason   string
	Hooks    []HookRecord
}

// Run runs the rules that apply to call, in order, and combines their
// answers. It never fails: a rule's failure is an outcome decided by the
// failure rules, recorded in its HookRecord.
func (e *Engine) Run(ctx context.Context, call *Call) Result {
	rules := e.Select(call.HookType, call.Agent, call.Event.ToolName)
	if len(rules) == 0 {
		return Result{Decision: "none"}
	}
	agg := newAggregate(call)
	for i, r := range rules {
		v, rec := runRule(ctx, r, call)
		rec.Notes = append(rec.Notes, agg.add(r, v)...)
		agg.records = append(agg.records, rec)
		if call.HookType == protocol.PreToolUse && v.Decision == Deny {
			revert(ctx, rules[:i], agg.records, call)
			for _, skipped := range rules[i+1:] {
				agg.records = append(agg.records, HookRecord{Name: skipped.Name, Type: skipped.Type, Scope: skipped.Scope, Decision: "skipped"})
			}
			break
		}
	}
	return agg.result()
}

// revert undoes the counts of the rules before a deny: the call they let
// through is not going ahead. A failure is recorded on the rule's record.
func revert(ctx context.Context, before []*Rule, records []HookRecord, call *Call) {
	for i, r := range before {
		b, _ := r.check()
		rv, ok := b.(Reverter)
		if !ok || records[i].Error != "" {
			continue // a rule that failed counted nothing
		}
		call.Scope = r.Scope
		if err := rv.Revert(ctx, call); err != nil {
			records[i].Notes = append(records[i].Notes, "could not undo its count after the deny: "+err.Error())
		}
	}
}

// runRule runs one rule and applies the failure rules (seed 000, decision
// 6) to what went wrong:
//
//	cannot run at all (configuration)  deny, always
//	timeout, crash, exit≠0/2, garbage  no opinion; deny when fail_closed
func runRule(ctx context.Context, r *Rule, call *Call) (Verdict, HookRecord) {
	start := time.Now()
	var v Verdict
	var err error
	if r.isBuiltin() {
		v, err = checkBuiltin(ctx, r, call)
	} else {
		v, err = runCommand(ctx, r, call)
	}
	rec := HookRecord{Name: r.Name, Type: r.Type, Scope: r.Scope,
		DurationMS: float64(time.Since(start).Microseconds()) / 1000}
	if err != nil {
		rec.Error = err.Error()
		var ce *configError
		switch {
		case errors.As(err, &ce):
			v = Verdict{Decision: Deny, SystemMessage: "massgen-hook: " + ce.msg,
				Reason: fmt.Sprintf("massgen-hook: hook %q cannot run: %s", r.Name, ce.msg)}
		case r.FailClosed:
			v = Verdict{Decision: Deny,
				Reason: fmt.Sprintf("massgen-hook: hook %q failed and is fail_closed: %v", r.Name, err)}
		default:
			v = Verdict{SystemMessage: fmt.Sprintf("massgen-hook: hook %q failed (%v); the call went ahead (fail open).", r.Name, err)}
		}
	}
	if v.Decision == Deny && v.Reason == "" {
		// Claude Code needs a reason to tell the agent why.
		v.Reason = fmt.Sprintf("denied by hook %q (it gave no reason)", r.Name)
	}
	rec.Decision = v.Decision
	if rec.Decision == "" {
		rec.Decision = "none"
	}
	if call.HookType == protocol.PostToolUse && rec.Decision == Deny {
		rec.Decision = "block"
	}
	rec.Reason = v.Reason
	rec.Rewrote = v.UpdatedInput != nil
	rec.Notes = v.Notes
	if call.Notes != nil {
		for _, n := range v.Notes {
			fmt.Fprintf(call.Notes, "massgen-hook: rule %q: %s\n", r.Name, n)
		}
	}
	if len(v.Injections) > 0 {
		rec.Injection = previewText(v.Injections[0].Content, 120)
	}
	return v, rec
}

// checkBuiltin runs a built-in check, turning a panic into a runtime error:
// one broken check must not take the hook down with it.
func checkBuiltin(ctx context.Context, r *Rule, call *Call) (v Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = Verdict{}, fmt.Errorf("built-in check %q panicked: %v", r.Handler, p)
		}
	}()
	b, err := r.check()
	if err != nil {
		return Verdict{}, err
	}
	ctx, cancel := deadline.WithTimeout(ctx, r.Timeout)
	defer cancel()
	call.Scope = r.Scope
	return b.Check(ctx, call)
}

// aggregate combines the verdicts of one call's rules.
type aggregate struct {
	call    *Call
	records []HookRecord
	// PreToolUse
	deny, denyReason string
	decision         string // strongest of allow < ask < defer
	reasons          []string
	rewrittenBy      []string
	// both
	injections []Injection
	messages   []string
	stop       bool
	stopReason string
	// PostToolUse
	blockReasons []string
	outputBy     string
}

func newAggregate(call *Call) *aggregate { return &aggregate{call: call} }

// rank orders decisions: a later one overrides an earlier.
func rank(decision string) int {
	switch decision {
	case Allow:
		return 1
	case Ask:
		return 2
	case Defer:
		return 3
	}
	return 0
}

// add takes in one rule's verdict; it returns notes for the rule's record.
func (a *aggregate) add(r *Rule, v Verdict) (notes []string) {
	if v.SystemMessage != "" {
		a.messages = append(a.messages, v.SystemMessage)
	}
	if v.Stop && !a.stop {
		a.stop, a.stopReason = true, v.StopReason
	}
	a.injections = append(a.injections, v.Injections...)
	if a.call.HookType == protocol.PostToolUseFailure {
		if v.Decision == Deny {
			// Nothing is left to block after a failure: the reason
			// reaches the agent as context instead of being dropped.
			a.injections = append(a.injections, Injection{Content: v.Reason, Strategy: Context})
		}
		return nil
	}
	if a.call.HookType == protocol.PostToolUse {
		if v.Decision == Deny {
			a.blockReasons = append(a.blockReasons, v.Reason)
		}
		if v.UpdatedToolOutput != nil {
			tool := a.call.Event.ToolName
			out, ok := v.UpdatedToolOutput, true
			if a.call.Client.ShapesOutput {
				out, ok = conformOutput(tool, a.call.ToolOutput, v.UpdatedToolOutput)
			}
			if !ok {
				// Claude Code would drop it without a word: the model
				// is told instead, and the user that it happened.
				a.injections = append(a.injections, Injection{Content: outputFallback(r.Name, tool, v.UpdatedToolOutput), Strategy: Context})
				a.messages = append(a.messages, fmt.Sprintf("massgen-hook: hook %q replaced the output of %s in a shape the tool's output does not have; the model got the original output, with the replacement as context after it.", r.Name, tool))
				return []string{"updatedToolOutput does not fit the tool's output; given as context instead"}
			}
			// Later rules see the rewritten output, as they would the
			// rewritten input on PreToolUse.
			a.call.ToolOutput, a.outputBy = out, r.Name
		}
		return nil
	}
	if v.UpdatedInput != nil {
		// The rules after it read the rewrite as the tool will: a key it
		// repeats means its last value, a lone surrogate is one character
		// (see protocol.AsTheAgentReads).
		a.call.ToolInput = protocol.AsTheAgentReads(v.UpdatedInput)
		a.rewrittenBy = append(a.rewrittenBy, r.Name)
		if a.decision == Allow {
			// An allow approved the input it saw, not this rewrite of it.
			// (A rule that rewrites and allows approves its own rewrite:
			// its allow is counted below.)
			a.decision, a.reasons = "", nil
		}
	}
	switch {
	case v.Decision == Deny:
		a.deny, a.denyReason = r.Name, v.Reason
	case rank(v.Decision) > rank(a.decision):
		a.decision, a.reasons = v.Decision, nil
		fallthrough
	case v.Decision != "" && v.Decision == a.decision:
		if v.Reason != "" {
			a.reasons = append(a.reasons, v.Reason)
		}
	}
	return nil
}

// result maps the combined verdicts to Claude Code's output for the event.
func (a *aggregate) result() Result {
	res := Result{Hooks: a.records}
	out := &res.Output
	if a.stop {
		f := false
		out.Continue, out.StopReason = &f, a.stopReason
	}
	out.SystemMessage = joinLines(a.messages)
	ctxText := renderInjections(mergeHookInjections(a.injections), a.call.Client.PlainContext)
	switch a.call.HookType {
	case protocol.PostToolUse:
		a.postResult(&res, ctxText)
	case protocol.PostToolUseFailure:
		res.Decision = "none"
		if ctxText != "" {
			res.Decision = "inject"
			res.Output.HookSpecificOutput = &protocol.HookSpecific{HookEventName: protocol.PostToolUseFailure, AdditionalContext: ctxText}
		}
	default:
		a.preResult(&res, ctxText)
	}
	return res
}

func (a *aggregate) preResult(res *Result, ctxText string) {
	h := &protocol.HookSpecific{HookEventName: protocol.PreToolUse, AdditionalContext: ctxText}
	switch {
	case a.deny != "":
		h.PermissionDecision, h.PermissionDecisionReason = Deny, a.denyReason
	case a.decision != "":
		h.PermissionDecision, h.PermissionDecisionReason = a.decision, joinLines(a.reasons)
	case len(a.rewrittenBy) > 0 && a.call.Client.JudgesRewrites:
		// A rewrite nobody decided on goes without a decision: the CLI's
		// own permission rules judge the rewritten call, so it runs where
		// the user allowed it, is asked about where they ask, and is
		// denied headless, exactly as if the agent had made it.
	case len(a.rewrittenBy) > 0:
		// A rewrite with no decision must not become an allow, which would
		// skip the user's permission prompt for a call they never saw: the
		// user is asked to confirm the rewritten call.
		h.PermissionDecision = Ask
		h.PermissionDecisionReason = fmt.Sprintf("massgen-hook: %s rewrote this call's input; confirm the rewritten call.", quoteList(a.rewrittenBy))
	}
	if h.PermissionDecision != Deny && len(a.rewrittenBy) > 0 {
		h.UpdatedInput = a.call.ToolInput
	}
	if h.PermissionDecision != "" || h.AdditionalContext != "" || h.UpdatedInput != nil {
		res.Output.HookSpecificOutput = h
	}
	res.Decision, res.Reason = h.PermissionDecision, h.PermissionDecisionReason
	switch {
	case res.Decision != "":
	case h.UpdatedInput != nil:
		res.Decision = "rewrite"
	case ctxText != "":
		res.Decision = "inject"
	default:
		res.Decision = "none"
	}
}

func (a *aggregate) postResult(res *Result, ctxText string) {
	out := &res.Output
	switch {
	case len(a.blockReasons) > 0:
		out.Decision, out.Reason = "block", joinLines(a.blockReasons)
		res.Decision, res.Reason = "block", out.Reason
	case ctxText != "":
		res.Decision = "inject"
	case a.outputBy != "":
		res.Decision = "rewrite"
	default:
		res.Decision = "none"
	}
	if ctxText != "" || a.outputBy != "" {
		out.HookSpecificOutput = &protocol.HookSpecific{HookEventName: protocol.PostToolUse, AdditionalContext: ctxText}
		if a.outputBy != "" {
			out.HookSpecificOutput.UpdatedToolOutput = a.call.ToolOutput
		}
	}
}
