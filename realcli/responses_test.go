//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// responsesWire is OpenAI's Responses API as Codex calls it: POST
// /v1/responses, streamed as server-sent events. The conversation is a flat
// list of items (messages, function_call, custom_tool_call and their
// outputs); it is read into messages by role, consecutive items of one role
// making one message, so Tail is what came after the model last spoke.
type responsesWire struct{}

// codexTurnHeader carries the turn's metadata as JSON; its agent_name is
// "/root" for the main agent and "/root/<task>" for a subagent.
const codexTurnHeader = "X-Codex-Turn-Metadata"

type responsesRequest struct {
	Model        string            `json:"model"`
	Instructions string            `json:"instructions"`
	Input        []json.RawMessage `json:"input"`
	Stream       bool              `json:"stream"`
}

type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	Arguments string          `json:"arguments"` // function_call: JSON text
	Input     string          `json:"input"`     // custom_tool_call: free text
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"` // a string or content items
}

func (responsesWire) Parse(w http.ResponseWriter, r *http.Request, body []byte) (*Request, bool, error) {
	var in responsesRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, false, err
	}
	if err := wantStreamedPost(r, "Responses API", "/v1/responses", in.Stream, in.Model); err != nil {
		return nil, false, err
	}
	var meta struct {
		AgentName string `json:"agent_name"`
	}
	if h := r.Header.Get(codexTurnHeader); h != "" {
		if err := json.Unmarshal([]byte(h), &meta); err != nil {
			return nil, false, fmt.Errorf("%s: %w", codexTurnHeader, err)
		}
	}
	if meta.AgentName == "" {
		return nil, false, fmt.Errorf("no agent_name in %s: main agent or subagent cannot be told", codexTurnHeader)
	}
	req := &Request{Path: r.URL.RequestURI(), Body: body, System: in.Instructions, Subagent: meta.AgentName != "/root"}
	for i, raw := range in.Input {
		var it responsesItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return nil, false, fmt.Errorf("input[%d]: %w", i, err)
		}
		role, block, err := responsesBlock(it)
		if err != nil {
			return nil, false, fmt.Errorf("input[%d] %s: %w", i, clip(string(raw), 400), err)
		}
		if role == "developer" && !req.Spoke() {
			// Developer messages before the model first speaks are the
			// system prompt: Codex's instructions and the context start
			// hooks added. Later ones arrived in the conversation.
			req.System = strings.TrimPrefix(req.System+"\n"+block[0].Text, "\n")
			continue
		}
		if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == role {
			req.Messages[n-1].Blocks = append(req.Messages[n-1].Blocks, block...)
			continue
		}
		req.Messages = append(req.Messages, Message{Role: role, Blocks: block})
	}
	return req, false, nil
}

// responsesBlock is one input item as the role it speaks in and its blocks.
// A call's name is namespace.name when the tool is in a namespace
// (collaboration.spawn_agent).
func responsesBlock(it responsesItem) (string, []Block, error) {
	name := it.Name
	if it.Namespace != "" {
		name = it.Namespace + "." + it.Name
	}
	switch it.Type {
	case "message":
		text, err := openaiText(it.Content)
		if err != nil {
			return "", nil, err
		}
		return it.Role, []Block{{Type: "text", Text: text}}, nil
	case "function_call":
		return "assistant", []Block{{Type: "tool_use", ID: it.CallID, Name: name, Input: json.RawMessage(it.Arguments)}}, nil
	case "custom_tool_call":
		return "assistant", []Block{{Type: "tool_use", ID: it.CallID, Name: name, Input: freeformInput(it.Input)}}, nil
	case "function_call_output", "custom_tool_call_output":
		text, err := openaiText(it.Output)
		if err != nil {
			return "", nil, err
		}
		return "tool", []Block{{Type: "tool_result", ID: it.CallID, Text: text}}, nil
	case "agent_message":
		// A message between agents (a task, a final answer); its payload
		// is in encrypted_content, which the fake's model writes in clear.
		text, err := openaiText(it.Content)
		if err != nil {
			return "", nil, err
		}
		return "user", []Block{{Type: "text", Text: text}}, nil
	case "reasoning":
		return "assistant", nil, nil
	}
	return "", nil, fmt.Errorf("an input item the fake does not know")
}

// Write streams reply as one response: an assistant message with the text,
// then an output item per call (a function_call, or a custom_tool_call when
// the input is free text, as apply_patch takes it), then response.completed.
// A response with calls makes Codex run them and ask again; one without
// ends the turn.
func (responsesWire) Write(w http.ResponseWriter, req *Request, reply Reply) error {
	id := fmt.Sprintf("resp_fake_%d", req.N)
	var out sseStream
	add := func(kind string, data map[string]any) error {
		data["type"] = kind
		return out.event(kind, data)
	}
	if err := add("response.created", map[string]any{"response": map[string]any{"id": id}}); err != nil {
		return err
	}
	if text := replyText(reply); text != "" {
		if err := add("response.output_item.done", map[string]any{"item": map[string]any{
			"type": "message", "role": "assistant", "id": id + "_msg",
			"content": []any{map[string]any{"type": "output_text", "text": text}}}}); err != nil {
			return err
		}
	}
	for _, c := range reply.Calls {
		item := map[string]any{"call_id": c.ID, "name": c.Name}
		if ns, name, ok := strings.Cut(c.Name, "."); ok {
			item["namespace"], item["name"] = ns, name
		}
		input, freeform, err := openaiCallInput(c)
		if err != nil {
			return err
		}
		if freeform {
			item["type"], item["input"] = "custom_tool_call", input
		} else {
			item["type"], item["arguments"] = "function_call", input
		}
		if err := add("response.output_item.done", map[string]any{"item": item}); err != nil {
			return err
		}
	}
	if err := add("response.completed", map[string]any{"response": map[string]any{"id": id, "usage": map[string]any{
		"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15}}}); err != nil {
		return err
	}
	return out.send(w)
}

// Refuse answers 400 invalid_request_error; Codex runs with its retries
// off, so it does not ask again.
func (responsesWire) Refuse(w http.ResponseWriter, why string) { openaiRefuse(w, why, nil) }

// responsesToolNames are the tools a Responses request offers.
func responsesToolNames(r *Request) []string {
	var in struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(r.Body, &in)
	names := make([]string, 0, len(in.Tools))
	for _, t := range in.Tools {
		names = append(names, t.Name)
	}
	return names
}
