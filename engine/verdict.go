package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/massgen/massgen-hook/protocol"
)

// Decisions a rule can make. No opinion is the empty string: MassGen's
// "allow" (its default) means no objection, which is not Claude Code's
// allow (that skips the user's permission prompt).
const (
	Allow = protocol.DecisionAllow // explicit, only from a Claude Code output's permissionDecision
	Deny  = protocol.DecisionDeny
	Ask   = protocol.DecisionAsk
	Defer = protocol.DecisionDefer
)

// Injection strategies (seed 000): tool_result is set apart from the tool
// output by a separator block; user_message is a system reminder. Context
// is additionalContext from a Claude Code output, passed on as written.
const (
	ToolResult  = "tool_result"
	UserMessage = "user_message"
	Context     = "context"
)

// Verdict is one rule's answer. The zero Verdict is no opinion.
type Verdict struct {
	Decision     string
	Reason       string
	UpdatedInput json.RawMessage
	Injections   []Injection
	// SystemMessage is a warning for the user, never shown to the model.
	SystemMessage string
	// Stop asks Claude Code to stop altogether (continue: false).
	Stop       bool
	StopReason string
	// UpdatedToolOutput replaces the tool output the model sees (PostToolUse).
	UpdatedToolOutput json.RawMessage
	// Notes are things worth recording that changed nothing, such as an
	// ignored field.
	Notes []string
}

// Injection is content for the agent, with how to set it apart.
type Injection struct {
	Content  string `json:"content"`
	Strategy string `json:"strategy"`
	// hookResult marks a HookResult's inject, which MassGen combines with
	// the other rules' (see mergeHookInjections).
	hookResult bool
}

// parseOutput reads a command handler's stdout: empty is no opinion; else
// one JSON object, either MassGen's HookResult or a Claude Code hook output
// (so existing Claude Code hook scripts plug in unchanged).
func parseOutput(event string, out []byte) (Verdict, error) {
	body := bytes.TrimSpace(out)
	if len(body) == 0 {
		return Verdict{}, nil
	}
	var fields map[string]json.RawMessage
	if body[0] != '{' || json.Unmarshal(body, &fields) != nil {
		return Verdict{}, fmt.Errorf("output is not one JSON object (starts %q)", preview(body, 40))
	}
	if isClaudeOutput(fields) {
		for _, k := range []string{"allowed", "updated_input", "inject"} {
			if _, ok := fields[k]; ok {
				// Reading it as either shape would drop the other half,
				// perhaps a deny: refuse it, so fail_closed can act.
				return Verdict{}, fmt.Errorf("output mixes MassGen's HookResult (%q) with Claude Code's hook output fields; use one shape", k)
			}
		}
		return parseClaudeOutput(event, body)
	}
	return parseHookResult(event, body)
}

// isClaudeOutput tells the two output shapes apart by the keys only Claude
// Code's has, or by its decision values (approve, block), which MassGen's
// does not use.
func isClaudeOutput(fields map[string]json.RawMessage) bool {
	for _, k := range []string{"hookSpecificOutput", "continue", "stopReason", "suppressOutput", "systemMessage"} {
		if _, ok := fields[k]; ok {
			return true
		}
	}
	d := string(fields["decision"])
	return d == `"block"` || d == `"approve"`
}

// hookResult is MassGen's HookResult (PROTOCOL.md §2), read as MassGen's
// HookResult.from_dict and execute_hooks read it.
type hookResult struct {
	Allowed  *bool  `json:"allowed"`
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Metadata *struct {
		Reason json.RawMessage `json:"reason"`
	} `json:"metadata"`
	// ModifiedArgs is the tool's arguments as one JSON text, MassGen's
	// older way to rewrite a call; it wins over UpdatedInput.
	ModifiedArgs *string         `json:"modified_args"`
	UpdatedInput json.RawMessage `json:"updated_input"`
	Inject       *struct {
		Content  string `json:"content"`
		Strategy string `json:"strategy"`
	} `json:"inject"`
}

func parseHookResult(event string, body []byte) (Verdict, error) {
	var r hookResult
	if err := strictUnmarshal(body, &r); err != nil {
		return Verdict{}, fmt.Errorf("HookResult: %w", err)
	}
	v := Verdict{Reason: r.Reason}
	if v.Reason == "" && r.Metadata != nil {
		// MassGen's deny takes metadata.reason when reason is absent.
		var reason string
		if present(r.Metadata.Reason) && json.Unmarshal(r.Metadata.Reason, &reason) != nil {
			return Verdict{}, errors.New("HookResult: metadata.reason must be a string")
		}
		v.Reason = reason
	}
	switch r.Decision {
	case "", Allow:
	case Deny, Ask:
		v.Decision = r.Decision
	default:
		return Verdict{}, fmt.Errorf("HookResult: decision %q (want allow, deny or ask)", r.Decision)
	}
	if r.Allowed != nil && !*r.Allowed {
		// MassGen: allowed false is a deny whatever decision says.
		v.Decision = Deny
	}
	if event == protocol.PostToolUse && v.Decision == Ask {
		return Verdict{}, errors.New("HookResult: decision \"ask\" means nothing after the tool ran")
	}
	if err := v.readRewrite(event, r); err != nil {
		return Verdict{}, err
	}
	if r.Inject != nil && r.Inject.Content != "" {
		s := r.Inject.Strategy
		switch s {
		case ToolResult, UserMessage:
		case "":
			s = ToolResult
		default:
			// MassGen appends anything but user_message to the tool
			// result: the content is kept, never dropped.
			v.Notes = append(v.Notes, fmt.Sprintf("inject.strategy %q is not tool_result or user_message; delivered as tool_result", s))
			s = ToolResult
		}
		v.Injections = append(v.Injections, Injection{Content: r.Inject.Content, Strategy: s, hookResult: true})
	}
	return v, nil
}

