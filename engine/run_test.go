package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/protocol"
)

var testNow = time.Date(2026, 3, 4, 5, 6, 7, 8000, time.FixedZone("X", 3600))

// newCall is a call of tool on event with input (and, on PostToolUse, the
// response) for agent, read through protocol.ParseEvent as the hook does.
func newCall(t *testing.T, event, agent, tool, input, response string) *Call {
	t.Helper()
	raw := `{"hook_event_name": "` + event + `", "session_id": "sess-1", "tool_name": "` + tool + `", "tool_use_id": "toolu_1", "tool_input": ` + input
	if response != "" {
		raw += `, "tool_response": ` + response
	}
	raw += "}"
	ev, err := protocol.ParseEvent([]byte(raw), event)
	if err != nil {
		t.Fatalf("ParseEvent(%s): %v", raw, err)
	}
	return &Call{Event: ev, HookType: event, Agent: agent, Now: testNow, Project: t.TempDir(),
		ToolInput: ev.ToolInput, ToolOutput: ev.ToolResponse}
}

// runCall runs e for call and checks that the output is one Claude Code
// accepts for the event.
func runCall(t *testing.T, e *Engine, call *Call) Result {
	t.Helper()
	res := e.Run(context.Background(), call)
	if err := res.Output.Validate(call.HookType); err != nil {
		t.Errorf("Run produced an output Claude Code rejects: %v\n%+v", err, res.Output)
	}
	return res
}

// hooksYAML wraps rule lines (already indented as list items) as the global
// rules of event.
func hooksYAML(event string, rules ...string) string {
	return "hooks:\n  " + event + ":\n" + "    - " + strings.Join(rules, "\n    - ") + "\n"
}

func decisions(res Result) []string {
	var out []string
	for _, h := range res.Hooks {
		out = append(out, h.Name+"="+h.Decision)
	}
	return out
}

func specific(t *testing.T, res Result) *protocol.HookSpecific {
	t.Helper()
	h := res.Output.HookSpecificOutput
	if h == nil {
		t.Fatalf("no hookSpecificOutput in %+v", res.Output)
	}
	return h
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

func TestRunNoRules(t *testing.T) {
	e := compileYAML(t, hooksYAML("PreToolUse", "{type: builtin, handler: noop, matcher: Write}"), testRegistry(nil))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{"command": "ls"}`, ""))
	if res.Decision != "none" || !res.Output.IsEmpty() || len(res.Hooks) != 0 {
		t.Errorf("no matching rule: %+v", res)
	}
	res = runCall(t, e, newCall(t, post, "", "Write", `{}`, `{}`))
	if res.Decision != "none" || !res.Output.IsEmpty() || len(res.Hooks) != 0 {
		t.Errorf("no rule for the event: %+v", res)
	}
}

func TestRunNoOpinion(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PreToolUse",
		"{name: a, type: builtin, handler: script, options: {id: a}}",
		"{name: b, type: builtin, handler: script, options: {id: b, reason: just a remark}}",
	), testRegistry(rec))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{"command": "ls"}`, ""))
	if res.Decision != "none" || !res.Output.IsEmpty() {
		t.Errorf("no opinion from every rule gave %+v", res)
	}
	if got := decisions(res); !reflect.DeepEqual(got, []string{"a=none", "b=none"}) {
		t.Errorf("records %q", got)
	}
	if !reflect.DeepEqual(rec.ids(), []string{"a", "b"}) {
		t.Errorf("ran %q", rec.ids())
	}
	for _, h := range res.Hooks {
		if h.Type != "builtin" || h.Scope != "global" || h.DurationMS < 0 || h.Error != "" {
			t.Errorf("record %+v", h)
		}
	}
}

func TestRunFirstDenyShortCircuits(t *testing.T) {
	rec := &recorder{}
	text := hooksYAML("PreToolUse",
		"{name: a, type: builtin, handler: script, options: {id: a, decision: ask, reason: a asks}}",
		"{name: b, type: builtin, handler: script, options: {id: b}}",
		"{name: c, type: builtin, handler: script, options: {id: c, decision: deny, reason: c says no}}",
		"{name: d, type: builtin, handler: script, options: {id: d, decision: deny, reason: d says no}}",
		"{name: e, type: builtin, handler: script, options: {id: e, decision: allow}}",
	) + "agents:\n  - id: worker\n    hooks:\n      PreToolUse:\n        - {name: f, type: builtin, handler: script, options: {id: f}}\n"
	e := compileYAML(t, text, testRegistry(rec))
	res := runCall(t, e, newCall(t, pre, "worker", "Bash", `{"command": "rm -rf /"}`, ""))
	if res.Decision != Deny || res.Reason != "c says no" {
		t.Errorf("Decision %q, Reason %q; want deny, c says no", res.Decision, res.Reason)
	}
	h := specific(t, res)
	if h.PermissionDecision != Deny || h.PermissionDecisionReason != "c says no" || h.HookEventName != pre || h.UpdatedInput != nil {
		t.Errorf("hookSpecificOutput %+v", h)
	}
	// Rules after the deny do not run, and are recorded as skipped; the
	// records before it are kept (MassGen dropped them).
	if got := rec.ids(); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("ran %q, want a, b, c", got)
	}
	want := []string{"a=ask", "b=none", "c=deny", "d=skipped", "e=skipped", "f=skipped"}
	if got := decisions(res); !reflect.DeepEqual(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
	if res.Hooks[0].Reason != "a asks" || res.Hooks[2].Reason != "c says no" {
		t.Errorf("records lost their reasons: %+v", res.Hooks)
	}
	if f := res.Hooks[5]; f.Scope != "agent worker" || f.Type != "builtin" || f.Reason != "" {
		t.Errorf("skipped record %+v", f)
	}
}

