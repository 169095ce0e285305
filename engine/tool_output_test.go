package engine

import (
	"encoding/json"
	"testing"
)

// bashOut, readOut and agentOut are the outputs Claude Code 2.1.328's
// tools return (see the real PostToolUse payloads), trimmed.
const (
	bashOut  = `{"stdout":"token abc123","stderr":"warning: abc123","interrupted":false,"isImage":false,"noOutputExpected":false}`
	readOut  = `{"type":"text","file":{"filePath":"/p/f1.txt","content":"1\n","numLines":2,"startLine":1,"totalLines":2}}`
	agentOut = `{"status":"completed","agentId":"a9","content":[{"type":"text","text":"<tools-used-before-summary>Write</tools-used-before-summary>\n"},{"type":"text","text":"done"}],"totalTokens":15}`
	writeOut = `{"type":"create","filePath":"/p/a.md","content":"x","structuredPatch":[],"originalFile":null}`
)

// TestConformOutput: a replacement Claude Code would drop (a string for an
// object, a partial object) is given the tool's own shape where that is
// known; what cannot be shaped fails, for the caller's fallback.
func TestConformOutput(t *testing.T) {
	tests := []struct {
		name, tool, original, replacement string
		want                              string // "" when it cannot be shaped
	}{
		{"Bash: a string is stdout, stderr emptied", "Bash", bashOut, `"token [hidden]"`,
			`{"stdout":"token [hidden]","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`},
		{"Bash: a partial object keeps the other fields", "Bash", bashOut, `{"stdout":"token [hidden]"}`,
			`{"stdout":"token [hidden]","stderr":"warning: abc123","interrupted":false,"isImage":false,"noOutputExpected":false}`},
		{"Bash: the whole object", "Bash", bashOut, `{"stdout":"a","stderr":"b","interrupted":false,"isImage":false,"noOutputExpected":false}`,
			`{"stdout":"a","stderr":"b","interrupted":false,"isImage":false,"noOutputExpected":false}`},
		{"Bash: a field of another type", "Bash", bashOut, `{"stdout":["a"]}`, ""},
		{"Bash: null for a string", "Bash", bashOut, `{"stderr":null}`, ""},
		{"Bash: new fields kept, after the tool's", "Bash", bashOut, `{"note":"x","stdout":"y"}`,
			`{"stdout":"y","stderr":"warning: abc123","interrupted":false,"isImage":false,"noOutputExpected":false,"note":"x"}`},
		{"Read: a string is the file's content", "Read", readOut, `"[redacted]"`,
			`{"type":"text","file":{"filePath":"/p/f1.txt","content":"[redacted]","numLines":2,"startLine":1,"totalLines":2}}`},
		{"Read: a nested partial object", "Read", readOut, `{"file":{"content":"x"}}`,
			`{"type":"text","file":{"filePath":"/p/f1.txt","content":"x","numLines":2,"startLine":1,"totalLines":2}}`},
		{"Read of an image: no text field", "Read", `{"type":"image","file":{"base64":"AAAA","type":"image/png"}}`, `"x"`, ""},
		{"Agent: a string is its content", "Agent", agentOut, `"summary"`,
			`{"status":"completed","agentId":"a9","content":[{"type":"text","text":"summary"}],"totalTokens":15}`},
		{"Task: the Agent tool's old name", "Task", agentOut, `"summary"`,
			`{"status":"completed","agentId":"a9","content":[{"type":"text","text":"summary"}],"totalTokens":15}`},
		{"Write: no known text field", "Write", writeOut, `"x"`, ""},
		{"an MCP tool's string over an object", "mcp__db__query", `{"rows":[]}`, `"x"`, ""},
		{"a string tool's string", "LS", `"- a\n- b"`, `"- a"`, `"- a"`},
		{"a string tool's object", "LS", `"- a"`, `{"x":1}`, ""},
		{"an MCP array for an array", "mcp__s__t", `[{"type":"text","text":"a"}]`, `[{"type":"text","text":"b"}]`, `[{"type":"text","text":"b"}]`},
		{"an MCP string for an array", "mcp__s__t", `[{"type":"text","text":"a"}]`, `"b"`, ""},
		{"no original to go by", "Bash", ``, `"x"`, `"x"`},
		{"a key given twice counts once, as its last value", "Bash", `{"stdout":"a","stdout":"b","stderr":""}`, `{"stderr":"c"}`,
			`{"stdout":"b","stderr":"c"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := conformOutput(tt.tool, json.RawMessage(tt.original), json.RawMessage(tt.replacement))
			if tt.want == "" {
				if ok {
					t.Fatalf("shaped it into %s; want a failure", got)
				}
				return
			}
			if !ok || string(got) != tt.want {
				t.Fatalf("got %s (ok %v)\nwant %s", got, ok, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("%s is not JSON", got)
			}
		})
	}
}