// readRewrite takes a HookResult's new tool input: modified_args (a JSON
// text) when given, else updated_input, as MassGen's execute_hooks chains
// them.
func (v *Verdict) readRewrite(event string, r hookResult) error {
	input, field := r.UpdatedInput, "updated_input"
	if r.ModifiedArgs != nil {
		input, field = json.RawMessage(*r.ModifiedArgs), "modified_args"
		if present(r.UpdatedInput) {
			v.Notes = append(v.Notes, "updated_input ignored: modified_args wins")
		}
	}
	switch {
	case !present(input) && field == "updated_input":
		return nil
	case event != protocol.PreToolUse:
		v.Notes = append(v.Notes, field+" ignored: the tool already ran")
	case field == "modified_args" && (!json.Valid(input) || !isObject(input)):
		return fmt.Errorf("HookResult: modified_args must be a JSON object in a string (it replaces the whole tool input), got %q", preview(input, 40))
	case !isObject(input):
		return errors.New("HookResult: updated_input must be a JSON object (it replaces the whole tool input)")
	default:
		v.UpdatedInput = input
	}
	return nil
}

// parseClaudeOutput reads a Claude Code hook output, in the same type the
// binary writes its own with.
func parseClaudeOutput(event string, body []byte) (Verdict, error) {
	var o protocol.Output
	if err := strictUnmarshal(body, &o); err != nil {
		return Verdict{}, fmt.Errorf("Claude Code hook output: %w", err)
	}
	v := Verdict{SystemMessage: o.SystemMessage, Reason: o.Reason}
	if o.Continue != nil && !*o.Continue {
		v.Stop, v.StopReason = true, o.StopReason
	}
	switch o.Decision {
	case "":
	case "block":
		v.Decision = Deny
	case "approve":
		if event == protocol.PreToolUse {
			v.Decision = Allow
		}
	default:
		return Verdict{}, fmt.Errorf("Claude Code hook output: decision %q (want block)", o.Decision)
	}
	if h := o.HookSpecificOutput; h != nil {
		if h.HookEventName != event {
			return Verdict{}, fmt.Errorf("Claude Code hook output: hookSpecificOutput.hookEventName is %q, want %q", h.HookEventName, event)
		}
		if h.PermissionDecision != "" || present(h.UpdatedInput) {
			if event != protocol.PreToolUse {
				return Verdict{}, fmt.Errorf("Claude Code hook output: permissionDecision and updatedInput belong to PreToolUse, not %s", event)
			}
			switch h.PermissionDecision {
			case "":
			case Allow, Deny, Ask, Defer:
				v.Decision = h.PermissionDecision
			default:
				return Verdict{}, fmt.Errorf("Claude Code hook output: permissionDecision %q", h.PermissionDecision)
			}
			if h.PermissionDecisionReason != "" {
				v.Reason = h.PermissionDecisionReason
			}
			if present(h.UpdatedInput) {
				if !isObject(h.UpdatedInput) {
					return Verdict{}, errors.New("Claude Code hook output: updatedInput must be a JSON object")
				}
				v.UpdatedInput = h.UpdatedInput
			}
		}
		if present(h.UpdatedToolOutput) {
			if event != protocol.PostToolUse {
				return Verdict{}, errors.New("Claude Code hook output: updatedToolOutput belongs to PostToolUse")
			}
			v.UpdatedToolOutput = h.UpdatedToolOutput
		}
		if h.AdditionalContext != "" {
			v.Injections = append(v.Injections, Injection{Content: h.AdditionalContext, Strategy: Context})
		}
	}
	return v, nil
}

// strictUnmarshal decodes one JSON object into v; a field of the wrong type
// is an error. Unknown fields are ignored: MassGen's aggregated results
// carry hook_errors and executed_hooks, and new fields appear over time.
func strictUnmarshal(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %q must be %s, got a JSON %s", te.Field, te.Type, te.Value)
		}
		return err
	}
	return nil
}

// present reports whether an optional JSON field holds a value: absent and
// null both mean "not given".
func present(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && string(raw) != "null"
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// preview is the first n bytes of b, for messages.
func preview(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
