package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func boolPtr(b bool) *bool { return &b }

func TestWriteExactBytes(t *testing.T) {
	tests := []struct {
		name  string
		event string
		out   Output
		want  string
	}{
		{"block stop", Stop, Block("write the scratchpad"),
			`{"decision":"block","reason":"write the scratchpad"}`},
		{"block subagent stop", SubagentStop, Block("r"), `{"decision":"block","reason":"r"}`},
		{"block post tool use", PostToolUse, Block("r"), `{"decision":"block","reason":"r"}`},
		{"block user prompt", UserPromptSubmit, Block("r"), `{"decision":"block","reason":"r"}`},
		{"deny", PreToolUse, Deny("use gofmt"),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use gofmt"}}`},
		{"ask", PreToolUse, AskUser("sure?"),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`},
		{"deny without reason", PreToolUse, Deny(""),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`},
		{"allow with updated input", PreToolUse,
			Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow, UpdatedInput: json.RawMessage(`{ "command" : "ls" }`)}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`},
		{"defer", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionDefer}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`},
		{"grant permission", PermissionRequest, GrantPermission(),
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"deny permission", PermissionRequest, Output{HookSpecificOutput: &HookSpecific{Decision: &PermissionBehavior{Behavior: DecisionDeny, Message: "no"}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
		{"html not escaped", Stop, Block("a < b && c > d"), `{"decision":"block","reason":"a < b && c > d"}`},
		{"newlines and quotes escaped", Stop, Block("l1\nl2 \"q\""), `{"decision":"block","reason":"l1\nl2 \"q\""}`},
		{"stop everything", Notification, Output{Continue: boolPtr(false), StopReason: "halt", SystemMessage: "warn"},
			`{"continue":false,"stopReason":"halt","systemMessage":"warn"}`},
		{"continue true", Notification, Output{Continue: boolPtr(true)}, `{"continue":true}`},
		{"suppress output", PostToolUse, Output{SuppressOutput: true}, `{"suppressOutput":true}`},
		{"system message only", SessionEnd, Output{SystemMessage: "bye"}, `{"systemMessage":"bye"}`},
		{"field order", Stop, Output{
			Continue: boolPtr(false), StopReason: "s", SuppressOutput: true, SystemMessage: "m",
			Decision: "block", Reason: "r", HookSpecificOutput: &HookSpecific{AdditionalContext: "c"}},
			`{"continue":false,"stopReason":"s","suppressOutput":true,"systemMessage":"m","decision":"block","reason":"r",` +
				`"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"c"}}`},
		{"hookEventName filled in", SessionStart, Output{HookSpecificOutput: &HookSpecific{AdditionalContext: "ctx"}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}`},
		{"empty hookSpecificOutput", Stop, Output{HookSpecificOutput: &HookSpecific{}},
			`{"hookSpecificOutput":{"hookEventName":"Stop"}}`},
	}
	for _, event := range []string{PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionStart} {
		tests = append(tests, struct {
			name  string
			event string
			out   Output
			want  string
		}{"context " + event, event, Context(event, "<b>&amp;</b>"),
			`{"hookSpecificOutput":{"hookEventName":"` + event + `","additionalContext":"<b>&amp;</b>"}}`})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.out.Validate(tt.event); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			var buf bytes.Buffer
			if err := Write(&buf, tt.event, tt.out); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if got := buf.String(); got != tt.want+"\n" {
				t.Errorf("wrote\n%s\nwant\n%s", got, tt.want+"\n")
			}
			if !json.Valid(buf.Bytes()) {
				t.Error("output is not valid JSON")
			}
		})
	}
}

func TestWriteDoesNotModifyCaller(t *testing.T) {
	h := &HookSpecific{AdditionalContext: strings.Repeat("x", MaxStringLen+10)}
	o := Output{HookSpecificOutput: h}
	if err := Write(&bytes.Buffer{}, Stop, o); err != nil {
		t.Fatal(err)
	}
	if h.HookEventName != "" || len(h.AdditionalContext) != MaxStringLen+10 {
		t.Errorf("Write changed the caller's HookSpecific: %q, %d", h.HookEventName, len(h.AdditionalContext))
	}
}

func TestWriteZeroOutputWritesNothing(t *testing.T) {
	for _, event := range []string{Stop, PreToolUse, SessionEnd, "", "Unknown"} {
		var buf bytes.Buffer
		if err := Write(&buf, event, Output{}); err != nil {
			t.Errorf("%q: %v", event, err)
		}
		if buf.Len() != 0 {
			t.Errorf("%q: wrote %q for the zero Output", event, buf.String())
		}
		if err := (Output{}).Validate(event); err != nil {
			t.Errorf("%q: zero Output invalid: %v", event, err)
		}
	}
	if !(Output{}).IsEmpty() {
		t.Error("zero Output is not empty")
	}
	if (Output{SuppressOutput: true}).IsEmpty() || Block("x").IsEmpty() || (Output{Continue: boolPtr(true)}).IsEmpty() {
		t.Error("non-zero Output reported empty")
	}
}

func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name  string
		event string
		out   Output
		msg   string
	}{
		{"block on SessionStart", SessionStart, Block("r"), `decision "block" is not how SessionStart blocks`},
		{"block on PreToolUse", PreToolUse, Block("r"), `decision "block" is not how PreToolUse blocks`},
		{"block on SubagentStart", SubagentStart, Block("r"), "is not how"},
		{"block on Notification", Notification, Block("r"), "is not how"},
		{"block without reason", Stop, Output{Decision: "block"}, "needs a reason"},
		{"reason without decision", Stop, Output{Reason: "r"}, `reason without decision "block"`},
		{"decision approve", Stop, Output{Decision: "approve"}, `decision "approve": only "block" is current`},
		{"decision approve with reason", PreToolUse, Output{Decision: "approve", Reason: "ok"}, `decision "approve"`},
		{"decision Block capitalised", Stop, Output{Decision: "Block", Reason: "r"}, `decision "Block"`},
		{"permissionDecision on Stop", Stop, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionDeny}},
			"permission decisions belong to PreToolUse"},
		{"deny helper on Stop", Stop, Deny("x"), `hookEventName is "PreToolUse"`},
		{"permissionDecisionReason alone on Stop", Stop, Output{HookSpecificOutput: &HookSpecific{PermissionDecisionReason: "x"}},
			"permission decisions belong to PreToolUse"},
		{"updatedInput on PostToolUse", PostToolUse, Output{HookSpecificOutput: &HookSpecific{UpdatedInput: json.RawMessage(`{}`)}},
			"permission decisions belong to PreToolUse"},
		{"unknown permissionDecision", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: "block"}},
			`permissionDecision "block"`},
		{"rewrite and reason without permissionDecision", PreToolUse, Output{HookSpecificOutput: &HookSpecific{UpdatedInput: json.RawMessage(`{}`), PermissionDecisionReason: "why"}},
			`permissionDecision ""`},
		{"reason without permissionDecision", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecisionReason: "why"}},
			`permissionDecision ""`},
		{"additionalContext on SessionEnd", SessionEnd, Context(SessionEnd, "x"), "additionalContext is not read on SessionEnd"},
		{"additionalContext on Notification", Notification, Context(Notification, "x"), "additionalContext is not read on Notification"},
		{"additionalContext on PermissionRequest", PermissionRequest, Context(PermissionRequest, "x"), "not read on PermissionRequest"},
		{"permission decision on PreToolUse", PreToolUse, Output{HookSpecificOutput: &HookSpecific{Decision: &PermissionBehavior{Behavior: DecisionAllow}}},
			"decision {behavior} belongs to PermissionRequest"},
		{"grant helper on Stop", Stop, GrantPermission(), `hookEventName is "PermissionRequest"`},
		{"permission behavior ask", PermissionRequest, Output{HookSpecificOutput: &HookSpecific{Decision: &PermissionBehavior{Behavior: DecisionAsk}}},
			`decision.behavior "ask"`},
		{"permission behavior empty", PermissionRequest, Output{HookSpecificOutput: &HookSpecific{Decision: &PermissionBehavior{}}},
			`decision.behavior ""`},
		{"message on an allow", PermissionRequest, Output{HookSpecificOutput: &HookSpecific{Decision: &PermissionBehavior{Behavior: DecisionAllow, Message: "m"}}},
			`decision.message goes with behavior "deny"`},
		{"permissionDecision on PermissionRequest", PermissionRequest, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow}},
			"permission decisions belong to PreToolUse"},
		{"additionalContext on PreCompact", PreCompact, Context(PreCompact, "x"), "not read on PreCompact"},
		{"hookEventName mismatch", Stop, Context(SubagentStop, "x"), `hookSpecificOutput.hookEventName is "SubagentStop"`},
		{"updatedInput array", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow, UpdatedInput: json.RawMessage(`[1]`)}},
			"updatedInput must be a JSON object"},
		{"updatedInput string", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow, UpdatedInput: json.RawMessage(`"x"`)}},
			"updatedInput must be a JSON object"},
		{"updatedInput null", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow, UpdatedInput: json.RawMessage(`null`)}},
			"updatedInput must be a JSON object"},
		{"updatedInput invalid JSON", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow, UpdatedInput: json.RawMessage(`{`)}},
			"updatedInput must be a JSON object"},
		{"updatedInput empty", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow, UpdatedInput: json.RawMessage{}}},
			"updatedInput must be a JSON object"},
		{"stopReason without continue", Stop, Output{StopReason: "s"}, "stopReason without continue: false"},
		{"stopReason with continue true", Stop, Output{Continue: boolPtr(true), StopReason: "s"}, "stopReason without continue: false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.out.Validate(tt.event)
			checkShapeErr(t, err, tt.event, tt.msg)
			var buf bytes.Buffer
			err = Write(&buf, tt.event, tt.out)
			checkShapeErr(t, err, tt.event, "")
			if buf.Len() != 0 {
				t.Errorf("Write wrote %q for a rejected Output", buf.String())
			}
		})
	}
}

func checkShapeErr(t *testing.T, err error, event, msg string) {
	t.Helper()
	var se *ShapeError
	if !errors.As(err, &se) {
		t.Fatalf("error = %v (%T), want *ShapeError", err, err)
	}
	if se.Event != event {
		t.Errorf("ShapeError.Event = %q, want %q", se.Event, event)
	}
	if !strings.HasPrefix(err.Error(), "output not valid for "+event+": ") {
		t.Errorf("error %q lacks its prefix", err)
	}
	if !strings.Contains(se.Msg, msg) {
		t.Errorf("ShapeError.Msg = %q, want it to contain %q", se.Msg, msg)
	}
}

func TestValidateAccepts(t *testing.T) {
	tests := []struct {
		name  string
		event string
		out   Output
	}{
		{"stop reason with continue false", Stop, Output{Continue: boolPtr(false), StopReason: "s"}},
		{"continue false alone", SessionStart, Output{Continue: boolPtr(false)}},
		{"system message on any event", PreCompact, Output{SystemMessage: "m"}},
		{"deny", PreToolUse, Deny("x")},
		{"ask", PreToolUse, AskUser("x")},
		{"allow", PreToolUse, Output{HookSpecificOutput: &HookSpecific{PermissionDecision: DecisionAllow}}},
		{"context pre tool use", PreToolUse, Context(PreToolUse, "x")},
		{"context with empty event name", SessionStart, Context("", "x")},
		{"empty context anywhere", SessionEnd, Output{HookSpecificOutput: &HookSpecific{}}},
		{"rewrite without a decision", PreToolUse, Output{HookSpecificOutput: &HookSpecific{UpdatedInput: json.RawMessage(`{"command":"ls"}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.out.Validate(tt.event); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if err := Write(&bytes.Buffer{}, tt.event, tt.out); err != nil {
				t.Errorf("Write: %v", err)
			}
		})
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestWriteReportsWriterError(t *testing.T) {
	boom := errors.New("boom")
	if err := Write(failWriter{boom}, Stop, Block("r")); !errors.Is(err, boom) {
		t.Errorf("Write = %v, want %v", err, boom)
	}
}

func TestWriteCapsEveryString(t *testing.T) {
	long := strings.Repeat("é", MaxStringLen) + strings.Repeat("😀", 50)
	tests := []struct {
		name  string
		event string
		out   Output
		get   func(map[string]any) string
	}{
		{"reason", Stop, Block(long), func(m map[string]any) string { return m["reason"].(string) }},
		{"stopReason", Stop, Output{Continue: boolPtr(false), StopReason: long}, func(m map[string]any) string { return m["stopReason"].(string) }},
		{"systemMessage", Stop, Output{SystemMessage: long}, func(m map[string]any) string { return m["systemMessage"].(string) }},
		{"additionalContext", SessionStart, Context(SessionStart, long), func(m map[string]any) string {
			return m["hookSpecificOutput"].(map[string]any)["additionalContext"].(string)
		}},
		{"permissionDecisionReason", PreToolUse, Deny(long), func(m map[string]any) string {
			return m["hookSpecificOutput"].(map[string]any)["permissionDecisionReason"].(string)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, tt.event, tt.out); err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			got := tt.get(m)
			if n := utf16Units(got); n > MaxStringLen {
				t.Errorf("%s is %d UTF-16 units, over %d", tt.name, n, MaxStringLen)
			}
			if want := Truncate(long, MaxStringLen); got != want {
				t.Errorf("%s was not cut by Truncate", tt.name)
			}
			if !strings.Contains(got, "[truncated by massgen-hook: ") {
				t.Errorf("%s has no truncation marker", tt.name)
			}
		})
	}
}

func TestWriteOneTrailingNewline(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, Stop, Block("ends with newlines\n\n")); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("output %q is not one line with one trailing newline", out)
	}
}
