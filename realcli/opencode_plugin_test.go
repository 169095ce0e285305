//go:build realcli

package realcli

import (
	"os"
	"strings"
	"testing"
)

// opencodeBinaryGone: the plugin cannot run massgen-hook (its binary is
// gone since init): a tool call is blocked, with a reason that says so and
// how to fix it, and the command never runs; the session itself goes on
// (its start runs without the context, and says so on stderr).
func opencodeBinaryGone(t *testing.T, s *Session) {
	s.Wire()
	if err := os.Remove(s.Path(".claude/hooks/massgen-hook")); err != nil {
		t.Fatal(err)
	}
	m := s.Model
	m.On("shell", All(Main, First), ocBash("call_touch", "touch made-unchecked.txt"))
	m.On("done", All(Main, After("call_touch")), Say("could not"))
	run := s.Run("make a file")

	// The plugin's own refusal: no massgen-hook answer is behind it.
	res := mustResult(s.Turn("done"), "call_touch")
	for _, w := range []string{"massgen-hook could not check this call", "massgen-hook doctor", "massgen-hook init --agent opencode"} {
		if !strings.Contains(res.Text, w) {
			s.Errorf("the blocked call's result does not say %q: %q", w, clip(res.Text, 400))
		}
	}
	if _, err := os.Stat(s.Path("made-unchecked.txt")); err == nil {
		s.Errorf("the command ran although massgen-hook could not check it")
	}
	if !strings.Contains(string(run.Stderr), "session-start did not run") {
		s.Errorf("the user was not told the session started without massgen-hook: stderr %q", clip(string(run.Stderr), 600))
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// opencodeSubagentSentBack: the subagent half of
// subagent-stop/blocks-then-allows. A scribe that stops without its
// scratchpad is sent back with the reason, which names the file; once it
// has written it with OpenCode's write tool it may stop, and the main
// agent reads its last answer in the task's result.
func opencodeSubagentSentBack(t *testing.T, s *Session) {
	s.CLI.Scribe(s)
	s.Wire()
	m := s.Model
	pad := Scratchpad("scribe", s.Today())
	blocked := All(Subagent("task-one"), Arrived("Scratchpad missing"))
	call, returned := s.CLI.Delegate(s, "call_agent1", "task-one: write a note")
	m.On("delegate", All(Main, First), call)
	m.On("sub-stops-early", All(Subagent("task-one"), First), Say("stopping here"))
	s.CLI.ScribeFinishes(s, "sub", "task-one", blocked)
	m.On("main-ends", All(Main, returned), Say("all done"))
	run := s.Run("delegate a note to the scribe")

	why := turnWhere(s, blocked)
	if why == nil {
		s.Fatalf("the subagent's early stop was not sent back with the scratchpad reason")
	}
	if !strings.Contains(why.TailText(), pad) {
		s.Errorf("the reason does not name the scratchpad path %s: %q", pad, clip(why.TailText(), 400))
	}
	if got, ok := s.ReadFile(pad); !ok || !strings.Contains(got, "wrote a note") {
		s.Errorf("the scratchpad is not on disk (got %q)", got)
	}
	res := mustResult(s.Turn("main-ends"), "call_agent1")
	if !strings.Contains(res.Text, "note written") || strings.Contains(res.Text, "stopping here") {
		s.Errorf("the main agent did not read the subagent's last answer alone: %q", clip(res.Text, 400))
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
