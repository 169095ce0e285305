//go:build realcli

package realcli

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// scratchpadBody is a scratchpad with every required heading.
func scratchpadBody(what string) string {
	return "## What I did\n" + what + "\n\n## Cross-agent observations\nnone\n\n## Unresolved\nnothing\n"
}

// scribeAgent is a custom agent with the tools the protocol needs.
const scribeAgent = `---
name: scribe
description: Writes short notes when asked to.
tools: Read, Write, Edit, Bash
---
You write short notes.
`

// claudeSessionStart: a fresh session starts with the newest coordinator
// scratchpad and the last commits in the model's context.
func claudeSessionStart(t *testing.T, s *Session) {
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

// noEscapedMarkup fails when hook text reached the model with its markup
// HTML-escaped (`&lt;system-reminder>`): the model then reads the wrapper as
// literal text, not as markup.
func noEscapedMarkup(s *Session, r *Request) {
	s.t.Helper()
	if i := strings.Index(r.Text(), "&lt;"); i >= 0 {
		text := r.Text()
		s.Errorf("hook context reached the model HTML-escaped: %q", text[max(0, i-80):min(len(text), i+120)])
	}
}

// claudeSubagentProtocol: a custom subagent that tries to stop without its
// scratchpad is blocked with a reason the model reads; once it has written
// .claude/scratchpad/<agent>/<today>.md with Write, it may stop.
func claudeSubagentProtocol(t *testing.T, s *Session) {
	s.WriteFile(".claude/agents/scribe.md", scribeAgent)
	s.WriteFile(Scratchpad("coordinator", s.Today()), "delegated a note to scribe\n")
	s.Wire()
	m := s.Model
	pad := s.Path(Scratchpad("scribe", s.Today()))
	m.On("delegate", All(Main, First), ccAgent("toolu_agent1", "scribe", "task-one: write a note"))
	m.On("sub-stops-early", All(Subagent("task-one"), First), Say("note written"))
	m.On("sub-writes", All(Subagent("task-one"), Arrived("Scratchpad missing")),
		ccWrite("toolu_pad1", pad, scratchpadBody("wrote the first note")))
	m.On("sub-stops", All(Subagent("task-one"), After("toolu_pad1")), Say("scratchpad written"))
	m.On("main-ends", All(Main, After("toolu_agent1")), Say("all done"))
	run := s.Run("delegate a note to the scribe")

	if len(m.Answered("sub-writes")) == 0 {
		s.Fatalf("the subagent's early stop was not blocked with the scratchpad reason")
	}
	blocked := s.Turn("sub-writes")
	if !strings.Contains(blocked.TailText(), Scratchpad("scribe", s.Today())) {
		s.Errorf("the block reason does not name the scratchpad path: %q", blocked.TailText())
	}
	if res, _ := s.Turn("sub-stops").ToolResult("toolu_pad1"); res.IsError {
		s.Fatalf("writing the scratchpad was refused: %q", res.Text)
	}
	if got, ok := s.ReadFile(Scratchpad("scribe", s.Today())); !ok || !strings.Contains(got, "wrote the first note") {
		s.Errorf("the scratchpad is not on disk (got %q)", got)
	}
	if len(m.Answered("main-ends")) != 1 {
		s.Errorf("the main agent did not get the subagent's result")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// claudeSecondInstance: each subagent instance owes its own entry. A
// scribe wrote today's scratchpad earlier; a second scribe on the same day
// may not stop on the strength of that file: it is blocked until it has
// changed the scratchpad itself.
func claudeSecondInstance(t *testing.T, s *Session) {
	s.WriteFile(".claude/agents/scribe.md", scribeAgent)
	s.WriteFile(Scratchpad("coordinator", s.Today()), "delegated two notes to scribe\n")
	first := scratchpadBody("wrote the first note")
	s.WriteFile(Scratchpad("scribe", s.Today()), first)
	s.Wire()
	m := s.Model
	pad := s.Path(Scratchpad("scribe", s.Today()))
	m.On("delegate", All(Main, First), ccAgent("toolu_agent2", "scribe", "task-two: write another note"))
	m.On("sub-stops-early", All(Subagent("task-two"), First), Say("second note written"))
	m.On("sub-reads", All(Subagent("task-two"), Arrived("Stop hook feedback")), ccRead("toolu_read2", pad))
	m.On("sub-writes", All(Subagent("task-two"), After("toolu_read2")),
		ccWrite("toolu_pad2", pad, first+"\n"+scratchpadBody("wrote the second note")))
	m.On("sub-stops", All(Subagent("task-two"), After("toolu_pad2")), Say("second entry written"))
	m.On("main-ends", All(Main, After("toolu_agent2")), Say("done"))
	run := s.Run("delegate another note to the scribe")

	if len(m.Answered("sub-reads")) == 0 {
		s.Fatalf("the second scribe was let stop without writing its own entry: the first one's file counted for it")
	}
	if res, _ := s.Turn("sub-stops").ToolResult("toolu_pad2"); res.IsError {
		s.Fatalf("the second scribe could not write its entry: %q", res.Text)
	}
	if got, _ := s.ReadFile(Scratchpad("scribe", s.Today())); !strings.Contains(got, "wrote the second note") {
		s.Errorf("the second entry is not on disk (got %q)", got)
	}
	if len(m.Answered("main-ends")) != 1 {
		s.Errorf("the main agent did not get the second scribe's result")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// claudeReadOnlyAgent: a built-in agent without Write or Edit (Explore)
// cannot write a scratchpad, so its stop must not be blocked demanding one:
// a demand it cannot meet only burns turns until the cap lets it go.
func claudeReadOnlyAgent(t *testing.T, s *Session) {
	s.WriteFile(Scratchpad("coordinator", s.Today()), "delegated a search to Explore\n")
	s.Wire()
	m := s.Model
	m.On("delegate", All(Main, First), ccAgent("toolu_explore", "Explore", "task-search: find the parser"))
	m.On("explore-stops", All(Subagent("task-search"), First), Say("the parser is in parse.go"))
	m.On("explore-blocked", All(Subagent("task-search"), Arrived("Stop hook feedback")), Say("the parser is in parse.go")).Times = -1
	m.On("main-ends", All(Main, After("toolu_explore")), Say("found it"))
	run := s.Run("find the parser")

	if n := len(m.Answered("explore-blocked")); n > 0 {
		s.Errorf("Explore, which has no Write tool, was blocked %d times for a scratchpad it cannot write: %q",
			n, clip(s.Turn("explore-blocked").TailText(), 300))
	}
	if len(m.Answered("main-ends")) != 1 {
		s.Errorf("the main agent did not get Explore's result")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// claudeStopCap: a subagent wrote today and the main agent stops without the
// coordinator's log: blocked, with the reason the model reads; after
// block_cap (3) blocks the next stop is let through, and the release is in
// the audit trail.
func claudeStopCap(t *testing.T, s *Session) {
	s.WriteFile(Scratchpad("scribe", s.Today()), scratchpadBody("wrote a note"))
	s.Wire()
	m := s.Model
	m.On("stops", All(Main, First), Say("finished"))
	again := m.On("stops-again", All(Main, Arrived("Multi-agent delegation detected")), Say("finished anyway"))
	again.Times = -1
	run := s.Run("finish up")

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
	// The user learns of the release from the hook's systemMessage, which
	// Claude Code prints in stream-json as an informational system event.
	const told = "let the session stop after 3 blocked attempts"
	shown := false
	for _, ev := range claudeEvents(run.Stdout) {
		if ev["type"] == "system" && ev["subtype"] == "informational" && strings.Contains(fmt.Sprint(ev["content"]), told) {
			shown = true
		}
	}
	if !shown {
		s.Errorf("the release was not shown in stream-json (no informational event saying %q)", told)
	}
	for _, r := range m.Requests() {
		if r.Contains(told) {
			s.Observe("the release's systemMessage reached the model too")
			break
		}
	}
}
