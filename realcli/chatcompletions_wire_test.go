//go:build realcli

package realcli

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The fake Chat Completions API checked without Copilot CLI: a request read
// wrong, or an answer the OpenAI SDK would assemble differently, would make
// every Copilot result meaningless.

// chatTurn posts a Chat Completions request as Copilot CLI does and
// returns the status and body of the answer.
func chatTurn(t *testing.T, m *Model, interaction string, body map[string]any) (int, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, m.URL()+"/v1/chat/completions", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if interaction != "" {
		req.Header.Set("X-Interaction-Type", interaction)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// chatConversation is a subagent's conversation after two calls, a
// function tool's and a freeform tool's, with their results and a user
// message a hook added.
func chatConversation() map[string]any {
	return map[string]any{"model": "claude-sonnet-4.6", "stream": true, "messages": []any{
		map[string]any{"role": "system", "content": "You write short notes."},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "<current_datetime>x</current_datetime>\n\ntask-one: write"}}},
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"ls"}`}},
			map[string]any{"id": "call_2", "type": "custom", "custom": map[string]any{"name": "apply_patch", "input": "*** Begin Patch\n*** End Patch\n"}},
		}},
		map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "a.txt\n<shellId: 0 completed with exit code 0>"},
		map[string]any{"role": "tool", "tool_call_id": "call_2", "content": "Denied by preToolUse hook: no"},
		map[string]any{"role": "user", "content": "HOOK-CONTEXT-1"},
	}}
}

func TestChatParse(t *testing.T) {
	m := newModel(chatWire{})
	defer m.Close()
	m.On("sub", All(Subagent("task-one"), After("call_2"), Arrived("HOOK-CONTEXT-1")), Say("ok"))
	if code, out := chatTurn(t, m, chatSubagent, chatConversation()); code != http.StatusOK {
		t.Fatalf("%d %s; failures %v", code, out, m.Failures())
	}
	r := m.Answered("sub")[0]
	if !r.Subagent || r.System != "You write short notes." || !strings.HasSuffix(r.FirstUserText(), "task-one: write") {
		t.Fatalf("subagent %v, system %q, task %q", r.Subagent, r.System, r.FirstUserText())
	}
	if res, ok := r.ToolResult("call_2"); !ok || res.Text != "Denied by preToolUse hook: no" {
		t.Fatalf("call_2's result %+v %v", res, ok)
	}
	calls := r.Messages[1].Blocks
	if len(calls) != 2 || calls[0].Name != "bash" || string(calls[0].Input) != `{"command":"ls"}` ||
		calls[1].Name != "apply_patch" || string(calls[1].Input) != `"*** Begin Patch\n*** End Patch\n"` {
		t.Fatalf("the assistant's calls %+v", calls)
	}
	if got := len(r.Tail()); got != 3 {
		t.Fatalf("tail %d blocks, want the two results and the user message: %+v", got, r.Tail())
	}

	// Without the header it is the main agent's turn, which no step
	// answers: refused with an error the CLI does not retry.
	code, out := chatTurn(t, m, "conversation-user", chatConversation())
	if code != http.StatusBadRequest || !strings.Contains(out, `"invalid_request_error"`) {
		t.Fatalf("unscripted turn: %d %s", code, out)
	}
	if f := m.Failures(); len(f) != 1 || !strings.Contains(f[0], "unscripted request") || !strings.Contains(f[0], "main agent") {
		t.Fatalf("failures %v", f)
	}
}

func TestChatRefusesWhatCopilotDoesNotSend(t *testing.T) {
	m := newModel(chatWire{})
	defer m.Close()
	m.On("any", Main, Say("ok")).Times = -1
	body := chatConversation()
	body["stream"] = false
	if code, _ := chatTurn(t, m, "", body); code != http.StatusBadRequest {
		t.Fatalf("a request without streaming: %d", code)
	}
	bad := chatConversation()
	bad["messages"] = []any{map[string]any{"role": "assistant", "tool_calls": []any{
		map[string]any{"id": "c", "type": "function", "function": map[string]any{"name": "bash", "arguments": "{not json"}}}}}
	if code, _ := chatTurn(t, m, "", bad); code != http.StatusBadRequest {
		t.Fatalf("arguments that are not JSON: %d", code)
	}
	if f := m.Failures(); len(f) != 2 || !strings.Contains(f[0], "streaming") || !strings.Contains(f[1], "not JSON") {
		t.Fatalf("failures %v", f)
	}
}

// TestChatStream reads the answer back as the OpenAI SDK assembles it:
// chunk by chunk, each call's parts joined by index, then the finish
// reason, the usage and [DONE].
func TestChatStream(t *testing.T) {
	m := newModel(chatWire{})
	defer m.Close()
	m.On("calls", Main, Reply{Text: "let me look", Calls: []Call{
		{ID: "call_a", Name: "bash", Input: map[string]any{"command": "ls -la"}},
		{ID: "call_b", Name: "apply_patch", Input: "*** Begin Patch\n*** Add File: a.md\n+x\n*** End Patch\n"},
	}})
	_, out := chatTurn(t, m, "conversation-user", map[string]any{"model": "gpt-5.4", "stream": true,
		"messages": []any{map[string]any{"role": "user", "content": "go"}}})

	type call struct{ id, typ, name, input string }
	calls := map[int]*call{}
	var content, finish string
	usage, done := false, false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var chunk struct {
			Object  string `json:"object"`
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Type     string `json:"type"`
						Function struct{ Name, Arguments string }
						Custom   struct{ Name, Input string }
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage json.RawMessage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil || chunk.Object != "chat.completion.chunk" {
			t.Fatalf("%q: %v", data, err)
		}
		usage = usage || len(chunk.Usage) > 0
		for _, c := range chunk.Choices {
			content += c.Delta.Content
			if c.FinishReason != nil {
				finish = *c.FinishReason
			}
			for _, tc := range c.Delta.ToolCalls {
				if calls[tc.Index] == nil {
					calls[tc.Index] = &call{}
				}
				k := calls[tc.Index]
				k.id += tc.ID
				k.typ += tc.Type
				k.name += tc.Function.Name + tc.Custom.Name
				k.input += tc.Function.Arguments + tc.Custom.Input
			}
		}
	}
	want := map[int]call{
		0: {"call_a", "function", "bash", `{"command":"ls -la"}`},
		1: {"call_b", "custom", "apply_patch", "*** Begin Patch\n*** Add File: a.md\n+x\n*** End Patch\n"},
	}
	for i, w := range want {
		if calls[i] == nil || *calls[i] != w {
			t.Errorf("call %d: got %+v, want %+v", i, calls[i], w)
		}
	}
	if content != "let me look" || finish != "tool_calls" || !usage || !done || len(calls) != 2 {
		t.Fatalf("content %q, finish %q, usage %v, done %v, %d calls", content, finish, usage, done, len(calls))
	}
}