func TestRunDenyAfterAsk(t *testing.T) {
	e := compileYAML(t, hooksYAML("PreToolUse",
		"{name: asker, type: builtin, handler: script, options: {decision: ask, reason: 'sure?'}}",
		"{name: allower, type: builtin, handler: script, options: {decision: allow}}",
		"{name: denier, type: builtin, handler: script, options: {decision: deny, reason: never}}",
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	if h := specific(t, res); h.PermissionDecision != Deny || h.PermissionDecisionReason != "never" {
		t.Errorf("deny after ask gave %+v", h)
	}
}

func TestRunPrecedence(t *testing.T) {
	type v struct{ decision, reason string }
	tests := []struct {
		name       string
		verdicts   []v
		want       string
		wantReason string
	}{
		{"allow alone", []v{{"allow", "fine"}}, Allow, "fine"},
		{"ask alone", []v{{"ask", "sure?"}}, Ask, "sure?"},
		{"defer alone", []v{{"defer", ""}}, Defer, ""},
		{"ask beats allow", []v{{"allow", "fine"}, {"ask", "sure?"}}, Ask, "sure?"},
		{"ask beats a later allow", []v{{"ask", "sure?"}, {"allow", "fine"}}, Ask, "sure?"},
		{"defer beats ask", []v{{"ask", "sure?"}, {"defer", "later"}}, Defer, "later"},
		{"defer beats a later ask", []v{{"defer", "later"}, {"ask", "sure?"}, {"allow", "ok"}}, Defer, "later"},
		{"no opinion changes nothing", []v{{"", "remark"}, {"allow", "fine"}, {"", "other"}}, Allow, "fine"},
		{"equal decisions join their reasons", []v{{"ask", "one"}, {"ask", ""}, {"ask", "two"}}, Ask, "one\ntwo"},
		{"allows join their reasons", []v{{"allow", "one"}, {"allow", "two"}}, Allow, "one\ntwo"},
		{"deny beats defer", []v{{"defer", "later"}, {"deny", "no"}}, Deny, "no"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rules []string
			for i, vd := range tt.verdicts {
				rules = append(rules, "{name: r"+string(rune('0'+i))+", type: builtin, handler: script, options: {decision: '"+vd.decision+"', reason: '"+vd.reason+"'}}")
			}
			e := compileYAML(t, hooksYAML("PreToolUse", rules...), testRegistry(&recorder{}))
			res := runCall(t, e, newCall(t, pre, "", "Bash", `{"command": "ls"}`, ""))
			h := specific(t, res)
			if h.PermissionDecision != tt.want || h.PermissionDecisionReason != tt.wantReason {
				t.Errorf("got %q %q, want %q %q", h.PermissionDecision, h.PermissionDecisionReason, tt.want, tt.wantReason)
			}
			if res.Decision != tt.want || res.Reason != tt.wantReason {
				t.Errorf("Result %q %q, want %q %q", res.Decision, res.Reason, tt.want, tt.wantReason)
			}
			if h.UpdatedInput != nil {
				t.Errorf("updatedInput %s without a rewrite", h.UpdatedInput)
			}
		})
	}
}

func TestRunUpdatedInputChains(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: first, type: builtin, handler: script, options: {id: first, input: {command: "ls -la"}}}`,
		`{name: second, type: builtin, handler: script, options: {id: second, input: {command: "ls -la --color=never"}}}`,
		`{name: third, type: builtin, handler: script, options: {id: third}}`,
	), testRegistry(rec))
	call := newCall(t, pre, "", "Bash", `{"command": "ls"}`, "")
	res := runCall(t, e, call)

	for id, want := range map[string]string{
		"first":  `{"command": "ls"}`,
		"second": `{"command": "ls -la"}`,
		"third":  `{"command": "ls -la --color=never"}`,
	} {
		s, ok := rec.get(id)
		if !ok {
			t.Fatalf("%s did not run", id)
		}
		if !sameJSON([]byte(s.Input), []byte(want)) {
			t.Errorf("%s saw input %s, want %s", id, s.Input, want)
		}
	}
	// A rewrite with no decision asks the user, naming who rewrote.
	h := specific(t, res)
	if h.PermissionDecision != Ask {
		t.Errorf("rewrite without a decision gave %q, want ask", h.PermissionDecision)
	}
	if want := `massgen-hook: hooks "first" and "second" rewrote this call's input; confirm the rewritten call.`; h.PermissionDecisionReason != want {
		t.Errorf("reason %q, want %q", h.PermissionDecisionReason, want)
	}
	if !sameJSON(h.UpdatedInput, []byte(`{"command": "ls -la --color=never"}`)) {
		t.Errorf("updatedInput %s", h.UpdatedInput)
	}
	if res.Decision != Ask || res.Reason != h.PermissionDecisionReason {
		t.Errorf("Result %q %q", res.Decision, res.Reason)
	}
	var rewrote []bool
	for _, r := range res.Hooks {
		rewrote = append(rewrote, r.Rewrote)
	}
	if !reflect.DeepEqual(rewrote, []bool{true, true, false}) {
		t.Errorf("Rewrote %v", rewrote)
	}
	// The event keeps what Claude Code sent (the audit trail shows it).
	if !sameJSON(call.Event.ToolInput, []byte(`{"command": "ls"}`)) {
		t.Errorf("the event's input changed to %s", call.Event.ToolInput)
	}
}

