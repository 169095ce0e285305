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

// The inbox, on every CLI: a message sent from outside while the agent
// runs arrives once, at its next tool call.

var inboxScenarios = []Scenario{
	{Name: "inbox/send-while-running", Project: quoted, Run: inboxLocal},
	{Name: "inbox/nats-across-machines", Project: quoted, Run: inboxNATS},
}

// inboxLocal: `massgen-hook send` from outside, between two model turns;
// the next tool call delivers the message, once, and the model reads it.
func inboxLocal(t *testing.T, s *Session) {
	s.Wire()
	send := func(args ...string) (string, error) { return s.Hook(args...) }
	inboxDelivers(s, send, "INBOX-8841", "INBOX-8841: use PostgreSQL, not SQLite")

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

// inboxNATS: the inbox on a NATS server (a real nats-server with
// JetStream), a message sent from another machine's project (only the
// server is shared) while the CLI runs; its next tool call delivers it,
// once, and the stream's listing shows it delivered to the agent.
func inboxNATS(t *testing.T, s *Session) {
	srv := natstest.Start(t, natstest.Options{})
	s.Wire()
	config := "inbox:\n  backend: nats\n  url: " + srv.URL() + "\n"
	s.WriteFile(".claude/massgen-hook.yaml", config)
	elsewhere := t.TempDir()
	if err := os.MkdirAll(filepath.Join(elsewhere, ".claude"), 0o755); err != nil {
		s.Fatalf("%v", err)
	}
	if err := os.WriteFile(filepath.Join(elsewhere, ".claude", "massgen-hook.yaml"), []byte(config), 0o644); err != nil {
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
	inboxDelivers(s, fromElsewhere, "INBOX-NATS-5120", "INBOX-NATS-5120: the API must stay backwards compatible")

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

// inboxDelivers runs three shell calls, sending text (marked by mark) with
// send between the first two, and checks the model read it after the
// second, not before, and never again; once, where the CLI shows a hook's
// context once.
func inboxDelivers(s *Session, send func(args ...string) (string, error), mark, text string) {
	s.t.Helper()
	m := s.Model
	m.On("one", All(Main, First), s.CLI.Shell("call_i1", "echo one"))
	second := m.On("two", All(Main, After("call_i1")), s.CLI.Shell("call_i2", "echo two"))
	second.Before = func(*Request) error {
		_, err := send("send", "--to", "coordinator", text)
		return err
	}
	m.On("three", All(Main, After("call_i2")), s.CLI.Shell("call_i3", "echo three"))
	m.On("done", All(Main, After("call_i3")), Say("done"))
	s.Run("work on the storage layer")

	if s.Turn("two").Contains(mark) {
		s.Errorf("the message arrived before it was sent")
	}
	delivered := s.Turn("three")
	if !strings.Contains(delivered.TailText(), text) {
		s.Fatalf("the message did not arrive after the next tool call; the model got: %q", clip(delivered.TailText(), 600))
	}
	once := delivered.Count(mark)
	switch {
	case once > 1 && s.CLI.RepeatsContext:
		s.Observe("%s shows one delivery %d times in the model's context", s.CLI.Name, once)
	case once != 1:
		s.Errorf("one delivery is in the model's context %d times, want once", once)
	}
	if later := s.Turn("done").Count(mark); later != once {
		s.Errorf("the message arrived again at a later call (%d times in the conversation, was %d)", later, once)
	}
	noEscapedMarkup(s, delivered)
	if res, _ := delivered.ToolResult("call_i2"); strings.Contains(res.Text, mark) {
		s.Observe("the message came appended to the tool message of the call after which it was sent")
	}
}
