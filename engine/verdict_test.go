package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

const (
	pre  = protocol.PreToolUse
	post = protocol.PostToolUse
)

// verdictCase is one parseOutput call: with errSub set it must fail with an
// error containing errSub, else it must return want.
type verdictCase struct {
	name   string
	event  string
	out    string
	want   Verdict
	errSub string
}

func runVerdictCases(t *testing.T, tests []verdictCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseOutput(tt.event, []byte(tt.out))
			if tt.errSub != "" {
				if err == nil {
					t.Fatalf("parseOutput(%s, %q) = %+v, want an error containing %q", tt.event, tt.out, got, tt.errSub)
				}
				if !strings.Contains(err.Error(), tt.errSub) {
					t.Errorf("error %q, want it to contain %q", err, tt.errSub)
				}
				if !reflect.DeepEqual(got, Verdict{}) {
					t.Errorf("a failed parse returned a verdict: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseOutput(%s, %q): %v", tt.event, tt.out, err)
			}
			if !verdictEqual(got, tt.want) {
				t.Errorf("parseOutput(%s, %q) =\n%+v\nwant\n%+v", tt.event, tt.out, got, tt.want)
			}
		})
	}
}

// verdictEqual compares verdicts, with JSON fields compared as compact JSON
// and nil and empty slices the same.
func verdictEqual(a, b Verdict) bool {
	norm := func(v Verdict) Verdict {
		v.UpdatedInput = compactJSON(v.UpdatedInput)
		v.UpdatedToolOutput = compactJSON(v.UpdatedToolOutput)
		if len(v.Injections) == 0 {
			v.Injections = nil
		}
		if len(v.Notes) == 0 {
			v.Notes = nil
		}
		return v
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var m any
	if err := json.Unmarshal(raw, &m); err != nil {
		return raw
	}
	enc, _ := json.Marshal(m)
	return enc
}

func TestParseOutputEmptyAndMalformed(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{name: "empty", event: pre, out: ""},
		{name: "whitespace", event: pre, out: " \n\t\r\n "},
		{name: "empty on PostToolUse", event: post, out: "\n"},
		{name: "empty object", event: pre, out: "{}"},
		{name: "empty object with spaces", event: post, out: "  {}\n"},
		{name: "plain text", event: pre, out: "all good", errSub: "not one JSON object"},
		{name: "JSON array", event: pre, out: `[{"decision":"deny"}]`, errSub: "not one JSON object"},
		{name: "JSON string", event: pre, out: `"deny"`, errSub: "not one JSON object"},
		{name: "JSON null", event: pre, out: `null`, errSub: "not one JSON object"},
		{name: "JSON number", event: pre, out: `2`, errSub: "not one JSON object"},
		{name: "truncated object", event: pre, out: `{"decision": "deny"`, errSub: "not one JSON object"},
		{name: "invalid JSON", event: pre, out: `{decision: deny}`, errSub: "not one JSON object"},
		{name: "two objects", event: pre, out: `{"decision":"deny"} {"decision":"ask"}`, errSub: "not one JSON object"},
		{name: "object then text", event: pre, out: "{}\nextra", errSub: "not one JSON object"},
	})
}

func TestParseOutputErrorQuotesStart(t *testing.T) {
	_, err := parseOutput(pre, []byte(strings.Repeat("x", 100)))
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.Contains(err.Error(), strings.Repeat("x", 40)+"…") || strings.Contains(err.Error(), strings.Repeat("x", 41)) {
		t.Errorf("error %q should quote the first 40 bytes of the output", err)
	}
}

