//go:build realcli

package realcli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

// claudeInboxNATS: the inbox on a NATS server (a real nats-server with
// JetStream), a message sent from another machine's project (only the
// server is shared) while Claude Code runs; its next tool call delivers
// it, once, and the stream's listing shows it delivered to the agent.
func claudeInboxNATS(t *testing.T, s *Session) {
	srv := natstest.Start(t, natstest.Options{})
	s.Wire()
	s.WriteFile(".claude/massgen-hook.yaml", "inbox:\n  backend: nats\n  url: "+srv.URL()+"\n")
	elsewhere := t.TempDir()
	if err := os.MkdirAll(filepath.Join(elsewhere, ".claude"), 0o755); err != nil {
		s.Fatalf("%v", err)
	}
	if err := os.WriteFile(filepath.Join(elsewhere, ".claude", "massgen-hook.yaml"), []byte("inbox:\n  backend: nats\n  url: "+srv.URL()+"\n"), 0o644); err != nil {
		s.Fatalf("%v", err)
	}
	fromElsewhere := func(args ...string) (string, error) {
		cmd := exec.Command(hookBinary, args...)
		cmd.Dir = elsewhere
		cmd.Env = append(s.baseEnv(), "CLAUDE_PROJECT_DIR="+elsewhere)
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			s.Errorf("massgen-hook %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
		}
		return string(out), err
	}
	const text = "INBOX-NATS-5120: the API must stay backwards compatible"
	m := s.Model
	m.On("one", All(Main, First), ccBash("toolu_n1", "echo one"))
	second := m.On("two", All(Main, After("toolu_n1")), ccBash("toolu_n2", "echo two"))
	second.Before = func(*Request) error {
		_, err := fromElsewhere("send", "--to", "coordinator", text)
		return err
	}
	m.On("three", All(Main, After("toolu_n2")), ccBash("toolu_n3", "echo three"))
	m.On("done", All(Main, After("toolu_n3")), Say("keeping the API compatible"))
	s.Run("work on the API")

	if s.Turn("two").Contains("INBOX-NATS-5120") {
		s.Errorf("the message arrived before it was sent")
	}
	delivered := s.Turn("three")
	if !strings.Contains(delivered.TailText(), text) {
		s.Fatalf("the message did not arrive after the next tool call; the model got: %q", clip(delivered.TailText(), 600))
	}
	if once, later := delivered.Count("INBOX-NATS-5120"), s.Turn("done").Count("INBOX-NATS-5120"); later != once {
		s.Errorf("the message arrived again at a later call (%d times in the conversation, was %d)", later, once)
	}
	out, err := fromElsewhere("inbox", "--format", "json")
	if err != nil {
		s.Fatalf("%v", err)
	}
	var l struct {
		Backend  string `json:"backend"`
		Messages []struct {
			Delivered []struct{ To, Event, Tool string } `json:"delivered"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || l.Backend != "nats" || len(l.Messages) != 1 {
		s.Fatalf("inbox --format json from the other machine: want one message on the stream, got %s (%v)", out, err)
	}
	if d := l.Messages[0].Delivered; len(d) != 1 || d[0].To != "coordinator" || d[0].Event != "PostToolUse" {
		s.Errorf("the stream should show one delivery to coordinator at PostToolUse, got %+v", d)
	}
}
