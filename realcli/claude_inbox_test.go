//go:build realcli

package realcli

import (
	"encoding/json"
	"strings"
	"testing"
)

// claudeInbox: `massgen-hook send` from outside, between two model turns;
// the next tool call delivers the message, once, and the model reads it.
func claudeInbox(t *testing.T, s *Session) {
	s.Wire()
	const text = "INBOX-8841: use PostgreSQL, not SQLite"
	m := s.Model
	m.On("one", All(Main, First), ccBash("toolu_i1", "echo one"))
	second := m.On("two", All(Main, After("toolu_i1")), ccBash("toolu_i2", "echo two"))
	second.Before = func(*Request) error {
		_, err := s.Hook("send", "--to", "coordinator", text)
		return err
	}
	m.On("three", All(Main, After("toolu_i2")), ccBash("toolu_i3", "echo three"))
	m.On("done", All(Main, After("toolu_i3")), Say("switching to PostgreSQL"))
	s.Run("work on the storage layer")

	if s.Turn("two").Contains("INBOX-8841") {
		s.Errorf("the message arrived before it was sent")
	}
	delivered := s.Turn("three")
	if !strings.Contains(delivered.TailText(), text) {
		s.Fatalf("the message did not arrive after the next tool call; the model got: %q", clip(delivered.TailText(), 600))
	}
	once := delivered.Count("INBOX-8841")
	if later := s.Turn("done").Count("INBOX-8841"); later != once {
		s.Errorf("the message arrived again at a later call (%d times in the conversation, was %d)", later, once)
	}
	if once > 1 {
		s.Observe("Claude Code shows one delivery %d times in the model's context", once)
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