func TestRunRewriteOneHook(t *testing.T) {
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: fixer, type: builtin, handler: script, options: {input: {file_path: /tmp/x}}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Write", `{"file_path": "x"}`, ""))
	h := specific(t, res)
	want := `massgen-hook: hook "fixer" rewrote this call's input; confirm the rewritten call.`
	if h.PermissionDecision != Ask || h.PermissionDecisionReason != want || !sameJSON(h.UpdatedInput, []byte(`{"file_path": "/tmp/x"}`)) {
		t.Errorf("got %+v", h)
	}
}

func TestRunAllowWithRewrite(t *testing.T) {
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: fixer, type: builtin, handler: script, options: {decision: allow, reason: safe now, input: {command: "git status"}}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{"command": "git status; rm x"}`, ""))
	h := specific(t, res)
	if h.PermissionDecision != Allow || h.PermissionDecisionReason != "safe now" || !sameJSON(h.UpdatedInput, []byte(`{"command": "git status"}`)) {
		t.Errorf("got %+v", h)
	}
}

// An allow is given for the input its rule saw. A rewrite by a later rule
// with no decision of its own was approved by no one, so it must not ride on
// that allow (which skips the user's prompt): the user confirms it, as for a
// rewrite with no decision at all.
func TestRunRewriteAfterAllowIsNotAutoApproved(t *testing.T) {
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: approver, type: builtin, handler: script, options: {decision: allow, reason: "ls is safe"}}`,
		`{name: rewriter, type: builtin, handler: script, options: {input: {command: "rm -rf ~"}}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{"command": "ls"}`, ""))
	h := specific(t, res)
	if h.PermissionDecision == Allow {
		t.Errorf("allow from %q (which saw {\"command\": \"ls\"}) auto-approves %q's later rewrite %s; "+
			"want ask: no rule approved the rewritten call", "approver", "rewriter", h.UpdatedInput)
	}
}

// For a CLI that judges a rewritten call by the user's own permission
// rules (Claude Code), a rewrite nobody decided on goes without a decision:
// no ask (a deny headless, a prompt the user's settings may not want), and
// never an allow, even after an allow that saw the original input. Every
// explicit decision stays as it is.
func TestRunRewriteJudgedByTheClient(t *testing.T) {
	judged := func(call *Call) *Call { call.Client.JudgesRewrites = true; return call }
	tests := []struct {
		name     string
		rules    []string
		decision string
		reason   string
		input    string
		summary  string
	}{
		{"rewrite alone", []string{
			`{name: fixer, type: builtin, handler: script, options: {input: {command: "trash x"}}}`,
		}, "", "", `{"command": "trash x"}`, "rewrite"},
		{"rewrite after an allow of the original", []string{
			`{name: approver, type: builtin, handler: script, options: {decision: allow, reason: "rm x is fine"}}`,
			`{name: rewriter, type: builtin, handler: script, options: {input: {command: "trash x"}}}`,
		}, "", "", `{"command": "trash x"}`, "rewrite"},
		{"rewrite that asks", []string{
			`{name: fixer, type: builtin, handler: script, options: {input: {command: "trash x"}}}`,
			`{name: asker, type: builtin, handler: script, options: {decision: ask, reason: check this}}`,
		}, Ask, "check this", `{"command": "trash x"}`, Ask},
		{"rewrite that allows its own rewrite", []string{
			`{name: fixer, type: builtin, handler: script, options: {decision: allow, reason: safe, input: {command: "trash x"}}}`,
		}, Allow, "safe", `{"command": "trash x"}`, Allow},
		{"rewrite then deny", []string{
			`{name: fixer, type: builtin, handler: script, options: {input: {command: "trash x"}}}`,
			`{name: guard, type: builtin, handler: script, options: {decision: deny, reason: no}}`,
		}, Deny, "no", "", Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := compileYAML(t, hooksYAML("PreToolUse", tt.rules...), testRegistry(&recorder{}))
			res := runCall(t, e, judged(newCall(t, pre, "", "Bash", `{"command": "rm x"}`, "")))
			h := specific(t, res)
			if h.PermissionDecision != tt.decision || h.PermissionDecisionReason != tt.reason {
				t.Errorf("decision %q %q, want %q %q", h.PermissionDecision, h.PermissionDecisionReason, tt.decision, tt.reason)
			}
			if tt.input == "" && h.UpdatedInput != nil || tt.input != "" && !sameJSON(h.UpdatedInput, []byte(tt.input)) {
				t.Errorf("updatedInput %s, want %s", h.UpdatedInput, tt.input)
			}
			if res.Decision != tt.summary {
				t.Errorf("Result.Decision %q, want %q", res.Decision, tt.summary)
			}
		})
	}
}

