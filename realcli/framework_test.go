//go:build realcli

package realcli

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The suite's own parts, checked without any CLI: a scenario that cannot
// fail, or a fake that answers the wrong turn, would make every real result
// meaningless.

// anthropicTurn posts a Messages request the way Claude Code does and
// returns the status and body of the answer.
func anthropicTurn(t *testing.T, m *Model, system string, messages ...map[string]any) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{
		"model": "claude-fake", "stream": true, "messages": messages,
		"system": []map[string]any{{"type": "text", "text": system}},
	})
	resp, err := http.Post(m.URL()+"/v1/messages?beta=true", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

func userText(text string) map[string]any {
	return map[string]any{"role": "user", "content": []map[string]any{{"type": "text", "text": text}}}
}

func TestModelPicksTheTurnByContent(t *testing.T) {
	m := newModel(anthropicWire{})
	defer m.Close()
	aborted := 0
	m.abort = func() { aborted++ }
	m.On("main", All(Main, First), Say("main answer"))
	m.On("sub", All(Subagent("task-one"), First), Say("sub answer"))

	// The subagent's turn arrives first: it must still get its own step.
	code, out := anthropicTurn(t, m, "billing: "+subagentMark, map[string]any{"role": "user", "content": []map[string]any{
		{"type": "text", "text": "<system-reminder>context</system-reminder>"}, {"type": "text", "text": "task-one: go"}}})
	if code != http.StatusOK || !strings.Contains(out, "sub answer") {
		t.Fatalf("subagent turn: %d %s", code, out)
	}
	code, out = anthropicTurn(t, m, "billing: main", userText("hello"))
	if code != http.StatusOK || !strings.Contains(out, "main answer") {
		t.Fatalf("main turn: %d %s", code, out)
	}
	if got := m.Answered("sub"); len(got) != 1 || got[0].N != 1 || got[0].Step != "sub" {
		t.Fatalf("Answered(sub) = %+v", got)
	}
	if len(m.Failures()) != 0 || aborted != 0 {
		t.Fatalf("failures %v, aborted %d", m.Failures(), aborted)
	}

	// Each step answers once: a second main turn is unscripted, answered
	// with an error the CLI does not retry, and ends the run.
	code, out = anthropicTurn(t, m, "billing: main", userText("hello"))
	if code != http.StatusBadRequest || !strings.Contains(out, "invalid_request_error") {
		t.Fatalf("unscripted turn: %d %s", code, out)
	}
	if f := m.Failures(); len(f) != 1 || !strings.Contains(f[0], "unscripted request") || aborted != 1 {
		t.Fatalf("failures %v, aborted %d", f, aborted)
	}
}

func TestModelRefusesAnAmbiguousTurn(t *testing.T) {
	m := newModel(anthropicWire{})
	defer m.Close()
	m.On("a", Main, Say("a"))
	m.On("b", First, Say("b"))
	if code, _ := anthropicTurn(t, m, "main", userText("hi")); code != http.StatusBadRequest {
		t.Fatalf("status %d", code)
	}
	if f := m.Failures(); len(f) != 1 || !strings.Contains(f[0], "steps a, b all match") {
		t.Fatalf("failures %v", f)
	}
}

func TestModelRunsBeforeAndReadsToolResults(t *testing.T) {
	m := newModel(anthropicWire{})
	defer m.Close()
	ran := false
	step := m.On("next", After("toolu_1"), Say("ok"))
	step.Before = func(*Request) error {
		ran = true
		return nil
	}
	m.On("times", Arrived("again"), Say("again")).Times = -1
	history := []map[string]any{
		userText("go"),
		{"role": "assistant", "content": []map[string]any{{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": map[string]any{"command": "ls"}}}},
		{"role": "user", "content": []map[string]any{{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": true,
			"content": []map[string]any{{"type": "text", "text": "denied: no"}}}}},
	}
	if code, out := anthropicTurn(t, m, "main", history...); code != http.StatusOK {
		t.Fatalf("%d %s", code, out)
	}
	if !ran {
		t.Fatal("Before did not run")
	}
	res, ok := m.Answered("next")[0].ToolResult("toolu_1")
	if !ok || !res.IsError || res.Text != "denied: no" {
		t.Fatalf("tool result %+v %v", res, ok)
	}
	for range 3 {
		if code, _ := anthropicTurn(t, m, "main", userText("go"), map[string]any{"role": "assistant", "content": "x"}, userText("again")); code != http.StatusOK {
			t.Fatalf("repeatable step: %d", code)
		}
	}
}

// TestAnthropicStream reads the answer back as Claude Code does: every event
// in order, the tool input reassembled from its deltas, the stop reason.
func TestAnthropicStream(t *testing.T) {
	m := newModel(anthropicWire{})
	defer m.Close()
	m.On("call", Main, Reply{Text: "let me look", Calls: []Call{{ID: "toolu_x", Name: "Bash", Input: map[string]any{"command": "ls -la"}}}})
	_, out := anthropicTurn(t, m, "main", userText("go"))

	var kinds []string
	var input strings.Builder
	stop := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var raw map[string]any
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		kinds = append(kinds, raw["type"].(string))
		if d, ok := raw["delta"].(map[string]any); ok {
			if p, ok := d["partial_json"].(string); ok {
				input.WriteString(p)
			}
			if s, ok := d["stop_reason"].(string); ok {
				stop = s
			}
		}
	}
	want := "message_start content_block_start content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_stop message_delta message_stop"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("events %v", kinds)
	}
	if input.String() != `{"command":"ls -la"}` || stop != "tool_use" {
		t.Fatalf("input %q, stop %q", input.String(), stop)
	}
}

func TestReportTable(t *testing.T) {
	got := renderReport([]result{
		{cli: "claude-code", scenario: "x/pass", outcome: "pass", observed: []string{"shown in stream-json"}},
		{cli: "claude-code", scenario: "y/fail", outcome: "fail", reason: "the reason\nspans lines"},
		{cli: "codex", scenario: "x/pass", outcome: "skip", reason: "npm missing"},
		{cli: "gemini-cli", scenario: "y/fail", outcome: "n/a", reason: "no such event"},
	})
	for _, want := range []string{
		"| scenario | claude-code | gemini-cli | codex | copilot-cli |",
		"| x/pass | pass (1) | — | skip (2) | — |",
		"1. x/pass, claude-code: observed: shown in stream-json",
		"2. x/pass, codex: skip: npm missing",
		"| y/fail | fail (3) | n/a (4) | — | — |",
		"3. y/fail, claude-code: fail: the reason spans lines",
		"4. y/fail, gemini-cli: n/a: no such event",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	// A CLI that cannot do a scenario is not a CLI that was not tested.
	list := []result{{cli: "gemini-cli", scenario: "y", outcome: "n/a", reason: "no such event"}}
	if got := skipSummary(list); len(got) != 0 {
		t.Errorf("skipSummary counts n/a as a skipped CLI: %v", got)
	}
}

// TestTrapSeesOutsideTraffic: a client that honours the proxy variables
// reaches the trap, not the host, and the host is named.
func TestTrapSeesOutsideTraffic(t *testing.T) {
	tr := newTrap()
	defer tr.close()
	proxy, _ := url.Parse(tr.url())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	if _, err := client.Get("https://api.example.invalid/v1/ping"); err == nil {
		t.Fatal("the trap let a request through")
	}
	if got := tr.hosts(); len(got) != 1 || got[0] != "api.example.invalid:443" {
		t.Fatalf("hosts %v", got)
	}
}

// responsesTurn posts a Responses request the way Codex does, as agent
// (its agent_name), and returns the status and body of the answer.
func responsesTurn(t *testing.T, m *Model, agent string, input ...map[string]any) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "gpt-5.5", "stream": true, "instructions": "", "input": input})
	req, _ := http.NewRequest(http.MethodPost, m.URL()+"/v1/responses", strings.NewReader(string(body)))
	req.Header.Set(codexTurnHeader, `{"agent_name":"`+agent+`","turn_id":"t1"}`)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

func responsesMessage(role, text string) map[string]any {
	kind := "input_text"
	if role == "assistant" {
		kind = "output_text"
	}
	return map[string]any{"type": "message", "role": role, "content": []map[string]any{{"type": kind, "text": text}}}
}

// TestResponsesParse: Codex's flat input read into messages: developer
// messages before the model speaks are the system prompt, a subagent's
// task arrives as an agent_message, a call and its output are paired by
// call_id, and what came after the model last spoke is the tail.
func TestResponsesParse(t *testing.T) {
	m := newModel(responsesWire{})
	defer m.Close()
	m.On("sub", All(Subagent("task-one"), After("call_1")), Say("ok"))
	code, out := responsesTurn(t, m, "/root/scribe",
		responsesMessage("developer", "You are Codex."),
		responsesMessage("user", "<environment_context/>"),
		responsesMessage("developer", "Scratchpad protocol: START-CONTEXT"),
		map[string]any{"type": "agent_message", "author": "/root", "recipient": "/root/scribe", "content": []map[string]any{
			{"type": "input_text", "text": "Message Type: NEW_TASK\nPayload:\n"}, {"type": "encrypted_content", "encrypted_content": "task-one: go"}}},
		map[string]any{"type": "function_call", "name": "exec_command", "arguments": `{"cmd":"ls"}`, "call_id": "call_1"},
		map[string]any{"type": "function_call_output", "call_id": "call_1", "output": "Process exited with code 0\nOutput:\nfile"},
		responsesMessage("developer", "LATE-CONTEXT"))
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, out)
	}
	r := m.Answered("sub")[0]
	if !r.Subagent || !strings.Contains(r.System, "START-CONTEXT") || strings.Contains(r.System, "LATE-CONTEXT") {
		t.Fatalf("subagent %v, system %q", r.Subagent, r.System)
	}
	if got := r.task(); !strings.HasSuffix(got, "task-one: go") {
		t.Fatalf("task %q", got)
	}
	if res, ok := r.ToolResult("call_1"); !ok || !strings.HasSuffix(res.Text, "file") {
		t.Fatalf("tool result %+v %v", res, ok)
	}
	if tail := r.TailText(); !strings.Contains(tail, "LATE-CONTEXT") || strings.Contains(tail, "task-one") {
		t.Fatalf("tail %q", tail)
	}
	// The main agent is /root; a request without agent_name is refused.
	if code, _ := responsesTurn(t, m, "", responsesMessage("user", "hi")); code != http.StatusBadRequest {
		t.Fatalf("a request with no agent_name: %d", code)
	}
}

