package dialect

import (
	"encoding/json"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// A bash call is failed only when the text's last line is Copilot's own
// "<shellId: N completed with exit code K>" with K not 0.
func TestCopilotShellFailure(t *testing.T) {
	for _, c := range []struct {
		tool, text string
		want       string // the error; "" when the call succeeded
	}{
		{"bash", "ls: cannot access 'x': No such file or directory\n<shellId: 0 completed with exit code 2>", "Exit code 2\nls: cannot access 'x': No such file or directory"},
		{"bash", "\n<shellId: 12 completed with exit code 1>\n", "Exit code 1"},
		{"bash", "fine\n<shellId: 0 completed with exit code 0>", ""},
		{"bash", "saw <shellId: 1 completed with exit code 2> earlier\n<shellId: 2 completed with exit code 0>", ""},
		{"bash", "<shellId: 0 completed with exit code 2> and then more", ""},
		{"bash", "<shellId: 0 completed with exit code x2>", ""},
		{"bash", "<shellId: 0 still running>", ""},
		{"bash", "no marker at all", ""},
		{"view", "<shellId: 0 completed with exit code 2>", ""},
	} {
		raw, _ := json.Marshal(map[string]any{"sessionId": "s", "cwd": "/p", "toolName": c.tool,
			"toolArgs":   map[string]any{"command": "ls x", "path": "/p/x"},
			"toolResult": map[string]any{"resultType": "success", "textResultForLlm": c.text}})
		out, _, err := Copilot.Event(raw, protocol.PostToolUse)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		var ev struct {
			Response struct {
				ResultType string  `json:"resultType"`
				Text       string  `json:"textResultForLlm"`
				Success    *bool   `json:"success"`
				Error      *string `json:"error"`
			} `json:"tool_response"`
		}
		if err := json.Unmarshal(out, &ev); err != nil {
			t.Fatal(err)
		}
		r := ev.Response
		if r.ResultType != "success" || r.Text != c.text {
			t.Errorf("%q: Copilot's own fields changed: %+v", c.text, r)
		}
		switch {
		case c.want == "" && (r.Success != nil || r.Error != nil):
			t.Errorf("%s %q: marked failed: %+v", c.tool, c.text, r)
		case c.want != "" && (r.Success == nil || *r.Success || r.Error == nil || *r.Error != c.want):
			t.Errorf("%s %q: got %+v, want success false and error %q", c.tool, c.text, r, c.want)
		}
	}
}

// A postToolUse without a result, or with one that is not an object, is
// left as it came.
func TestCopilotShellFailureOddResults(t *testing.T) {
	for _, raw := range []string{
		`{"sessionId":"s","toolName":"bash","toolArgs":{"command":"ls"}}`,
		`{"sessionId":"s","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":"text"}`,
		`{"sessionId":"s","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":null}`,
	} {
		out, _, err := Copilot.Event([]byte(raw), protocol.PostToolUse)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		var ev map[string]json.RawMessage
		if err := json.Unmarshal(out, &ev); err != nil {
			t.Fatal(err)
		}
		var in map[string]json.RawMessage
		_ = json.Unmarshal([]byte(raw), &in)
		if string(ev["tool_response"]) != string(in["toolResult"]) {
			t.Errorf("%s: tool_response became %s", raw, ev["tool_response"])
		}
	}
}