func TestRunAskWithRewrite(t *testing.T) {
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: fixer, type: builtin, handler: script, options: {input: {command: "ls"}}}`,
		`{name: asker, type: builtin, handler: script, options: {decision: ask, reason: check this}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{"command": "ls /"}`, ""))
	h := specific(t, res)
	if h.PermissionDecision != Ask || h.PermissionDecisionReason != "check this" || !sameJSON(h.UpdatedInput, []byte(`{"command": "ls"}`)) {
		t.Errorf("got %+v", h)
	}
}

func TestRunDenyDropsRewrite(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: fixer, type: builtin, handler: script, options: {id: fixer, input: {command: "rm -rf /tmp/x"}}}`,
		`{name: guard, type: builtin, handler: script, options: {id: guard, decision: deny, reason: no rm}}`,
	), testRegistry(rec))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{"command": "rm -rf /"}`, ""))
	h := specific(t, res)
	if h.PermissionDecision != Deny || h.PermissionDecisionReason != "no rm" || h.UpdatedInput != nil {
		t.Errorf("got %+v", h)
	}
	if s, _ := rec.get("guard"); !sameJSON([]byte(s.Input), []byte(`{"command": "rm -rf /tmp/x"}`)) {
		t.Errorf("the guard saw %s, not the rewrite", s.Input)
	}
}

func TestRunPreToolUseContext(t *testing.T) {
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: r1, type: builtin, handler: script, options: {inject: "remember the style guide", strategy: user_message}}`,
		`{name: r2, type: builtin, handler: script, options: {inject: "raw context", strategy: context}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Edit", `{}`, ""))
	h := specific(t, res)
	want := "<system-reminder>\nremember the style guide\n</system-reminder>\n\nraw context"
	if h.AdditionalContext != want || h.PermissionDecision != "" {
		t.Errorf("got %+v", h)
	}
	if res.Decision != "inject" {
		t.Errorf("Decision %q, want inject", res.Decision)
	}
	if res.Hooks[0].Injection != "remember the style guide" {
		t.Errorf("injection preview %q", res.Hooks[0].Injection)
	}

	// With a deny the context still goes out.
	e = compileYAML(t, hooksYAML("PreToolUse",
		`{name: r1, type: builtin, handler: script, options: {inject: "ctx", strategy: context}}`,
		`{name: r2, type: builtin, handler: script, options: {decision: deny, reason: no}}`,
	), testRegistry(&recorder{}))
	res = runCall(t, e, newCall(t, pre, "", "Edit", `{}`, ""))
	h = specific(t, res)
	if h.PermissionDecision != Deny || h.AdditionalContext != "ctx" || res.Decision != Deny {
		t.Errorf("got %+v", h)
	}
}

func TestRunPostToolUse(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: a, type: builtin, handler: script, options: {id: a, inject: "task done\n", strategy: user_message}}`,
		`{name: b, type: builtin, handler: script, options: {id: b, decision: deny, reason: "output leaks a key"}}`,
		`{name: c, type: builtin, handler: script, options: {id: c, inject: "peer answer", strategy: tool_result}}`,
		`{name: d, type: builtin, handler: script, options: {id: d, inject: "as is", strategy: context}}`,
	), testRegistry(rec))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{"command": "env"}`, `{"stdout": "KEY=x"}`))
	// No short-circuit on PostToolUse.
	if got := rec.ids(); !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("ran %q", got)
	}
	out := res.Output
	if out.Decision != "block" || out.Reason != "output leaks a key" {
		t.Errorf("top-level decision %q reason %q, want block", out.Decision, out.Reason)
	}
	want := "<system-reminder>\ntask done\n</system-reminder>\n\n" +
		separator + "\nSYSTEM CONTEXT (not part of tool output):\npeer answer\n" + separator +
		"\n\nas is"
	h := specific(t, res)
	if h.HookEventName != post || h.AdditionalContext != want || h.PermissionDecision != "" || h.UpdatedToolOutput != nil {
		t.Errorf("hookSpecificOutput %+v\nwant context %q", h, want)
	}
	if res.Decision != "block" || res.Reason != "output leaks a key" {
		t.Errorf("Result %q %q", res.Decision, res.Reason)
	}
	if got := decisions(res); !reflect.DeepEqual(got, []string{"a=none", "b=block", "c=none", "d=none"}) {
		t.Errorf("records %q", got)
	}
}

func TestRunPostToolUseInjectOnly(t *testing.T) {
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: a, type: builtin, handler: script, options: {inject: "one", strategy: tool_result}}`,
		`{name: b, type: builtin, handler: script, options: {inject: "two", strategy: tool_result}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{}`, `"text"`))
	// Each injection keeps its own separator block: MassGen applied the
	// last strategy to all of them.
	block := func(s string) string {
		return separator + "\nSYSTEM CONTEXT (not part of tool output):\n" + s + "\n" + separator
	}
	h := specific(t, res)
	if h.AdditionalContext != block("one")+"\n\n"+block("two") || res.Output.Decision != "" || res.Decision != "inject" {
		t.Errorf("got %+v, decision %q", h, res.Decision)
	}
}

