//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// anthropicWire is Anthropic's Messages API as Claude Code calls it:
// POST /v1/messages?beta=true, streamed as server-sent events.
type anthropicWire struct{}

// subagentMark is in the billing line of a subagent's system prompt.
const subagentMark = "cc_is_subagent=true"

type anthropicRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Stream bool `json:"stream"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func (anthropicWire) Parse(w http.ResponseWriter, r *http.Request, body []byte) (*Request, bool, error) {
	var in anthropicRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, false, err
	}
	if err := wantStreamedPost(r, "Messages API", "/v1/messages", in.Stream, in.Model); err != nil {
		return nil, false, err
	}
	system, err := anthropicText(in.System)
	if err != nil {
		return nil, false, fmt.Errorf("system: %w", err)
	}
	req := &Request{Path: r.URL.RequestURI(), Body: body, System: system, Subagent: strings.Contains(system, subagentMark)}
	for i, m := range in.Messages {
		blocks, err := anthropicBlocks(m.Content)
		if err != nil {
			return nil, false, fmt.Errorf("messages[%d]: %w", i, err)
		}
		req.Messages = append(req.Messages, Message{Role: m.Role, Blocks: blocks})
	}
	return req, false, nil
}

// anthropicText is a system prompt or tool result content, a string or a
// list of blocks, as text.
func anthropicText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	blocks, err := anthropicBlocks(raw)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(blocks))
	for i, b := range blocks {
		parts[i] = b.Text
	}
	return strings.Join(parts, "\n"), nil
}

func anthropicBlocks(raw json.RawMessage) ([]Block, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []Block{{Type: "text", Text: s}}, nil
	}
	var in []anthropicBlock
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	out := make([]Block, 0, len(in))
	for _, b := range in {
		switch b.Type {
		case "tool_use":
			out = append(out, Block{Type: "tool_use", ID: b.ID, Name: b.Name, Input: b.Input})
		case "tool_result":
			text, err := anthropicText(b.Content)
			if err != nil {
				return nil, fmt.Errorf("tool_result %s: %w", b.ToolUseID, err)
			}
			out = append(out, Block{Type: "tool_result", ID: b.ToolUseID, Text: text, IsError: b.IsError})
		default:
			out = append(out, Block{Type: b.Type, Text: b.Text})
		}
	}
	return out, nil
}

// Write streams reply as one message: a text block, then a tool_use block per
// call, with the stop reason that makes Claude Code run the tools or stop.
func (anthropicWire) Write(w http.ResponseWriter, req *Request, reply Reply) error {
	var out sseStream
	add := func(kind string, data map[string]any) {
		data["type"] = kind
		_ = out.event(kind, data) // maps of JSON values: they always marshal
	}
	add("message_start", map[string]any{"message": map[string]any{
		"id": fmt.Sprintf("msg_fake_%d", req.N), "type": "message", "role": "assistant",
		"model": "claude-fake", "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
	}})
	index := 0
	if text := replyText(reply); text != "" {
		add("content_block_start", map[string]any{"index": index, "content_block": map[string]any{"type": "text", "text": ""}})
		add("content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "text_delta", "text": text}})
		add("content_block_stop", map[string]any{"index": index})
		index++
	}
	for _, c := range reply.Calls {
		input, err := json.Marshal(c.Input)
		if err != nil {
			return fmt.Errorf("call %s: %w", c.ID, err)
		}
		add("content_block_start", map[string]any{"index": index, "content_block": map[string]any{
			"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}})
		add("content_block_delta", map[string]any{"index": index, "delta": map[string]any{
			"type": "input_json_delta", "partial_json": string(input)}})
		add("content_block_stop", map[string]any{"index": index})
		index++
	}
	stop := "end_turn"
	if len(reply.Calls) > 0 {
		stop = "tool_use"
	}
	add("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	add("message_stop", map[string]any{})
	return out.send(w)
}

// Refuse answers 400 invalid_request_error, which Claude Code does not retry.
func (anthropicWire) Refuse(w http.ResponseWriter, why string) {
	refuse(w, map[string]any{"type": "error", "error": map[string]any{
		"type": "invalid_request_error", "message": "fake model API: " + why}})
}
