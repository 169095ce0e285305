//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// chatWire is OpenAI's Chat Completions API as Copilot CLI calls it in its
// bring-your-own-key mode: POST /v1/chat/completions, streamed as
// server-sent events of chat.completion.chunk objects ending in [DONE].
type chatWire struct{}

// chatSubagent is the X-Interaction-Type Copilot CLI sends on every turn
// of a subagent (the main agent's first turn says conversation-user, its
// later turns nothing).
const chatSubagent = "conversation-subagent"

type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []chatToolCall  `json:"tool_calls"`
	} `json:"messages"`
}

// chatToolCall is a call in an assistant message: a function tool's
// arguments are JSON text; a custom (freeform) tool's input is raw text.
type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	Custom struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"custom"`
}

func (chatWire) Parse(w http.ResponseWriter, r *http.Request, body []byte) (*Request, bool, error) {
	var in chatRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, false, err
	}
	if err := wantStreamedPost(r, "Chat Completions API", "/v1/chat/completions", in.Stream, in.Model); err != nil {
		return nil, false, err
	}
	req := &Request{Path: r.URL.RequestURI(), Body: body,
		Subagent: r.Header.Get("X-Interaction-Type") == chatSubagent}
	var system []string
	for i, m := range in.Messages {
		text, err := openaiText(m.Content)
		if err != nil {
			return nil, false, fmt.Errorf("messages[%d]: %w", i, err)
		}
		switch {
		case (m.Role == "system" || m.Role == "developer") && len(req.Messages) == 0:
			// The leading instructions are the system prompt; a system
			// message later in the conversation stays where it is.
			system = append(system, text)
		case m.Role == "tool":
			req.Messages = append(req.Messages, Message{Role: "tool",
				Blocks: []Block{{Type: "tool_result", ID: m.ToolCallID, Text: text}}})
		default:
			msg := Message{Role: m.Role}
			if text != "" {
				msg.Blocks = append(msg.Blocks, Block{Type: "text", Text: text})
			}
			for _, c := range m.ToolCalls {
				b, err := c.block()
				if err != nil {
					return nil, false, fmt.Errorf("messages[%d]: %w", i, err)
				}
				msg.Blocks = append(msg.Blocks, b)
			}
			req.Messages = append(req.Messages, msg)
		}
	}
	req.System = strings.Join(system, "\n")
	return req, false, nil
}

// block is a call as a tool_use block; a freeform tool's input is a JSON
// string.
func (c chatToolCall) block() (Block, error) {
	switch c.Type {
	case "function", "":
		input := json.RawMessage(c.Function.Arguments)
		if !json.Valid(input) {
			return Block{}, fmt.Errorf("tool call %s: arguments are not JSON: %q", c.ID, clip(c.Function.Arguments, 200))
		}
		return Block{Type: "tool_use", ID: c.ID, Name: c.Function.Name, Input: input}, nil
	case "custom":
		return Block{Type: "tool_use", ID: c.ID, Name: c.Custom.Name, Input: freeformInput(c.Custom.Input)}, nil
	}
	return Block{}, fmt.Errorf("tool call %s of type %q", c.ID, c.Type)
}

// Write streams reply as one assistant message: the text, then each call
// in two chunks (its name and id, then its input), then the finish reason
// that makes the CLI run the tools or stop, the usage, and [DONE]. A call
// whose Input is a string is a freeform (custom) tool's: its input is that
// raw text, as for GPT models' apply_patch.
func (chatWire) Write(w http.ResponseWriter, req *Request, reply Reply) error {
	id := fmt.Sprintf("chatcmpl-fake-%d", req.N)
	var out sseStream
	add := func(choices []any, extra map[string]any) error {
		chunk := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1, "model": "fake", "choices": choices}
		for k, v := range extra {
			chunk[k] = v
		}
		return out.event("", chunk)
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}}
	}
	first := map[string]any{"role": "assistant"}
	if text := replyText(reply); text != "" {
		first["content"] = text
	}
	if err := add(delta(first, nil), nil); err != nil {
		return err
	}
	for i, c := range reply.Calls {
		input, freeform, err := openaiCallInput(c)
		if err != nil {
			return err
		}
		kind, field, key := "function", "function", "arguments"
		if freeform {
			kind, field, key = "custom", "custom", "input"
		}
		head := map[string]any{"index": i, "id": c.ID, "type": kind, field: map[string]any{"name": c.Name, key: ""}}
		body := map[string]any{"index": i, field: map[string]any{key: input}}
		for _, part := range []map[string]any{head, body} {
			if err := add(delta(map[string]any{"tool_calls": []any{part}}, nil), nil); err != nil {
				return err
			}
		}
	}
	finish := "stop"
	if len(reply.Calls) > 0 {
		finish = "tool_calls"
	}
	if err := add(delta(map[string]any{}, finish), nil); err != nil {
		return err
	}
	if err := add([]any{}, map[string]any{"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}); err != nil {
		return err
	}
	out.data("[DONE]")
	return out.send(w)
}

// Refuse answers 400 invalid_request_error, which Copilot CLI does not
// retry.
func (chatWire) Refuse(w http.ResponseWriter, why string) {
	openaiRefuse(w, why, map[string]any{"code": "invalid_request"})
}

// chatToolNames are the tools a Chat Completions request offers.
func chatToolNames(r *Request) []string {
	var in struct {
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
			Custom struct {
				Name string `json:"name"`
			} `json:"custom"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(r.Body, &in)
	names := make([]string, 0, len(in.Tools))
	for _, t := range in.Tools {
		names = append(names, t.Function.Name+t.Custom.Name)
	}
	return names
}