func TestParseOutputHookResult(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		// allowed and decision.
		{name: "allowed false", event: pre, out: `{"allowed": false, "reason": "no"}`,
			want: Verdict{Decision: Deny, Reason: "no"}},
		{name: "allowed false and decision deny", event: pre, out: `{"allowed": false, "decision": "deny", "reason": "no"}`,
			want: Verdict{Decision: Deny, Reason: "no"}},
		{name: "decision deny", event: pre, out: `{"decision": "deny", "reason": "rm -rf"}`,
			want: Verdict{Decision: Deny, Reason: "rm -rf"}},
		{name: "decision ask", event: pre, out: `{"decision": "ask", "reason": "sure?"}`,
			want: Verdict{Decision: Ask, Reason: "sure?"}},
		{name: "allowed true and decision ask", event: pre, out: `{"allowed": true, "decision": "ask"}`,
			want: Verdict{Decision: Ask}},
		{name: "allow is no objection", event: pre, out: `{"decision": "allow", "reason": "fine"}`,
			want: Verdict{Reason: "fine"}},
		{name: "allowed true is no objection", event: pre, out: `{"allowed": true}`,
			want: Verdict{}},
		{name: "allowed true and allow", event: pre, out: `{"allowed": true, "decision": "allow"}`,
			want: Verdict{}},
		{name: "reason alone", event: pre, out: `{"reason": "just saying"}`,
			want: Verdict{Reason: "just saying"}},
		{name: "null fields", event: pre, out: `{"allowed": null, "decision": null, "reason": null, "updated_input": null, "inject": null}`,
			want: Verdict{}},
		{name: "deny on PostToolUse", event: post, out: `{"decision": "deny", "reason": "bad output"}`,
			want: Verdict{Decision: Deny, Reason: "bad output"}},
		{name: "allowed false on PostToolUse", event: post, out: `{"allowed": false, "reason": "bad"}`,
			want: Verdict{Decision: Deny, Reason: "bad"}},

		// MassGen's rules: allowed false denies whatever decision says, and
		// decision deny denies whatever allowed says.
		{name: "allowed false with allow denies", event: pre, out: `{"allowed": false, "decision": "allow", "reason": "no"}`,
			want: Verdict{Decision: Deny, Reason: "no"}},
		{name: "allowed false with ask denies", event: pre, out: `{"allowed": false, "decision": "ask"}`,
			want: Verdict{Decision: Deny}},
		{name: "allowed true with deny denies", event: pre, out: `{"allowed": true, "decision": "deny"}`,
			want: Verdict{Decision: Deny}},
		{name: "allowed false with allow on PostToolUse denies", event: post, out: `{"allowed": false, "decision": "allow"}`,
			want: Verdict{Decision: Deny}},
		{name: "unknown decision", event: pre, out: `{"decision": "block"}`,
			// "block" is Claude Code's, so this is read as Claude Code output.
			want: Verdict{Decision: Deny}},
		{name: "unknown decision maybe", event: pre, out: `{"decision": "maybe"}`,
			errSub: `decision "maybe" (want allow, deny or ask)`},
		{name: "decision in capitals", event: pre, out: `{"decision": "DENY"}`,
			errSub: `decision "DENY"`},
		{name: "defer is not MassGen's", event: pre, out: `{"decision": "defer"}`,
			errSub: `decision "defer"`},
		{name: "ask on PostToolUse", event: post, out: `{"decision": "ask"}`,
			errSub: `decision "ask" means nothing after the tool ran`},

		// updated_input.
		{name: "updated_input on PreToolUse", event: pre, out: `{"updated_input": {"command": "ls -la"}}`,
			want: Verdict{UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)}},
		{name: "updated_input with deny", event: pre, out: `{"decision": "deny", "reason": "r", "updated_input": {"a": 1}}`,
			want: Verdict{Decision: Deny, Reason: "r", UpdatedInput: json.RawMessage(`{"a":1}`)}},
		{name: "updated_input with allow is a rewrite without a decision", event: pre, out: `{"decision": "allow", "updated_input": {"a": 1}}`,
			want: Verdict{UpdatedInput: json.RawMessage(`{"a":1}`)}},
		{name: "updated_input empty object", event: pre, out: `{"updated_input": {}}`,
			want: Verdict{UpdatedInput: json.RawMessage(`{}`)}},
		{name: "updated_input array", event: pre, out: `{"updated_input": [1]}`,
			errSub: "updated_input must be a JSON object"},
		{name: "updated_input string", event: pre, out: `{"updated_input": "ls"}`,
			errSub: "updated_input must be a JSON object"},
		{name: "updated_input number", event: pre, out: `{"updated_input": 3}`,
			errSub: "updated_input must be a JSON object"},
		{name: "updated_input on PostToolUse", event: post, out: `{"updated_input": {"command": "ls"}}`,
			want: Verdict{Notes: []string{"updated_input ignored: the tool already ran"}}},
		{name: "non-object updated_input on PostToolUse", event: post, out: `{"updated_input": 3}`,
			want: Verdict{Notes: []string{"updated_input ignored: the tool already ran"}}},

		// metadata.reason: MassGen's deny takes it when reason is absent.
		{name: "metadata.reason is the reason", event: pre, out: `{"allowed": false, "metadata": {"reason": "from metadata"}}`,
			want: Verdict{Decision: Deny, Reason: "from metadata"}},
		{name: "reason wins over metadata.reason", event: pre, out: `{"decision": "deny", "reason": "top", "metadata": {"reason": "inner"}}`,
			want: Verdict{Decision: Deny, Reason: "top"}},
		{name: "metadata without reason", event: pre, out: `{"allowed": false, "metadata": {"other": 1}}`,
			want: Verdict{Decision: Deny}},
		{name: "metadata.reason null", event: pre, out: `{"allowed": false, "metadata": {"reason": null}}`,
			want: Verdict{Decision: Deny}},
		{name: "metadata.reason not a string", event: pre, out: `{"allowed": false, "metadata": {"reason": 3}}`,
			errSub: "metadata.reason must be a string"},
		{name: "metadata not an object", event: pre, out: `{"allowed": false, "metadata": "x"}`,
			errSub: `field "metadata"`},

		// modified_args: a JSON text, winning over updated_input.
		{name: "modified_args rewrites", event: pre, out: `{"modified_args": "{\"command\": \"ls -la\"}"}`,
			want: Verdict{UpdatedInput: json.RawMessage(`{"command": "ls -la"}`)}},
		{name: "modified_args wins over updated_input", event: pre, out: `{"modified_args": "{\"command\": \"safe\"}", "updated_input": {"command": "other"}}`,
			want: Verdict{UpdatedInput: json.RawMessage(`{"command": "safe"}`), Notes: []string{"updated_input ignored: modified_args wins"}}},
		{name: "modified_args null leaves updated_input", event: pre, out: `{"modified_args": null, "updated_input": {"command": "u"}}`,
			want: Verdict{UpdatedInput: json.RawMessage(`{"command":"u"}`)}},
		{name: "modified_args not JSON", event: pre, out: `{"modified_args": "rm -rf /"}`,
			errSub: "modified_args must be a JSON object in a string"},
		{name: "modified_args empty", event: pre, out: `{"modified_args": ""}`,
			errSub: "modified_args must be a JSON object in a string"},
		{name: "modified_args an array", event: pre, out: `{"modified_args": "[1]"}`,
			errSub: "modified_args must be a JSON object in a string"},
		{name: "modified_args not a string", event: pre, out: `{"modified_args": {"command": "ls"}}`,
			errSub: `field "modified_args" must be string`},
		{name: "modified_args on PostToolUse", event: post, out: `{"modified_args": "{}"}`,
			want: Verdict{Notes: []string{"modified_args ignored: the tool already ran"}}},
		{name: "modified_args with deny", event: pre, out: `{"allowed": false, "reason": "r", "modified_args": "{\"a\": 1}"}`,
			want: Verdict{Decision: Deny, Reason: "r", UpdatedInput: json.RawMessage(`{"a": 1}`)}},

		// inject.
		{name: "inject default strategy", event: post, out: `{"inject": {"content": "peer answer"}}`,
			want: Verdict{Injections: []Injection{{Content: "peer answer", Strategy: ToolResult, hookResult: true}}}},
		{name: "inject tool_result", event: post, out: `{"inject": {"content": "c", "strategy": "tool_result"}}`,
			want: Verdict{Injections: []Injection{{Content: "c", Strategy: ToolResult, hookResult: true}}}},
		{name: "inject user_message", event: post, out: `{"inject": {"content": "c", "strategy": "user_message"}}`,
			want: Verdict{Injections: []Injection{{Content: "c", Strategy: UserMessage, hookResult: true}}}},
		{name: "inject on PreToolUse", event: pre, out: `{"inject": {"content": "c", "strategy": "user_message"}}`,
			want: Verdict{Injections: []Injection{{Content: "c", Strategy: UserMessage, hookResult: true}}}},
		{name: "inject unknown strategy keeps the content", event: post, out: `{"inject": {"content": "c", "strategy": "context"}}`,
			want: Verdict{Injections: []Injection{{Content: "c", Strategy: ToolResult, hookResult: true}},
				Notes: []string{`inject.strategy "context" is not tool_result or user_message; delivered as tool_result`}}},
		{name: "inject empty content", event: post, out: `{"inject": {"content": "", "strategy": "user_message"}}`,
			want: Verdict{}},
		{name: "inject no content", event: post, out: `{"inject": {}}`,
			want: Verdict{}},
		{name: "inject with deny", event: post, out: `{"decision": "deny", "reason": "r", "inject": {"content": "c"}}`,
			want: Verdict{Decision: Deny, Reason: "r", Injections: []Injection{{Content: "c", Strategy: ToolResult, hookResult: true}}}},

		// Unknown fields: MassGen's aggregated results carry these.
		{name: "hook_errors and executed_hooks", event: pre,
			out:  `{"allowed": false, "reason": "r", "hook_errors": ["x"], "executed_hooks": [{"hook_name": "h", "hook_type": "pre", "decision": "deny", "reason": "r", "execution_time_ms": 1.5, "injection_preview": null}], "future_field": {"a": [1, 2]}}`,
			want: Verdict{Decision: Deny, Reason: "r"}},
	})
}

