//go:build realcli

package realcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// geminiSessionStart: a fresh session starts with the newest coordinator
// scratchpad and the last commits in the model's context.
func geminiSessionStart(t *testing.T, s *Session) {
	yesterday := time.Now().AddDate(0, 0, -1).Format("2006-01-02")
	s.WriteFile(Scratchpad("coordinator", "2025-01-02"), "OLD-COORDINATOR-NOTE-1187\n")
	s.WriteFile(Scratchpad("coordinator", yesterday), "## Delegated\nNEWEST-COORDINATOR-NOTE-5521\n\n## Unresolved\nship the parser\n")
	s.Commit("realcli: parser skeleton 3307")
	s.Wire()
	s.Model.On("hello", All(Main, First), Say("ready"))
	run := s.Run("what did we do last time?")

	first := s.Turn("hello")
	for _, want := range []string{"NEWEST-COORDINATOR-NOTE-5521", "ship the parser", "realcli: parser skeleton 3307"} {
		if !first.Contains(want) {
			s.Errorf("the model's first turn lacks %q from session-start", want)
		}
	}
	if first.Contains("OLD-COORDINATOR-NOTE-1187") {
		s.Errorf("the model got the older coordinator scratchpad too")
	}
	noEscapedMarkup(s, first)
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// geminiStopCap: the main agent delegates to the scribe (invoke_agent;
// Gemini CLI fires no subagent events, so that call is the delegation) and
// stops without the coordinator's log. AfterAgent blocks it: Gemini CLI
// sends the reason as the next prompt. After block_cap (3) blocks the next
// stop is let through, and the release is in the audit trail. AfterAgent
// runs exactly once per stop: four, then the run ends (no loop).
func geminiStopCap(t *testing.T, s *Session) {
	if err := os.MkdirAll(filepath.Join(s.Home, ".gemini", "agents"), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Home, ".gemini", "agents", "scribe.md"), []byte(scribeGeminiAgent), 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.Wire()
	geminiCapture(s, "AfterAgent")
	m := s.Model
	m.On("delegate", All(Main, First), Use("g_agent", "invoke_agent",
		map[string]any{"agent_name": "scribe", "prompt": "task-notes: write a note"}))
	m.On("sub-done", All(Subagent("task-notes"), First), Use("g_complete", geminiCompleteTask,
		map[string]any{"result": "wrote a note"}))
	m.On("stops", All(Main, After("g_agent")), Say("finished"))
	again := m.On("stops-again", All(Main, Arrived("Multi-agent delegation detected")), Say("finished anyway"))
	again.Times = -1
	run := s.Run("finish up")

	if n := len(m.Answered("stops-again")); n != 3 {
		s.Errorf("the model was told to write the coordinator log %d times, want 3 (block_cap)", n)
	}
	if n := len(geminiCaptured(s, "AfterAgent")); n != 4 {
		s.Errorf("AfterAgent ran %d times, want 4 (three blocks and the release)", n)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success after the cap let it go: %s", run.Final.Raw)
	}
	var released map[string]any
	for _, rec := range s.Audit() {
		if rec["rule"] == "scratchpad.block_cap" && rec["outcome"] == "released" {
			released = rec
		}
	}
	if released == nil || released["blocks"] != float64(3) {
		s.Errorf("no audit record of the release after 3 blocks: %v", released)
	}
	// The user learns of the release from the hook's systemMessage, which
	// Gemini CLI prints on stderr under -p ("Hook system message: ...").
	const told = "let the session stop after 3 blocked attempts"
	if !strings.Contains(string(run.Stderr), "Hook system message: massgen-hook: "+told) {
		s.Errorf("the release was not shown to the user (no \"Hook system message\" on stderr saying %q)", told)
	}
	for _, r := range m.Requests() {
		if r.Contains(told) {
			s.Observe("the release's systemMessage reached the model too")
			break
		}
	}
}