// TestResponsesStream reads the answer back as Codex does: server-sent
// events whose output items are the message, a function_call with its
// arguments as JSON text, a custom_tool_call with free text input, and a
// namespaced call; then response.completed.
func TestResponsesStream(t *testing.T) {
	m := newModel(responsesWire{})
	defer m.Close()
	m.On("calls", Main, Reply{Text: "let me look", Calls: []Call{
		{ID: "call_a", Name: "exec_command", Input: map[string]any{"cmd": "ls -la"}},
		{ID: "call_b", Name: "apply_patch", Input: "*** Begin Patch\n*** End Patch\n"},
		{ID: "call_c", Name: "collaboration.wait_agent", Input: map[string]any{}},
	}})
	_, out := responsesTurn(t, m, "/root", responsesMessage("user", "go"))

	var kinds []string
	var items []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	event := ""
	for sc.Scan() {
		if k, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			event = k
			continue
		}
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var raw map[string]any
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if raw["type"] != event {
			t.Fatalf("event %q carries type %v", event, raw["type"])
		}
		kinds = append(kinds, event)
		if item, ok := raw["item"].(map[string]any); ok {
			items = append(items, item)
		}
	}
	want := "response.created response.output_item.done response.output_item.done response.output_item.done " +
		"response.output_item.done response.completed"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("events %v", kinds)
	}
	if items[0]["type"] != "message" || items[1]["type"] != "function_call" || items[1]["arguments"] != `{"cmd":"ls -la"}` ||
		items[2]["type"] != "custom_tool_call" || items[2]["input"] != "*** Begin Patch\n*** End Patch\n" ||
		items[3]["namespace"] != "collaboration" || items[3]["name"] != "wait_agent" || items[3]["call_id"] != "call_c" {
		t.Fatalf("items %v", items)
	}
}
