//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// What the four fake model APIs share: the request line they accept, the
// stream they answer with, the text of a reply without calls, and a refusal
// the CLIs do not retry. Each API's own shapes are in its file
// (anthropic_test.go, chatcompletions_test.go, responses_test.go,
// geminiapi_test.go).

// wantStreamedPost fails unless r is a POST to path, the API's one route
// for model turns, asking for a streamed answer (a CLI that asks for a
// whole answer at once is not driven as this suite expects).
func wantStreamedPost(r *http.Request, api, path string, stream bool, model string) error {
	if r.Method != http.MethodPost || r.URL.Path != path {
		return fmt.Errorf("not the %s: %s %s", api, r.Method, r.URL)
	}
	if !stream {
		return fmt.Errorf("a request that does not ask for streaming (model %s)", model)
	}
	return nil
}

// sseStream is one streamed answer, built event by event and written at
// once: the fake answers every turn whole, so there is nothing to flush
// between events.
type sseStream struct {
	events []string
	end    string // what ends an event: "\n\n", or "\r\n\r\n" for Gemini's API
}

// event adds a server-sent event; kind "" writes only its data line.
func (s *sseStream) event(kind string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	s.data(string(b))
	if kind != "" {
		s.events[len(s.events)-1] = "event: " + kind + "\n" + s.events[len(s.events)-1]
	}
	return nil
}

// data adds an event of one raw data line ("[DONE]").
func (s *sseStream) data(line string) {
	end := s.end
	if end == "" {
		end = "\n\n"
	}
	s.events = append(s.events, "data: "+line+end)
}

// send writes the stream as the answer.
func (s *sseStream) send(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	_, err := w.Write([]byte(strings.Join(s.events, "")))
	return err
}

// replyText is the text a reply's message carries: its own, or "done" for
// a reply with neither text nor calls (an empty answer is not one the real
// APIs give), or "" for calls alone.
func replyText(reply Reply) string {
	if reply.Text == "" && len(reply.Calls) == 0 {
		return "done"
	}
	return reply.Text
}

// refuse answers 400 with body, an API's own error object. Every CLI takes
// a 400 as final (Codex runs with its retries off), so the run ends there.
func refuse(w http.ResponseWriter, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	b, _ := json.Marshal(body)
	_, _ = w.Write(b)
}
