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

// opencodeSentBack: OpenCode sends a blocked subagent back through its
// task tool, whose result the main agent reads: the subagent's last answer
// alone, not the one it first tried to stop with.
func opencodeSentBack(s *Session, run *Run) {
	res := mustResult(s.Turn("main-stops-early"), "call_agent1")
	if !strings.Contains(res.Text, "note written") || strings.Contains(res.Text, "stopping here") {
		s.Errorf("the main agent did not read the subagent's last answer alone: %q", clip(res.Text, 400))
	}
}
