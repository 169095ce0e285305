package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestQuietAudit: a silent pass of the default rules alone is a short
// line (no rule records; the input redacted when small, its size when
// not). Anything else is a full line: a configured rule ran, a default
// failed or left a note, or something was decided or injected.
func TestQuietAudit(t *testing.T) {
	quietHooks := []HookRecord{{Name: "tool_schema", Scope: "default", Decision: "none"}, {Name: "dangerous_commands", Scope: "default", Decision: "none"}}
	for _, tt := range []struct {
		name  string
		res   Result
		quiet bool
	}{
		{"defaults passed", Result{Decision: "none", Hooks: quietHooks}, true},
		{"a configured rule ran", Result{Decision: "none", Hooks: append(quietHooks, HookRecord{Name: "mine", Scope: "global", Decision: "none"})}, false},
		{"a default failed", Result{Decision: "none", Hooks: []HookRecord{{Name: "inbox", Scope: "default", Decision: "none", Error: "disk full"}}}, false},
		{"a default left a note", Result{Decision: "none", Hooks: []HookRecord{{Name: "x", Scope: "default", Decision: "none", Notes: []string{"n"}}}}, false},
		{"a default denied", Result{Decision: Deny, Hooks: quietHooks}, false},
		{"the inbox delivered", Result{Decision: "inject", Hooks: quietHooks}, false},
	} {
		if got := tt.res.Quiet(); got != tt.quiet {
			t.Errorf("%s: Quiet() = %v", tt.name, got)
		}
	}

	res := Result{Decision: "none", Hooks: quietHooks}
	call := newCall(t, pre, "reviewer", "Bash", `{"command": "curl -H 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' x"}`, "")
	line, err := json.Marshal(res.Audit(call))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(line), "abcdefghijklmnop") || !strings.Contains(string(line), "[REDACTED]") {
		t.Errorf("the secret is not masked: %s", line)
	}
	want := `{"time":"2026-03-04T04:06:07.000008Z","event":"PreToolUse","session_id":"sess-1","agent":"reviewer","tool":"Bash","tool_use_id":"toolu_1","tool_input":`
	if !strings.HasPrefix(string(line), want) || !strings.HasSuffix(string(line), `,"decision":"none"}`) {
		t.Errorf("line %s", line)
	}

	big := `{"file_path": "a.md", "content": "` + strings.Repeat("x", maxQuietInput) + `"}`
	line, _ = json.Marshal(res.Audit(newCall(t, pre, "", "Write", big, "")))
	if strings.Contains(string(line), "xxxx") || !strings.Contains(string(line), `"tool_input_bytes":`+itoa(len(big))+`,"decision":"none"}`) {
		t.Errorf("big input line %s", line)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