func TestParseOutputHookResultWrongTypes(t *testing.T) {
	tests := []struct{ out, field string }{
		{`{"allowed": "no"}`, `"allowed"`},
		{`{"allowed": 0}`, `"allowed"`},
		{`{"decision": 1}`, `"decision"`},
		{`{"decision": ["deny"]}`, `"decision"`},
		{`{"reason": 5}`, `"reason"`},
		{`{"reason": {"text": "x"}}`, `"reason"`},
		{`{"inject": "text"}`, `"inject"`},
		{`{"inject": {"content": 5}}`, `"inject.content"`},
		{`{"inject": {"content": "c", "strategy": true}}`, `"inject.strategy"`},
	}
	for _, tt := range tests {
		t.Run(tt.out, func(t *testing.T) {
			v, err := parseOutput(pre, []byte(tt.out))
			if err == nil {
				t.Fatalf("accepted: %+v", v)
			}
			if !strings.HasPrefix(err.Error(), "HookResult: ") || !strings.Contains(err.Error(), "field "+tt.field) {
				t.Errorf("error %q should name field %s", err, tt.field)
			}
		})
	}
	// The exact wording for the common case.
	_, err := parseOutput(pre, []byte(`{"allowed": "no"}`))
	if want := `HookResult: field "allowed" must be bool, got a JSON string`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestParseOutputMixedShapes(t *testing.T) {
	// A deny in one shape must not be lost by reading the output as the
	// other: a mixed output is invalid, so fail_closed can act on it.
	for _, out := range []string{
		`{"allowed": false, "systemMessage": "x"}`,
		`{"continue": false, "updated_input": {}}`,
		`{"hookSpecificOutput": {"hookEventName": "PreToolUse"}, "inject": {"content": "c"}}`,
		`{"decision": "block", "reason": "r", "allowed": false}`,
	} {
		if _, err := parseOutput(pre, []byte(out)); err == nil || !strings.Contains(err.Error(), "mixes") {
			t.Errorf("%s: error %v, want one saying the output mixes shapes", out, err)
		}
	}
}

func TestParseOutputClaudeDetection(t *testing.T) {
	// Each of these keys alone makes the output Claude Code's: in
	// MassGen's HookResult they would be unknown and ignored, so detection
	// is what makes the continue:false below stop Claude.
	for _, key := range []string{"hookSpecificOutput", "continue", "stopReason", "suppressOutput", "systemMessage"} {
		t.Run(key, func(t *testing.T) {
			val := map[string]string{
				"hookSpecificOutput": `{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hso"}`,
				"continue":           `false`,
				"stopReason":         `"sr"`,
				"suppressOutput":     `true`,
				"systemMessage":      `"sm"`,
			}[key]
			// "decision": "deny" is not a Claude Code decision: detection
			// by key must win over it.
			out := `{"` + key + `": ` + val + `}`
			v, err := parseOutput(pre, []byte(out))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]Verdict{
				"hookSpecificOutput": {Decision: Deny, Reason: "hso"},
				"continue":           {Stop: true},
				"stopReason":         {},
				"suppressOutput":     {},
				"systemMessage":      {SystemMessage: "sm"},
			}[key]
			if !verdictEqual(v, want) {
				t.Errorf("%s: got %+v, want %+v (read as Claude Code output)", out, v, want)
			}
		})
	}
}

