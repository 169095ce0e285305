package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encoderOutput is what Write wrote before appendJSON: the Encoder, HTML
// characters as they are, from the field tags.
func encoderOutput(t *testing.T, o Output) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(o)
	return strings.TrimSuffix(buf.String(), "\n"), err
}

func checkOutputJSON(t *testing.T, o Output) {
	t.Helper()
	want, wantErr := encoderOutput(t, o)
	got, err := o.appendJSON(nil)
	if (err != nil) != (wantErr != nil) || err == nil && string(got) != want {
		t.Errorf("appendJSON:\n%s (%v)\nwant\n%s (%v)", got, err, want, wantErr)
	}
}

// TestOutputJSONIsEncoders: every field, empty and set, with the text an
// answer carries (HTML characters, quotes, newlines, invalid UTF-8,
// U+2028) and spaced-out raw inputs, as the Encoder writes them.
func TestOutputJSONIsEncoders(t *testing.T) {
	no, yes := false, true
	text := "a <b> & \"c\"\n\td \xff \u2028 é"
	for _, o := range []Output{
		{},
		{Continue: &no, StopReason: text},
		{Continue: &yes, SuppressOutput: true, SystemMessage: text, Decision: "block", Reason: text},
		{HookSpecificOutput: &HookSpecific{}},
		{SystemMessage: "s", HookSpecificOutput: &HookSpecific{HookEventName: PreToolUse, PermissionDecision: "deny",
			PermissionDecisionReason: text, UpdatedInput: json.RawMessage("{ \"command\" : \"ls <x>\",\n \"n\": [1, 2.50] }"),
			AdditionalContext: text, UpdatedToolOutput: json.RawMessage(` "out" `),
			Decision: &PermissionBehavior{Behavior: "deny", Message: text}}},
		{HookSpecificOutput: &HookSpecific{HookEventName: PermissionRequest, Decision: &PermissionBehavior{Behavior: "allow"}}},
		{HookSpecificOutput: &HookSpecific{UpdatedInput: json.RawMessage(`{"a":`)}},
	} {
		checkOutputJSON(t, o)
	}
}

func FuzzOutputJSON(f *testing.F) {
	f.Add("reason <a>", "ctx\n", `{"command":"ls"}`, true)
	f.Add("", "", ``, false)
	f.Add("\xff\u2029", "&", ` [1, {"a" : null}] `, true)
	f.Fuzz(func(t *testing.T, reason, ctx, raw string, flag bool) {
		o := Output{SystemMessage: ctx, Decision: reason, Reason: reason, SuppressOutput: flag}
		if flag {
			o.Continue = &flag
			o.HookSpecificOutput = &HookSpecific{HookEventName: reason, PermissionDecision: ctx,
				PermissionDecisionReason: reason, UpdatedInput: json.RawMessage(raw), AdditionalContext: ctx,
				Decision: &PermissionBehavior{Behavior: reason, Message: ctx}}
		}
		checkOutputJSON(t, o)
	})
}