// HookResult injections are combined as MassGen's execute_hooks combines
// them: one content, joined by newlines, in the last injector's strategy.
// Injections that are not HookResults (a built-in's, such as the inbox's)
// keep their own.
func TestRunHookResultInjectionsTakeLastStrategy(t *testing.T) {
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: a, shell: 'echo "{\"inject\": {\"content\": \"one\", \"strategy\": \"tool_result\"}}"'}`,
		`{name: inbox, type: builtin, handler: script, options: {inject: "message", strategy: tool_result}}`,
		`{name: b, shell: 'echo "{\"inject\": {\"content\": \"two\", \"strategy\": \"user_message\"}}"'}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{}`, `"text"`))
	want := "<system-reminder>\none\ntwo\n</system-reminder>\n\n" +
		separator + "\nSYSTEM CONTEXT (not part of tool output):\nmessage\n" + separator
	if h := specific(t, res); h.AdditionalContext != want {
		t.Errorf("context\n%q\nwant\n%q", h.AdditionalContext, want)
	}
}

// A single HookResult injection is rendered in its own strategy.
func TestRunHookResultInjectionAlone(t *testing.T) {
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: a, shell: 'echo "{\"inject\": {\"content\": \"one\"}}"'}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{}`, `"text"`))
	want := separator + "\nSYSTEM CONTEXT (not part of tool output):\none\n" + separator
	if h := specific(t, res); h.AdditionalContext != want {
		t.Errorf("context %q, want %q", h.AdditionalContext, want)
	}
}

func TestRunPostToolUseSeveralBlocks(t *testing.T) {
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: a, type: builtin, handler: script, options: {decision: deny, reason: first}}`,
		`{name: b, type: builtin, handler: script, options: {decision: deny, reason: second}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{}`, `{}`))
	if res.Output.Decision != "block" || res.Output.Reason != "first\nsecond" || res.Output.HookSpecificOutput != nil {
		t.Errorf("got %+v", res.Output)
	}
	if got := decisions(res); !reflect.DeepEqual(got, []string{"a=block", "b=block"}) {
		t.Errorf("records %q", got)
	}
}

// A rule may deny without a reason (a HookResult {"allowed": false}, or a
// built-in). On PostToolUse that becomes decision "block", which Claude Code
// only accepts with a reason: the output must still be valid.
func TestRunPostToolUseBlockWithoutReason(t *testing.T) {
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: quiet, type: builtin, handler: script, options: {decision: deny}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{}`, `{}`)) // runCall validates
	if res.Output.Decision != "block" || res.Output.Reason == "" {
		t.Errorf("deny without a reason on PostToolUse gave %+v; want block with a (default) reason", res.Output)
	}
}

func TestRunUpdatedToolOutputChains(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: mask, type: builtin, handler: script, options: {id: mask, output: {stdout: "KEY=[masked]"}}}`,
		`{name: look, type: builtin, handler: script, options: {id: look}}`,
		`{name: trim, type: builtin, handler: script, options: {id: trim, output: {stdout: "trimmed"}}}`,
		`{name: last, type: builtin, handler: script, options: {id: last}}`,
	), testRegistry(rec))
	call := newCall(t, post, "", "Bash", `{}`, `{"stdout": "KEY=secret"}`)
	res := runCall(t, e, call)
	for id, want := range map[string]string{
		"mask": `{"stdout": "KEY=secret"}`,
		"look": `{"stdout": "KEY=[masked]"}`,
		"trim": `{"stdout": "KEY=[masked]"}`,
		"last": `{"stdout": "trimmed"}`,
	} {
		if s, _ := rec.get(id); !sameJSON([]byte(s.Output), []byte(want)) {
			t.Errorf("%s saw output %s, want %s", id, s.Output, want)
		}
	}
	h := specific(t, res)
	if !sameJSON(h.UpdatedToolOutput, []byte(`{"stdout": "trimmed"}`)) || h.AdditionalContext != "" {
		t.Errorf("hookSpecificOutput %+v", h)
	}
	if res.Output.Decision != "" {
		t.Errorf("decision %q", res.Output.Decision)
	}
	if !sameJSON(call.Event.ToolResponse, []byte(`{"stdout": "KEY=secret"}`)) {
		t.Errorf("the event's response changed to %s", call.Event.ToolResponse)
	}
}

// For Claude Code, a replacement is given the tool's shape before the next
// rule sees it: a string becomes Bash's stdout (in the real output object,
// whose other fields stay). One that cannot be shaped (a string for Write,
// which has no known text field) is not sent, where Claude Code would drop
// it in silence: the model gets it as context after the original output,
// the user a warning, the record a note; later rules see the output
// unchanged.
func TestRunUpdatedToolOutputShaped(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: mask, type: builtin, handler: script, options: {id: mask, output: "KEY=[masked]"}}`,
		`{name: look, type: builtin, handler: script, options: {id: look}}`,
	), testRegistry(rec))
	shaped := func(c *Call) *Call { c.Client.ShapesOutput = true; return c }
	res := runCall(t, e, shaped(newCall(t, post, "", "Bash", `{}`, bashOut)))
	want := `{"stdout":"KEY=[masked]","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`
	if s, _ := rec.get("look"); s.Output != want {
		t.Errorf("look saw %s, want %s", s.Output, want)
	}
	if h := specific(t, res); string(h.UpdatedToolOutput) != want || h.AdditionalContext != "" || res.Output.SystemMessage != "" {
		t.Errorf("got %+v %q", h, res.Output.SystemMessage)
	}
	if res.Decision != "rewrite" {
		t.Errorf("Result.Decision %q", res.Decision)
	}

	rec = &recorder{}
	e = compileYAML(t, hooksYAML("PostToolUse",
		`{name: stamp, type: builtin, handler: script, options: {id: stamp, output: "written by the agent"}}`,
		`{name: look, type: builtin, handler: script, options: {id: look}}`,
	), testRegistry(rec))
	res = runCall(t, e, shaped(newCall(t, post, "", "Write", `{}`, writeOut)))
	if s, _ := rec.get("look"); !sameJSON([]byte(s.Output), []byte(writeOut)) {
		t.Errorf("look saw %s, want the tool's own output", s.Output)
	}
	h := specific(t, res)
	if h.UpdatedToolOutput != nil {
		t.Errorf("sent updatedToolOutput %s, which Claude Code would drop", h.UpdatedToolOutput)
	}
	wantCtx := "massgen-hook: hook \"stamp\" replaced the output of this Write call, in a form that cannot stand in for it; " +
		"the output above is the tool's own. The hook's replacement:\nwritten by the agent"
	if h.AdditionalContext != wantCtx {
		t.Errorf("context %q, want %q", h.AdditionalContext, wantCtx)
	}
	if want := `massgen-hook: hook "stamp" replaced the output of Write in a shape the tool's output does not have; the model got the original output, with the replacement as context after it.`; res.Output.SystemMessage != want {
		t.Errorf("systemMessage %q", res.Output.SystemMessage)
	}
	if got := res.Hooks[0].Notes; len(got) != 1 || got[0] != "updatedToolOutput does not fit the tool's output; given as context instead" {
		t.Errorf("notes %q", got)
	}
	if res.Decision != "inject" {
		t.Errorf("Result.Decision %q", res.Decision)
	}

	// A CLI that does not shape it (its dialect carries the replacement
	// its own way) gets the rule's replacement as given.
	res = runCall(t, e, newCall(t, post, "", "Write", `{}`, writeOut))
	if h := specific(t, res); string(h.UpdatedToolOutput) != `"written by the agent"` || h.AdditionalContext != "" {
		t.Errorf("unshaped: %+v", h)
	}
}

