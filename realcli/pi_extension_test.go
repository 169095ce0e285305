//go:build realcli

package realcli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// pi's own scenarios: what massgen-hook's extension does in pi that no
// hook wiring does elsewhere.

func init() {
	piCLI.Scenarios = []Scenario{
		{Name: "stop/late-message-sends-on", Run: piStopSendsOn},
		{Name: "extension/binary-missing", Project: quoted, Run: piBinaryMissing},
		{Name: "extension/asks-with-a-ui", Run: piAsks},
		{Name: "extension/outer-claude-project", Run: piOuterProject},
		{Name: "extension/unreadable-answers", Run: piUnreadableAnswers},
		{Name: "stop/late-message-sends-on-with-a-ui", Run: piStopSendsOnRPC},
	}
}

// scriptLateNote scripts the model to answer at once while a message,
// mark: text, is sent with a 1 ms time to live just before that answer, so
// no tool call can deliver it: only the stop can; and to acknowledge the
// note when it arrives (step "read-late").
func scriptLateNote(s *Session, mark, text string) {
	m := s.Model
	first := m.On("answer", All(Main, First), Say("all done"))
	first.Before = func(*Request) error {
		_, err := s.Hook("send", "--to", "coordinator", "--ttl", "1ms", mark+": "+text)
		return err
	}
	m.On("read-late", All(Main, Arrived(mark)), Say("noted"))
}

// piStopSendsOn: a message for the main thread expires while the model
// answers without a tool call, so no tool call delivers it; the stop hook
// blocks the stop with it, and the extension sends pi on with the reason
// as the next user message, which the model reads, in print mode too,
// where pi has already written its answer and is exiting. The second stop
// passes.
func piStopSendsOn(t *testing.T, s *Session) {
	s.Wire()
	scriptLateNote(s, "LATE-NOTE-4411", "the staging database moved")
	run := s.Run("finish up")

	if len(s.Model.Answered("read-late")) != 1 {
		s.Errorf("the model was not sent on with the late message once; it answered read-late %d times", len(s.Model.Answered("read-late")))
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	out, err := s.Hook("inbox", "--format", "json")
	if err != nil {
		s.Fatalf("%v", err)
	}
	var msgs []struct {
		Delivered []struct{ To, Event string } `json:"delivered"`
	}
	if err := json.Unmarshal([]byte(out), &msgs); err != nil || len(msgs) != 1 {
		s.Fatalf("inbox --format json: want one message, got %s (%v)", out, err)
	}
	if d := msgs[0].Delivered; len(d) != 1 || d[0].To != "coordinator" || d[0].Event != "Stop" {
		s.Errorf("inbox --format json: want one delivery to coordinator at Stop, got %+v", d)
	}
}

// piBinaryMissing: the binary the extension runs is gone. A tool call is
// blocked (it fails closed), with a reason that says massgen-hook could not
// run and how to fix it; the session start goes on, and the user is told
// on stderr.
func piBinaryMissing(t *testing.T, s *Session) {
	s.WriteFile("notes.txt", "harmless\n")
	s.Wire()
	if err := os.Remove(s.Path(".claude/hooks/massgen-hook")); err != nil {
		s.Fatalf("%v", err)
	}
	m := s.Model
	m.On("read", All(Main, First), s.CLI.Read("call_read", s.Path("notes.txt")))
	m.On("done", All(Main, After("call_read")), Say("could not read it"))
	start := time.Now()
	run := s.Run("read the notes")

	res, _ := s.Turn("done").ToolResult("call_read")
	for _, want := range []string{"massgen-hook could not run", "massgen-hook doctor", "massgen-hook init --agent pi"} {
		if !strings.Contains(res.Text, want) {
			s.Errorf("the blocked read does not say %q: %q", want, clip(res.Text, 400))
		}
	}
	if strings.Contains(res.Text, "harmless") {
		s.Errorf("the read ran without massgen-hook: %q", clip(res.Text, 200))
	}
	stderr := string(run.Stderr)
	for _, want := range []string{"session start went on without it", "massgen-hook blocked read"} {
		if !strings.Contains(stderr, want) {
			s.Errorf("the user was not told %q on stderr: %s", want, clip(stderr, 600))
		}
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.Observe("pi ran %s with the binary missing", time.Since(start).Round(100*time.Millisecond))
}

// piOuterProject: pi runs inside an outer Claude Code session, whose
// CLAUDE_PROJECT_DIR names another project with the guards off. The
// extension's project is the one its file is in: the read of .env is
// still denied.
func piOuterProject(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	other := t.TempDir()
	if err := os.MkdirAll(other+"/.claude", 0o755); err != nil {
		s.Fatalf("%v", err)
	}
	if err := os.WriteFile(other+"/.claude/massgen-hook.yaml", []byte("default_guards: false\n"), 0o644); err != nil {
		s.Fatalf("%v", err)
	}
	s.Env = append(s.Env, "CLAUDE_PROJECT_DIR="+other)
	m := s.Model
	m.On("read", All(Main, First), s.CLI.Read("call_read", s.Path(".env")))
	m.On("done", All(Main, After("call_read")), Say("refused"))
	s.Run("read the environment")
	wantDenied(s, s.Turn("done"), "call_read", "protected path")
}

// piUnreadableAnswers: the binary the extension runs answers what is not
// a JSON object, or exits 2 (a failure under fail_closed). Each call is
// blocked: the first with a reason that says massgen-hook could not run,
// the second with the hook's stderr; neither command runs.
func piUnreadableAnswers(t *testing.T, s *Session) {
	s.Wire()
	s.WriteScript(".claude/hooks/massgen-hook", `#!/bin/sh
event=$(cat)
[ "$1" = pre-tool-use ] || exit 0
case "$event" in
*probe-two*) echo "FAIL-CLOSED-3301: the hook failed" >&2; exit 2 ;;
*) echo 42 ;;
esac
`)
	m := s.Model
	m.On("one", All(Main, First), s.CLI.Shell("call_one", "echo probe-one > one.txt"))
	m.On("two", All(Main, After("call_one")), s.CLI.Shell("call_two", "echo probe-two > two.txt"))
	m.On("done", All(Main, After("call_two")), Say("neither ran"))
	s.Run("run the probes")

	done := s.Turn("done")
	one, _ := done.ToolResult("call_one")
	if !strings.Contains(one.Text, "massgen-hook could not run") || !strings.Contains(one.Text, "not a JSON object") {
		s.Errorf("an unreadable answer did not block the call saying so: %q", clip(one.Text, 300))
	}
	two, _ := done.ToolResult("call_two")
	if !strings.Contains(two.Text, "FAIL-CLOSED-3301") || !two.IsError {
		s.Errorf("an exit 2 did not block the call with the hook's stderr: %q", clip(two.Text, 300))
	}
	for _, f := range []string{"one.txt", "two.txt"} {
		if _, ok := s.ReadFile(f); ok {
			s.Errorf("%s exists: a blocked command ran", f)
		}
	}
}
