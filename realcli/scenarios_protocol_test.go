//go:build realcli

package realcli

import (
	"strings"
	"testing"
	"time"
)

// The scratchpad protocol's scenarios that need no subagent, on every CLI.

var protocolScenarios = []Scenario{
	{Name: "session-start/context", Run: sessionStartContext},
	{Name: "stop/block-and-cap", Project: quoted, Run: stopBlockAndCap},
	{Name: "stop/other-session", Run: stopOtherSession},
}

// stopBlockAndCap: the session delegated to a scribe subagent, which wrote
// its scratchpad where it can, and the main agent stops without the
// coordinator's log: blocked, with the reason the model reads; after
// block_cap (3) blocks the next stop is let through, the release is in the
// audit trail, and the user is told where the CLI shows a hook's message.
func stopBlockAndCap(t *testing.T, s *Session) {
	s.CLI.Scribe(s)
	s.Wire()
	s.prepare("stop/block-and-cap")
	m := s.Model
	call, returned := s.CLI.Delegate(s, "call_agent", "task-note: write a note")
	m.On("delegate", All(Main, First), call)
	s.CLI.ScribeFinishes(s, "task-note", First)
	m.On("stops", All(Main, returned), Say("finished"))
	again := m.On("stops-again", All(Main, Arrived("Multi-agent delegation detected")), Say("finished anyway"))
	again.Times = -1
	run := s.Run("delegate a note, then finish up")

	if n := len(m.Answered("stops-again")); n != 3 {
		s.Errorf("the model was told to write the coordinator log %d times, want 3 (block_cap)", n)
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
	// The user learns of the release from the hook's systemMessage.
	const told = "let the session stop after 3 blocked attempts"
	if s.CLI.Shown != nil && !strings.Contains(s.CLI.Shown(run), told) {
		s.Errorf("the release was not shown to the user (nothing saying %q)", told)
	}
	if s.CLI.Shown == nil {
		s.Observe("the release's systemMessage is shown by %s: %v", s.CLI.Name, strings.Contains(shownToUser(s, run), told))
	}
	for _, r := range m.Requests() {
		if r.Contains(told) {
			s.Observe("the release's systemMessage reached the model too")
			break
		}
	}
	s.also("stop/block-and-cap", run)
}

// sessionStartContext: a fresh session starts with the newest coordinator
// scratchpad and the last commits in the model's context.
func sessionStartContext(t *testing.T, s *Session) {
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
	s.also("session-start/context", run)
}

// stopOtherSession: another session's subagent wrote its scratchpad
// today, and nobody wrote the coordinator log. This session delegated
// nothing, so its stop owes no log and is not blocked: the model, which
// only answered, is never asked again.
func stopOtherSession(t *testing.T, s *Session) {
	s.WriteFile(Scratchpad("scribe", s.Today()), scratchpadBody("another session's note"))
	s.Wire()
	m := s.Model
	m.On("stops", All(Main, First), Say("finished"))
	m.On("blocked", All(Main, Not(First)), Say("finished anyway")).Times = -1
	run := s.Run("finish up")

	if n := len(m.Answered("blocked")); n > 0 {
		s.Errorf("a session that delegated nothing was blocked %d times for another session's subagent: %q",
			n, clip(s.Turn("blocked").TailText(), 300))
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
