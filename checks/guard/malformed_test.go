package guard

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
)

// guardCall is a PreToolUse call of tool with input (nil: no tool_input).
func guardCall(tool string, input string) *engine.Call {
	name, _ := json.Marshal(tool)
	ev, err := protocol.ParseEvent([]byte(`{"hook_event_name":"PreToolUse","tool_name":`+string(name)+`}`), protocol.PreToolUse)
	if err != nil {
		panic(err)
	}
	ev.ToolName = tool // exactly, invalid UTF-8 included (Marshal would replace it)
	if input != "" {
		ev.ToolInput = json.RawMessage(input)
	}
	return &engine.Call{Event: ev, HookType: protocol.PreToolUse, ToolInput: ev.ToolInput}
}

func TestMalformedToolName(t *testing.T) {
	check, err := NewMalformedToolCall(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want string // in the reason; "" means no opinion
	}{
		// Concatenation garbage and markup.
		{"Write</invoke>", `"Write</invoke>" contains XML markup`},
		{`<parameter name="x">`, "contains XML markup"},
		{"Bash<", "contains XML markup"},
		{"Bash>", "contains XML markup"},
		{`Bash{"command":"ls"}`, "contains a brace"},
		{"}", "contains a brace"},
		{`Bash"`, "contains a quote"},
		{"Bash'", "contains a quote"},
		{"Bash`", "contains a quote"},
		{"Bash Write", "contains whitespace"},
		{"Bash\n", "contains whitespace"},
		{"\tBash", "contains whitespace"},
		{"Bash\u00a0", "contains whitespace"},
		{"Bash\x00", "control or invisible"},
		{"Bash\x1b[0m", "control or invisible"},
		{"Ba\u200bsh", "control or invisible"},
		{"Bash\xff", "not valid UTF-8"},
		{"", "the tool name is empty"},
		{strings.Repeat("a", 201), "201 bytes long"},
		// Real names, some near misses.
		{"Bash", ""},
		{"NotebookEdit", ""},
		{"mcp__github__get_pull_request_reviews", ""},
		{"mcp__plugin_x_y__tool", ""},
		{"mcp__vibe-check-npm__productivity_intervention", ""},
		{"mcp__server.v2__tool", ""},
		{"mcp__planning__update_task_status", ""},
		{strings.Repeat("a", 200), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := check.Check(context.Background(), guardCall(tc.name, `{"command":"ls"}`))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if v.Decision != "" || v.Reason != "" {
					t.Fatalf("valid name %q: got %+v, want no opinion", tc.name, v)
				}
				return
			}
			if v.Decision != engine.Deny {
				t.Fatalf("decision %q, want deny", v.Decision)
			}
			for _, s := range []string{"⚠️ BLOCKED: malformed tool call: ", tc.want, malformedAdvice} {
				if !strings.Contains(v.Reason, s) {
					t.Errorf("reason %q lacks %q", v.Reason, s)
				}
			}
			if !strings.HasPrefix(v.SystemMessage, "⚠️ BLOCKED: Malformed tool name") {
				t.Errorf("system message %q", v.SystemMessage)
			}
		})
	}
}

// TestMalformedLongNameCut: a runaway name is quoted cut short, not whole.
func TestMalformedLongNameCut(t *testing.T) {
	check, _ := NewMalformedToolCall(nil)
	name := "Write" + strings.Repeat("<parameter>é", 500)
	v, err := check.Check(context.Background(), guardCall(name, ""))
	if err != nil {
		t.Fatal(err)
	}
	if v.Decision != engine.Deny || !strings.Contains(v.Reason, `"Write<parameter>`) || !strings.Contains(v.Reason, "…") {
		t.Fatalf("got %+v", v)
	}
	if len(v.Reason) > 400 || len(v.SystemMessage) > 200 {
		t.Errorf("reason (%d bytes) or system message (%d bytes) carries the whole name", len(v.Reason), len(v.SystemMessage))
	}
}

func TestMalformedToolInput(t *testing.T) {
	check, _ := NewMalformedToolCall(nil)
	for _, tc := range []struct {
		input string
		want  string // "" means no opinion
	}{
		{`[{"command":"ls"}]`, "a JSON array"},
		{`"ls -la"`, "a JSON string"},
		{`42`, "a JSON number"},
		{`-1`, "a JSON number"},
		{`null`, "JSON null"},
		{`true`, "a JSON boolean"},
		{`<invoke>`, "not JSON"},
		{``, ""}, // no tool_input: older events
		{`{}`, ""},
		{`{"command":"ls"}`, ""},
		{"  \n{\"command\":\"ls\"}", ""},
	} {
		t.Run(tc.input, func(t *testing.T) {
			v, err := check.Check(context.Background(), guardCall("Bash", tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if v.Decision != "" {
					t.Fatalf("got %+v, want no opinion", v)
				}
				return
			}
			if v.Decision != engine.Deny || !strings.Contains(v.Reason, tc.want) || !strings.Contains(v.Reason, "not a JSON object") ||
				!strings.Contains(v.Reason, malformedAdvice) {
				t.Fatalf("got %+v, want a denial saying %q", v, tc.want)
			}
		})
	}
}

// TestMalformedSeesRewrite: the check reads the input as the current rule
// sees it, a previous rule's rewrite included.
func TestMalformedSeesRewrite(t *testing.T) {
	check, _ := NewMalformedToolCall(nil)
	call := guardCall("Bash", `{"command":"ls"}`)
	call.ToolInput = json.RawMessage(`["ls"]`)
	if v, _ := check.Check(context.Background(), call); v.Decision != engine.Deny {
		t.Fatalf("got %+v, want deny", v)
	}
}

func TestMalformedOptions(t *testing.T) {
	if _, err := NewMalformedToolCall(nil); err != nil {
		t.Fatalf("nil options: %v", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("strict: true\n"), &doc); err != nil {
		t.Fatal(err)
	}
	if _, err := NewMalformedToolCall(doc.Content[0]); err == nil || !strings.Contains(err.Error(), "no options") {
		t.Fatalf("options given: err %v, want a refusal", err)
	}
}

func BenchmarkMalformedToolCall(b *testing.B) {
	check, _ := NewMalformedToolCall(nil)
	call := guardCall("mcp__github__get_pull_request_reviews", `{"owner":"a","repo":"b"}`)
	ctx := context.Background()
	for b.Loop() {
		if v, _ := check.Check(ctx, call); v.Decision != "" {
			b.Fatal(v)
		}
	}
}