func TestRunPostToolUseIgnoresPreToolUseAnswers(t *testing.T) {
	e := compileYAML(t, hooksYAML("PostToolUse",
		`{name: a, type: builtin, handler: script, options: {decision: allow, input: {x: 1}}}`,
		`{name: b, type: builtin, handler: script, options: {decision: ask}}`,
		`{name: c, type: builtin, handler: script, options: {decision: defer}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{}`, `{}`))
	if !res.Output.IsEmpty() || res.Decision != "none" {
		t.Errorf("PreToolUse decisions on PostToolUse gave %+v (%s)", res.Output, res.Decision)
	}
}

func TestRunBuiltinError(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: boom, type: builtin, handler: script, options: {id: boom, error: kaboom}}`,
		`{name: after, type: builtin, handler: script, options: {id: after, decision: ask, reason: later rule}}`,
	), testRegistry(rec))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	// Fail open: no opinion, a warning for the user, and the chain goes on.
	if got := rec.ids(); !reflect.DeepEqual(got, []string{"boom", "after"}) {
		t.Errorf("ran %q", got)
	}
	if want := `massgen-hook: hook "boom" failed (kaboom); the call went ahead (fail open).`; res.Output.SystemMessage != want {
		t.Errorf("systemMessage %q, want %q", res.Output.SystemMessage, want)
	}
	if h := specific(t, res); h.PermissionDecision != Ask || h.PermissionDecisionReason != "later rule" {
		t.Errorf("hookSpecificOutput %+v", h)
	}
	r := res.Hooks[0]
	if r.Decision != "none" || r.Error != "kaboom" || r.Reason != "" {
		t.Errorf("record %+v", r)
	}

	// Alone, the failure is only the warning.
	e = compileYAML(t, hooksYAML("PreToolUse", `{name: boom, type: builtin, handler: script, options: {error: kaboom}}`), testRegistry(&recorder{}))
	res = runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	if res.Output.HookSpecificOutput != nil || res.Output.SystemMessage == "" || res.Decision != "none" {
		t.Errorf("lone failure gave %+v (%s)", res.Output, res.Decision)
	}
}

func TestRunBuiltinErrorFailClosed(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: boom, type: builtin, handler: script, fail_closed: true, options: {id: boom, error: kaboom}}`,
		`{name: after, type: builtin, handler: script, options: {id: after}}`,
	), testRegistry(rec))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	want := `massgen-hook: hook "boom" failed and is fail_closed: kaboom`
	h := specific(t, res)
	if h.PermissionDecision != Deny || h.PermissionDecisionReason != want {
		t.Errorf("hookSpecificOutput %+v, want deny %q", h, want)
	}
	if got := decisions(res); !reflect.DeepEqual(got, []string{"boom=deny", "after=skipped"}) {
		t.Errorf("records %q", got)
	}
	if res.Hooks[0].Error != "kaboom" {
		t.Errorf("record error %q", res.Hooks[0].Error)
	}
	if got := rec.ids(); !reflect.DeepEqual(got, []string{"boom"}) {
		t.Errorf("ran %q", got)
	}

	// On PostToolUse the same failure blocks.
	e = compileYAML(t, hooksYAML("PostToolUse",
		`{name: boom, type: builtin, handler: script, fail_closed: true, options: {error: kaboom}}`,
	), testRegistry(&recorder{}))
	res = runCall(t, e, newCall(t, post, "", "Bash", `{}`, `{}`))
	if res.Output.Decision != "block" || !strings.Contains(res.Output.Reason, "kaboom") || res.Hooks[0].Decision != "block" {
		t.Errorf("PostToolUse fail_closed gave %+v", res)
	}
}

