//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// What OpenAI's two APIs share, as Copilot CLI (Chat Completions,
// chatcompletions_test.go) and Codex (Responses, responses_test.go) call
// them: content that is a string or a list of parts, calls to function
// tools (JSON arguments) and to freeform tools (raw text input, as GPT
// models' apply_patch takes it), and the error object.

// openaiText is message content or a call's output, a string, null or a
// list of parts, as text: each part's text (Codex sends a task between
// agents as encrypted_content, which the fake's model writes in clear),
// one part a line; parts without text (an image) add nothing.
func openaiText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Text      string `json:"text"`
		Encrypted string `json:"encrypted_content"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		if t := p.Text + p.Encrypted; t != "" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// openaiCallInput is what a call sends its tool: a freeform tool's raw
// text when the input is a string, else a function tool's arguments as
// JSON text.
func openaiCallInput(c Call) (text string, freeform bool, err error) {
	if raw, ok := c.Input.(string); ok {
		return raw, true, nil
	}
	args, err := json.Marshal(c.Input)
	if err != nil {
		return "", false, fmt.Errorf("call %s: %w", c.ID, err)
	}
	return string(args), false, nil
}

// freeformInput is a freeform call's raw text as a tool_use block's input
// (a JSON string), so scripts read both kinds of call alike.
func freeformInput(text string) json.RawMessage {
	b, _ := json.Marshal(text)
	return b
}

// openaiRefuse answers 400 invalid_request_error, with the API's own extra
// fields (Chat Completions adds a code).
func openaiRefuse(w http.ResponseWriter, why string, extra map[string]any) {
	e := map[string]any{"type": "invalid_request_error", "message": "fake model API: " + why}
	for k, v := range extra {
		e[k] = v
	}
	refuse(w, map[string]any{"error": e})
}
