package dialect

import (
	"encoding/json"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// Gemini CLI 0.61.0 runs BeforeTool before its own permission check, and
// that check judges the input a hook rewrote: a rewrite no rule decided
// goes alone, and Gemini asks the user, or not, as it would for that call.
// An ask a rule made is still a deny (-p has nobody to ask).
func TestGeminiRewriteGoesAlone(t *testing.T) {
	confirm := protocol.Output{HookSpecificOutput: &protocol.HookSpecific{
		PermissionDecision: protocol.DecisionAsk, AskConfirmsRewrite: true,
		PermissionDecisionReason: "massgen-hook: hook \"fix\" rewrote this call's input; confirm the rewritten call.",
		UpdatedInput:             json.RawMessage(`{"command":"ls","dir_path":"src"}`)}}
	got, _ := answer(t, Gemini, "BeforeTool", protocol.PreToolUse, confirm)
	if want := `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls","dir_path":"src"}}}`; got != want {
		t.Errorf("a rewrite no rule decided: %s, want %s", got, want)
	}

	asked := confirm
	h := *confirm.HookSpecificOutput
	h.AskConfirmsRewrite, h.PermissionDecisionReason = false, "check this"
	asked.HookSpecificOutput = &h
	got, _ = answer(t, Gemini, "BeforeTool", protocol.PreToolUse, asked)
	var v struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(got), &v); err != nil || v.Decision != "deny" {
		t.Errorf("a rule's own ask with a rewrite: %s, want a deny", got)
	}
}