func TestRunBuiltinPanics(t *testing.T) {
	for _, failClosed := range []bool{false, true} {
		fc := "false"
		if failClosed {
			fc = "true"
		}
		t.Run("fail_closed="+fc, func(t *testing.T) {
			rec := &recorder{}
			e := compileYAML(t, hooksYAML("PreToolUse",
				`{name: crash, type: builtin, handler: script, fail_closed: `+fc+`, options: {id: crash, panic: "oh no"}}`,
				`{name: after, type: builtin, handler: script, options: {id: after}}`,
			), testRegistry(rec))
			var res Result
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("a built-in's panic escaped Run: %v", p)
					}
				}()
				res = runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
			}()
			wantErr := `built-in check "script" panicked: oh no`
			if res.Hooks[0].Error != wantErr {
				t.Errorf("record error %q, want %q", res.Hooks[0].Error, wantErr)
			}
			if failClosed {
				h := specific(t, res)
				if h.PermissionDecision != Deny || !strings.Contains(h.PermissionDecisionReason, wantErr) {
					t.Errorf("fail_closed panic gave %+v", h)
				}
				if got := rec.ids(); !reflect.DeepEqual(got, []string{"crash"}) {
					t.Errorf("ran %q", got)
				}
				return
			}
			if res.Output.HookSpecificOutput != nil || !strings.Contains(res.Output.SystemMessage, wantErr) {
				t.Errorf("panic gave %+v", res.Output)
			}
			if got := rec.ids(); !reflect.DeepEqual(got, []string{"crash", "after"}) {
				t.Errorf("ran %q", got)
			}
		})
	}
}

func TestRunMissingCommandHandlerDenies(t *testing.T) {
	// A handler that is not on PATH fails the lookup: no process starts.
	e := compileYAML(t, hooksYAML("PreToolUse",
		`{name: guard, handler: massgen-hook-test-no-such-program-7f3a}`,
		`{name: after, type: builtin, handler: noop}`,
	), testRegistry(nil))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	h := specific(t, res)
	if h.PermissionDecision != Deny || !strings.Contains(h.PermissionDecisionReason, `hook "guard" cannot run`) ||
		!strings.Contains(h.PermissionDecisionReason, "not found") {
		t.Errorf("a missing handler gave %+v; want deny (configuration error) even without fail_closed", h)
	}
	if !strings.Contains(res.Output.SystemMessage, "cfg.yaml:3") {
		t.Errorf("systemMessage %q should say where the rule is", res.Output.SystemMessage)
	}
	if got := decisions(res); !reflect.DeepEqual(got, []string{"guard=deny", "after=skipped"}) || res.Hooks[0].Error == "" {
		t.Errorf("records %+v", res.Hooks)
	}
}

