//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// geminiWire is the Gemini API as Gemini CLI calls it through
// GOOGLE_GEMINI_BASE_URL: POST /v1beta/models/<model>:streamGenerateContent?alt=sse
// for every model turn, main agent or subagent. Gemini CLI 0.61.0 run with
// -m sends nothing else here: countTokens only for media or before
// compressing a long history, generateContent only for side questions
// (model routing without -m, the next-speaker check, which is off by
// default, summaries).
type geminiWire struct{}

// geminiCompleteTask is the tool every subagent, and only a subagent, is
// offered: a local subagent ends by calling it.
const geminiCompleteTask = "complete_task"

type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction *geminiContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text         string `json:"text,omitempty"`
	Thought      bool   `json:"thought,omitempty"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		ID       string                     `json:"id"`
		Name     string                     `json:"name"`
		Response map[string]json.RawMessage `json:"response"`
	} `json:"functionResponse,omitempty"`
}

// geminiMethod splits /v1beta/models/<model>:<method> into its method.
func geminiMethod(path string) (model, method string, ok bool) {
	rest, found := strings.CutPrefix(path, "/v1beta/models/")
	if !found {
		return "", "", false
	}
	return strings.Cut(rest, ":")
}

func (geminiWire) Parse(w http.ResponseWriter, r *http.Request, body []byte) (*Request, bool, error) {
	model, method, ok := geminiMethod(r.URL.Path)
	if r.Method != http.MethodPost || !ok {
		return nil, false, fmt.Errorf("not the Gemini API: %s %s", r.Method, r.URL)
	}
	switch method {
	case "countTokens":
		// A small count: nothing to compress or truncate.
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"totalTokens": 10}`))
		return nil, true, nil
	case "streamGenerateContent":
		if r.URL.Query().Get("alt") != "sse" {
			return nil, false, fmt.Errorf("a streamed request without alt=sse (%s)", r.URL)
		}
	default:
		// generateContent asks side questions, each with its own JSON
		// schema: no scenario scripts one, and an answer made up here would
		// be an unscripted turn, so it fails the run, named.
		return nil, false, fmt.Errorf("an unscripted %s call for model %s", method, model)
	}
	var in geminiRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, false, err
	}
	req := &Request{Path: r.URL.RequestURI(), Body: body}
	if in.SystemInstruction != nil {
		var parts []string
		for _, p := range in.SystemInstruction.Parts {
			parts = append(parts, p.Text)
		}
		req.System = strings.Join(parts, "\n")
	}
	for _, t := range in.Tools {
		for _, f := range t.FunctionDeclarations {
			if f.Name == geminiCompleteTask {
				req.Subagent = true
			}
		}
	}
	for i, c := range in.Contents {
		role := c.Role
		if role == "model" {
			role = "assistant"
		}
		msg := Message{Role: role}
		for _, p := range c.Parts {
			b, err := geminiBlock(p)
			if err != nil {
				return nil, false, fmt.Errorf("contents[%d]: %w", i, err)
			}
			if b != nil {
				msg.Blocks = append(msg.Blocks, *b)
			}
		}
		req.Messages = append(req.Messages, msg)
	}
	return req, false, nil
}

func geminiBlock(p geminiPart) (*Block, error) {
	switch {
	case p.FunctionCall != nil:
		c := p.FunctionCall
		return &Block{Type: "tool_use", ID: c.ID, Name: c.Name, Input: c.Args}, nil
	case p.FunctionResponse != nil:
		f := p.FunctionResponse
		b := &Block{Type: "tool_result", ID: f.ID, Name: f.Name}
		// A tool's result is {"output": text}; a failed or refused call
		// is {"error": text}.
		for _, key := range []string{"output", "error"} {
			raw, ok := f.Response[key]
			if !ok {
				continue
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				s = string(raw)
			}
			b.Text += s
			b.IsError = b.IsError || key == "error"
		}
		return b, nil
	case p.Thought:
		return nil, nil
	default:
		return &Block{Type: "text", Text: p.Text}, nil
	}
}

// Write streams reply as one candidate: a text part, then a functionCall
// part per call with the call's id (Gemini CLI sends it back with the call
// and its response), finishing with STOP either way, as the real API does.
func (geminiWire) Write(w http.ResponseWriter, req *Request, reply Reply) error {
	var parts []map[string]any
	if text := replyText(reply); text != "" {
		parts = append(parts, map[string]any{"text": text})
	}
	for _, c := range reply.Calls {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"id": c.ID, "name": c.Name, "args": c.Input}})
	}
	chunk := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP",
			"index":        0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-fake",
		"responseId":    fmt.Sprintf("fake-%d", req.N),
	}
	out := sseStream{end: "\r\n\r\n"}
	if err := out.event("", chunk); err != nil {
		return err
	}
	return out.send(w)
}

// Refuse answers 400 INVALID_ARGUMENT, which Gemini CLI does not retry.
func (geminiWire) Refuse(w http.ResponseWriter, why string) {
	refuse(w, map[string]any{"error": map[string]any{
		"code": 400, "status": "INVALID_ARGUMENT", "message": "fake model API: " + why}})
}
