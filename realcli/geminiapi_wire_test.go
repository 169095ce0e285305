//go:build realcli

package realcli

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// geminiTurn posts a streamGenerateContent request the way Gemini CLI does
// and returns the status and body of the answer.
func geminiTurn(t *testing.T, m *Model, method string, tools []string, contents ...map[string]any) (int, string) {
	t.Helper()
	var decls []map[string]any
	for _, name := range tools {
		decls = append(decls, map[string]any{"name": name})
	}
	body, _ := json.Marshal(map[string]any{
		"contents":          contents,
		"systemInstruction": map[string]any{"role": "user", "parts": []map[string]any{{"text": "You are an agent."}}},
		"tools":             []map[string]any{{"functionDeclarations": decls}},
	})
	url := m.URL() + "/v1beta/models/gemini-2.5-pro:" + method
	if method == "streamGenerateContent" {
		url += "?alt=sse"
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

func gText(role, text string) map[string]any {
	return map[string]any{"role": role, "parts": []map[string]any{{"text": text}}}
}

// TestGeminiWire: a subagent is told by complete_task among its tools; a
// function response's error is a failed result; the answer is one SSE chunk with
// the calls as functionCall parts.
func TestGeminiWire(t *testing.T) {
	m := newModel(geminiWire{})
	defer m.Close()
	m.abort = func() {}
	m.On("sub", All(Subagent("task-one"), First), Say("sub answer"))
	step := m.On("main", All(Main, After("g_1")), Reply{Text: "next", Calls: []Call{{ID: "g_2", Name: "read_file", Input: map[string]any{"file_path": "a"}}}})

	if code, out := geminiTurn(t, m, "streamGenerateContent", []string{"read_file", geminiCompleteTask}, gText("user", "task-one: go")); code != http.StatusOK || !strings.Contains(out, "sub answer") {
		t.Fatalf("subagent turn: %d %s", code, out)
	}
	code, out := geminiTurn(t, m, "streamGenerateContent", []string{"read_file", "invoke_agent"},
		gText("user", "hello"),
		map[string]any{"role": "model", "parts": []map[string]any{{"functionCall": map[string]any{
			"id": "g_1", "name": "run_shell_command", "args": map[string]any{"command": "cat .env"}}}}},
		map[string]any{"role": "user", "parts": []map[string]any{{"functionResponse": map[string]any{
			"id": "g_1", "name": "run_shell_command", "response": map[string]any{"error": "denied: no"}}}}})
	if code != http.StatusOK {
		t.Fatalf("main turn: %d %s", code, out)
	}
	req := step.used[0]
	if req.Subagent {
		t.Error("a main agent's turn taken for a subagent's")
	}
	if res, ok := req.ToolResult("g_1"); !ok || !res.IsError || res.Text != "denied: no" {
		t.Errorf("tool result %+v %v", res, ok)
	}
	data, ok := strings.CutPrefix(out, "data: ")
	if !ok || !strings.HasSuffix(out, "\r\n\r\n") {
		t.Fatalf("not one SSE event: %q", out)
	}
	var chunk struct {
		Candidates []struct {
			Content struct {
				Role  string
				Parts []map[string]json.RawMessage
			}
			FinishReason string
		}
	}
	if err := json.Unmarshal([]byte(data), &chunk); err != nil || len(chunk.Candidates) != 1 {
		t.Fatalf("%q: %v", data, err)
	}
	c := chunk.Candidates[0]
	if c.FinishReason != "STOP" || c.Content.Role != "model" || len(c.Content.Parts) != 2 ||
		string(c.Content.Parts[1]["functionCall"]) != `{"args":{"file_path":"a"},"id":"g_2","name":"read_file"}` {
		t.Errorf("answer %s", data)
	}

	// countTokens is answered by the wire itself; any other method fails
	// the run, named.
	if code, out := geminiTurn(t, m, "countTokens", nil, gText("user", "x")); code != http.StatusOK || !strings.Contains(out, "totalTokens") {
		t.Errorf("countTokens: %d %s", code, out)
	}
	if code, _ := geminiTurn(t, m, "generateContent", nil, gText("user", "x")); code != http.StatusBadRequest {
		t.Errorf("generateContent: %d", code)
	}
	if f := m.Failures(); len(f) != 1 || !strings.Contains(f[0], "unscripted generateContent call") {
		t.Errorf("failures %v", f)
	}
}