func TestRunStop(t *testing.T) {
	for _, event := range []string{pre, post} {
		t.Run(event, func(t *testing.T) {
			e := compileYAML(t, hooksYAML(event,
				`{name: a, type: builtin, handler: script, options: {}}`,
				`{name: b, type: builtin, handler: script, options: {stop: true, stop_reason: budget spent}}`,
				`{name: c, type: builtin, handler: script, options: {stop: true, stop_reason: second reason}}`,
			), testRegistry(&recorder{}))
			res := runCall(t, e, newCall(t, event, "", "Bash", `{}`, `{}`))
			if res.Output.Continue == nil || *res.Output.Continue || res.Output.StopReason != "budget spent" {
				t.Errorf("continue %v, stopReason %q; want false, budget spent", res.Output.Continue, res.Output.StopReason)
			}
		})
	}
	// A stop without a reason.
	e := compileYAML(t, hooksYAML(pre, `{name: a, type: builtin, handler: script, options: {stop: true}}`), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	if res.Output.Continue == nil || *res.Output.Continue {
		t.Errorf("continue %v", res.Output.Continue)
	}
}

func TestRunSystemMessagesJoined(t *testing.T) {
	e := compileYAML(t, hooksYAML(pre,
		`{name: a, type: builtin, handler: script, options: {system: first warning}}`,
		`{name: b, type: builtin, handler: script, options: {system: second warning}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	if res.Output.SystemMessage != "first warning\nsecond warning" {
		t.Errorf("systemMessage %q", res.Output.SystemMessage)
	}
}

func TestRunBuiltinGetsTimeout(t *testing.T) {
	rec := &recorder{}
	e := compileYAML(t, hooksYAML(pre, `{name: a, type: builtin, handler: script, timeout: 3, options: {id: a}}`), testRegistry(rec))
	runCall(t, e, newCall(t, pre, "", "Bash", `{}`, ""))
	s, _ := rec.get("a")
	if !s.HasDeadline || s.Deadline <= 0 || s.Deadline > 3*time.Second {
		t.Errorf("the built-in's context deadline is %v away (set %v); want within the rule's 3s timeout", s.Deadline, s.HasDeadline)
	}
}

func TestRunRecordNotesAndPreview(t *testing.T) {
	long := strings.Repeat("word ", 60)
	e := compileYAML(t, hooksYAML(post,
		`{name: a, type: builtin, handler: script, options: {note: "updated_input ignored", inject: "`+long+`", strategy: user_message}}`,
	), testRegistry(&recorder{}))
	res := runCall(t, e, newCall(t, post, "", "Bash", `{}`, `{}`))
	r := res.Hooks[0]
	if !reflect.DeepEqual(r.Notes, []string{"updated_input ignored"}) {
		t.Errorf("notes %q", r.Notes)
	}
	if r.Injection != previewText(long, 120) || !strings.HasSuffix(r.Injection, "…") {
		t.Errorf("injection preview %q", r.Injection)
	}
}

func TestRunAgentRules(t *testing.T) {
	rec := &recorder{}
	text := hooksYAML(pre, `{name: g, type: builtin, handler: script, options: {id: g}}`) +
		"agents:\n  - id: worker\n    hooks:\n      PreToolUse:\n        - {name: w, type: builtin, handler: script, options: {id: w, decision: ask}}\n" +
		"  - id: lone\n    hooks:\n      PreToolUse:\n        override: true\n        hooks:\n          - {name: l, type: builtin, handler: script, options: {id: l}}\n"
	e := compileYAML(t, text, testRegistry(rec))
	for _, tt := range []struct {
		agent string
		want  []string
	}{
		{"worker", []string{"g", "w"}},
		{"lone", []string{"l"}},
		{"", []string{"g"}},
		{"stranger", []string{"g"}},
	} {
		rec.calls = nil
		res := runCall(t, e, newCall(t, pre, tt.agent, "Bash", `{}`, ""))
		if got := rec.ids(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("agent %q ran %q, want %q", tt.agent, got, tt.want)
		}
		if len(res.Hooks) != len(tt.want) {
			t.Errorf("agent %q: %d records", tt.agent, len(res.Hooks))
		}
	}
}

func TestResultAudit(t *testing.T) {
	e := compileYAML(t, hooksYAML(pre,
		`{name: fixer, type: builtin, handler: script, options: {input: {command: "ls -la"}, inject: "note", strategy: context}}`,
		`{name: guard, type: builtin, handler: script, options: {decision: deny, reason: "no\nway"}}`,
		`{name: later, type: builtin, handler: noop}`,
	), testRegistry(&recorder{}))
	call := newCall(t, pre, "worker", "Bash", `{"command": "ls"}`, "")
	res := runCall(t, e, call)
	a := res.Audit(call)
	if a.Event != pre || a.Session != "sess-1" || a.Agent != "worker" || a.Tool != "Bash" || a.ToolUseID != "toolu_1" {
		t.Errorf("audit header %+v", a)
	}
	if a.Time != "2026-03-04T04:06:07.000008Z" {
		t.Errorf("time %q, want UTC RFC 3339", a.Time)
	}
	if a.Decision != Deny || a.Reason != "no way" {
		t.Errorf("decision %q reason %q", a.Decision, a.Reason)
	}
	// The input Claude Code sent, not the rewrite.
	if !sameJSON(a.Input, []byte(`{"command": "ls"}`)) {
		t.Errorf("input %s", a.Input)
	}
	// Every rule's record, including those before the deny and after it.
	if len(a.Hooks) != 3 {
		t.Fatalf("hooks %+v", a.Hooks)
	}
	want := []HookRecord{
		{Name: "fixer", Type: "builtin", Scope: "global", Decision: "none", Injection: "note", Rewrote: true},
		{Name: "guard", Type: "builtin", Scope: "global", Decision: Deny, Reason: "no way"},
		{Name: "later", Type: "builtin", Scope: "global", Decision: "skipped"},
	}
	for i := range want {
		got := a.Hooks[i]
		got.DurationMS = 0
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("hook %d: %+v, want %+v", i, got, want[i])
		}
	}
	// Audit copies: the result's own records keep the full reason.
	if res.Hooks[1].Reason != "no\nway" {
		t.Errorf("Audit changed the result's records: %q", res.Hooks[1].Reason)
	}
	// It encodes as one JSON line.
	b, err := json.Marshal(a)
	if err != nil || bytes.Contains(b, []byte("\n")) {
		t.Errorf("Marshal = %s, %v", b, err)
	}
}

func TestResultAuditRedacts(t *testing.T) {
	e := compileYAML(t, hooksYAML(pre,
		`{name: guard, type: builtin, handler: script, options: {decision: deny, reason: "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 in command"}}`,
	), testRegistry(&recorder{}))
	call := newCall(t, pre, "", "Bash", `{"command": "curl -H 'Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz0123456789'", "password": "hunter2"}`, "")
	res := runCall(t, e, call)
	a := res.Audit(call)
	b, _ := json.Marshal(a)
	for _, secret := range []string{"ghp_abcdefghijklmnopqrstuvwxyz0123456789", "sk-abcdefghijklmnopqrstuvwxyz0123456789", "hunter2"} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("audit line keeps %q: %s", secret, b)
		}
	}
	if !json.Valid(a.Input) {
		t.Errorf("audit input is not JSON: %s", a.Input)
	}
}

func TestResultAuditTruncatesInput(t *testing.T) {
	e := compileYAML(t, hooksYAML(pre, `{name: a, type: builtin, handler: noop}`), testRegistry(nil))
	big := `{"content": "` + strings.Repeat("x", 10000) + `"}`
	call := newCall(t, pre, "", "Write", big, "")
	res := runCall(t, e, call)
	a := res.Audit(call)
	if len(a.Input) > maxAuditInput+100 || !json.Valid(a.Input) {
		t.Errorf("audit input is %d bytes (valid %v), want at most about %d", len(a.Input), json.Valid(a.Input), maxAuditInput)
	}
}
