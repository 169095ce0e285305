//go:build realcli

package realcli

import (
	"strings"
	"testing"
	"time"
)

// codexSessionStart: a fresh session starts with the newest coordinator
// scratchpad and the last commits in the model's context.
func codexSessionStart(t *testing.T, s *Session) {
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

// codexStopCap: a scribe subagent wrote its scratchpad, and the main
// agent stops without the coordinator's log: blocked, with the reason the
// model reads; after block_cap (3) blocks the next stop is let through,
// and the release is in the audit trail.
func codexStopCap(t *testing.T, s *Session) {
	codexScribeProject(s)
	s.Wire()
	m := s.Model
	m.On("delegate", All(Main, First), cxSpawn("call_spawn3", "task-note: write a note"))
	codexWait(m, "call_spawn3")
	m.On("sub-writes", All(Subagent("task-note"), First),
		cxPatch("call_pad3", cxAddFile(Scratchpad("scribe", s.Today()), scratchpadBody("wrote a note"))))
	m.On("sub-stops", All(Subagent("task-note"), After("call_pad3")), Say("note written"))
	m.On("stops", All(Main, Arrived(finalAnswer)), Say("finished"))
	again := m.On("stops-again", All(Main, Arrived("Multi-agent delegation detected")), Say("finished anyway"))
	again.Times = -1
	run := s.Run("have the scribe write a note, then finish")

	if n := len(m.Answered("stops-again")); n != 3 {
		s.Errorf("the model was told to write the coordinator log %d times, want 3 (block_cap)", n)
	}
	var stops []string
	for _, r := range codexHookRuns(run) {
		if strings.HasPrefix(r, "Stop ") {
			stops = append(stops, r)
		}
	}
	if want := "Stop Blocked, Stop Blocked, Stop Blocked, Stop Completed"; strings.Join(stops, ", ") != want {
		s.Errorf("Codex shows the Stop hook runs %q, want %q", strings.Join(stops, ", "), want)
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
	// Where the user learns of the release (the hook's systemMessage).
	const told = "let the session stop after 3 blocked attempts"
	s.Observe("the release's systemMessage is shown by codex exec: %v",
		strings.Contains(string(run.Stdout)+string(run.Stderr), told))
	for _, r := range m.Requests() {
		if r.Contains(told) {
			s.Observe("the release's systemMessage reached the model too")
			break
		}
	}
}