func TestParseOutputClaude(t *testing.T) {
	hso := func(event, rest string) string {
		s := `{"hookSpecificOutput": {"hookEventName": "` + event + `"`
		if rest != "" {
			s += ", " + rest
		}
		return s + "}}"
	}
	runVerdictCases(t, []verdictCase{
		// permissionDecision.
		{name: "allow", event: pre, out: hso(pre, `"permissionDecision": "allow", "permissionDecisionReason": "ok"`),
			want: Verdict{Decision: Allow, Reason: "ok"}},
		{name: "deny", event: pre, out: hso(pre, `"permissionDecision": "deny", "permissionDecisionReason": "nope"`),
			want: Verdict{Decision: Deny, Reason: "nope"}},
		{name: "ask", event: pre, out: hso(pre, `"permissionDecision": "ask", "permissionDecisionReason": "sure?"`),
			want: Verdict{Decision: Ask, Reason: "sure?"}},
		{name: "defer", event: pre, out: hso(pre, `"permissionDecision": "defer"`),
			want: Verdict{Decision: Defer}},
		{name: "unknown permissionDecision", event: pre, out: hso(pre, `"permissionDecision": "block"`),
			errSub: `permissionDecision "block"`},
		{name: "hookSpecificOutput without decision", event: pre, out: hso(pre, ""),
			want: Verdict{}},
		{name: "top-level reason when permissionDecisionReason is absent", event: pre,
			out:  `{"reason": "top", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}`,
			want: Verdict{Decision: Deny, Reason: "top"}},
		{name: "permissionDecisionReason beats reason", event: pre,
			out:  `{"reason": "top", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "inner"}}`,
			want: Verdict{Decision: Deny, Reason: "inner"}},

		// Top-level decision.
		{name: "block on PreToolUse", event: pre, out: `{"decision": "block", "reason": "bad"}`,
			want: Verdict{Decision: Deny, Reason: "bad"}},
		{name: "approve on PreToolUse", event: pre, out: `{"decision": "approve", "reason": "fine"}`,
			want: Verdict{Decision: Allow, Reason: "fine"}},
		{name: "approve on PostToolUse", event: post, out: `{"decision": "approve"}`,
			want: Verdict{}},
		{name: "block on PostToolUse", event: post, out: `{"decision": "block", "reason": "leaked a key"}`,
			want: Verdict{Decision: Deny, Reason: "leaked a key"}},
		{name: "unknown top-level decision", event: pre, out: `{"decision": "deny", "systemMessage": "x"}`,
			errSub: `decision "deny" (want block)`},
		{name: "permissionDecision beats deprecated decision", event: pre,
			out:  `{"decision": "approve", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}`,
			want: Verdict{Decision: Ask}},

		// hookEventName.
		{name: "hookEventName mismatch", event: pre, out: hso(post, `"additionalContext": "x"`),
			errSub: `hookSpecificOutput.hookEventName is "PostToolUse", want "PreToolUse"`},
		{name: "hookEventName missing", event: pre, out: `{"hookSpecificOutput": {"permissionDecision": "deny"}}`,
			errSub: `hookSpecificOutput.hookEventName is "", want "PreToolUse"`},
		{name: "hookSpecificOutput null", event: pre, out: `{"hookSpecificOutput": null}`,
			want: Verdict{}},

		// PreToolUse-only fields on PostToolUse.
		{name: "permissionDecision on PostToolUse", event: post, out: hso(post, `"permissionDecision": "deny"`),
			errSub: "permissionDecision and updatedInput belong to PreToolUse, not PostToolUse"},
		{name: "updatedInput on PostToolUse", event: post, out: hso(post, `"updatedInput": {"a": 1}`),
			errSub: "belong to PreToolUse"},

		// updatedInput.
		{name: "updatedInput with allow", event: pre, out: hso(pre, `"permissionDecision": "allow", "updatedInput": {"command": "ls"}`),
			want: Verdict{Decision: Allow, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{name: "updatedInput alone", event: pre, out: hso(pre, `"updatedInput": {"command": "ls"}`),
			want: Verdict{UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{name: "updatedInput null", event: pre, out: hso(pre, `"updatedInput": null`),
			want: Verdict{}},
		{name: "updatedInput not an object", event: pre, out: hso(pre, `"updatedInput": ["ls"]`),
			errSub: "updatedInput must be a JSON object"},

		// updatedToolOutput.
		{name: "updatedToolOutput on PostToolUse", event: post, out: hso(post, `"updatedToolOutput": {"stdout": "masked"}`),
			want: Verdict{UpdatedToolOutput: json.RawMessage(`{"stdout":"masked"}`)}},
		{name: "updatedToolOutput string", event: post, out: hso(post, `"updatedToolOutput": "masked"`),
			want: Verdict{UpdatedToolOutput: json.RawMessage(`"masked"`)}},
		{name: "updatedToolOutput on PreToolUse", event: pre, out: hso(pre, `"updatedToolOutput": {"a": 1}`),
			errSub: "updatedToolOutput belongs to PostToolUse"},

		// additionalContext.
		{name: "additionalContext on PreToolUse", event: pre, out: hso(pre, `"additionalContext": "remember X\n"`),
			want: Verdict{Injections: []Injection{{Content: "remember X\n", Strategy: Context}}}},
		{name: "additionalContext on PostToolUse", event: post, out: hso(post, `"additionalContext": "note"`),
			want: Verdict{Injections: []Injection{{Content: "note", Strategy: Context}}}},
		{name: "additionalContext with block", event: post, out: `{"decision": "block", "reason": "r", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "ctx"}}`,
			want: Verdict{Decision: Deny, Reason: "r", Injections: []Injection{{Content: "ctx", Strategy: Context}}}},
		{name: "empty additionalContext", event: post, out: hso(post, `"additionalContext": ""`),
			want: Verdict{}},

		// continue, stopReason, systemMessage.
		{name: "continue false", event: pre, out: `{"continue": false, "stopReason": "quota used up"}`,
			want: Verdict{Stop: true, StopReason: "quota used up"}},
		{name: "continue false without reason", event: post, out: `{"continue": false}`,
			want: Verdict{Stop: true}},
		{name: "continue true", event: pre, out: `{"continue": true, "stopReason": "ignored"}`,
			want: Verdict{}},
		{name: "systemMessage", event: pre, out: `{"systemMessage": "heads up", "suppressOutput": true}`,
			want: Verdict{SystemMessage: "heads up"}},

		// A deny always carries a reason.
		{name: "deny without reason", event: pre, out: hso(pre, `"permissionDecision": "deny"`),
			want: Verdict{Decision: Deny}},
		{name: "block without reason", event: post, out: `{"decision": "block"}`,
			want: Verdict{Decision: Deny}},
		{name: "ask without reason keeps none", event: pre, out: hso(pre, `"permissionDecision": "ask"`),
			want: Verdict{Decision: Ask}},

		// Wrong types.
		{name: "continue as string", event: pre, out: `{"continue": "no"}`, errSub: "continue"},
		{name: "permissionDecision as bool", event: pre, out: hso(pre, `"permissionDecision": true`), errSub: "permissionDecision"},
		{name: "hookSpecificOutput as string", event: pre, out: `{"hookSpecificOutput": "deny"}`, errSub: "hookSpecificOutput"},
	})
}

// An explicit JSON null for updatedToolOutput is "not given", as it is for
// updatedInput: it must not replace the tool output the model sees with null.
func TestParseOutputClaudeNullUpdatedToolOutput(t *testing.T) {
	v, err := parseOutput(post, []byte(`{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "c", "updatedToolOutput": null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.UpdatedToolOutput != nil {
		t.Errorf("updatedToolOutput: null gave UpdatedToolOutput %s; want nil (null means not given, as for updatedInput)", v.UpdatedToolOutput)
	}
}
