//go:build realcli

package realcli

import (
	"encoding/json"
	"strings"
	"testing"
)

// codexInbox: `massgen-hook send` from outside, between two model turns;
// the next tool call delivers the message, once, and the model reads it.
func codexInbox(t *testing.T, s *Session) {
	codexWire(s)
	const text = "INBOX-8841: use PostgreSQL, not SQLite"
	m := s.Model
	m.On("one", All(Main, First), cxShell("call_i1", "echo one"))
	second := m.On("two", All(Main, After("call_i1")), cxShell("call_i2", "echo two"))
	second.Before = func(*Request) error {
		_, err := s.Hook("send", "--to", "coordinator", text)
		return err
	}
	m.On("three", All(Main, After("call_i2")), cxShell("call_i3", "echo three"))
	m.On("done", All(Main, After("call_i3")), Say("switching to PostgreSQL"))
	codexRun(s, "work on the storage layer")

	if s.Turn("two").Contains("INBOX-8841") {
		s.Errorf("the message arrived before it was sent")
	}
	delivered := s.Turn("three")
	if !strings.Contains(delivered.TailText(), text) {
		s.Fatalf("the message did not arrive after the next tool call; the model got: %q", clip(delivered.TailText(), 600))
	}
	if n := delivered.Count("INBOX-8841"); n != 1 {
		s.Errorf("the model reads the message %d times after its delivery, want once", n)
	}
	if n := s.Turn("done").Count("INBOX-8841"); n != 1 {
		s.Errorf("the message arrived again at a later call (%d times in the conversation)", n)
	}
	noEscapedMarkup(s, delivered)

	out, err := s.Hook("inbox", "--format", "json")
	if err != nil {
		s.Fatalf("%v", err)
	}
	var msgs []struct {
		Delivered []struct{ To, Event, Tool string } `json:"delivered"`
	}
	if err := json.Unmarshal([]byte(out), &msgs); err != nil || len(msgs) != 1 {
		s.Fatalf("inbox --format json: want one message, got %s (%v)", out, err)
	}
	if d := msgs[0].Delivered; len(d) != 1 || d[0].To != "coordinator" || d[0].Event != "PostToolUse" {
		s.Errorf("inbox --format json: want one delivery to coordinator at PostToolUse, got %+v", d)
	}
}
