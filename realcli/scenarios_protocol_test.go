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
	{Name: "subagent-stop/blocks-then-allows", Project: quoted, Run: subagentBlocksThenAllows},
	{Name: "subagent-stop/second-instance", Run: subagentSecondInstance},
	{Name: "subagent-stop/read-only-agent", Run: subagentReadOnly},
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
	s.CLI.ScribeFinishes(s, "sub", "task-note", First)
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

// subagentBlocksThenAllows: a scribe subagent that tries to stop without
// its scratchpad is blocked with a reason the model reads, naming the file;
// once it has written .claude/scratchpad/scribe/<today>.md with the CLI's
// own file tool, which no hook refuses, it may stop, and the main agent gets
// its answer. The main agent's stop then owes the coordinator's log, which
// it may write too (where the CLI can hold that stop: NoStopGate).
func subagentBlocksThenAllows(t *testing.T, s *Session) {
	s.CLI.Scribe(s)
	s.Wire()
	m := s.Model
	pad := Scratchpad("scribe", s.Today())
	blocked := All(Subagent("task-one"), Arrived("Scratchpad missing"))
	call, returned := s.CLI.Delegate(s, "call_agent1", "task-one: write a note")
	m.On("delegate", All(Main, First), call)
	m.On("sub-stops-early", All(Subagent("task-one"), First), Say("stopping here"))
	s.CLI.ScribeFinishes(s, "sub", "task-one", blocked)
	m.On("main-stops-early", All(Main, returned), Say("all done"))
	holdsStop := s.CLI.NoStopGate == ""
	if holdsStop {
		m.On("main-logs", All(Main, Arrived("Multi-agent delegation detected")),
			s.CLI.WriteNew(s, "call_log1", Scratchpad("coordinator", s.Today()), "## Delegated\nscribe wrote a note\n"))
		m.On("main-ends", All(Main, After("call_log1")), Say("all done"))
	} else {
		s.Observe("the coordinator's log is not asked for: %s", s.CLI.NoStopGate)
	}
	run := s.Run("delegate a note to the scribe")

	why := turnWhere(s, blocked)
	if why == nil {
		s.Fatalf("the subagent's early stop was not blocked with the scratchpad reason")
	}
	if !strings.Contains(why.TailText(), pad) {
		s.Errorf("the block reason does not name the scratchpad path %s: %q", pad, clip(why.TailText(), 400))
	}
	if res, _ := s.Turn("sub-stops").ToolResult("call_sub_pad"); res.IsError || s.deniedResult(res) {
		s.Fatalf("writing the scratchpad was refused: %q", res.Text)
	}
	if got, ok := s.ReadFile(pad); !ok || !strings.Contains(got, "wrote a note") {
		s.Errorf("the scratchpad is not on disk (got %q)", got)
	}
	if !s.Turn("main-stops-early").Contains("note written") {
		s.Errorf("the main agent did not get the subagent's answer")
	}
	if holdsStop {
		if res, _ := s.Turn("main-ends").ToolResult("call_log1"); res.IsError || s.deniedResult(res) {
			s.Errorf("the main agent could not write the coordinator log: %q", res.Text)
		}
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.also("subagent-stop/blocks-then-allows", run)
}

// turnWhere is the first request when matches, or nil: the turn a step
// the CLI's adapter scripted answered, whatever its name.
func turnWhere(s *Session, when When) *Request {
	for _, r := range s.Model.Requests() {
		if when(r) {
			return r
		}
	}
	return nil
}

// subagentSecondInstance: each subagent instance owes its own entry. Two
// scribes run one after the other in one session; the first writes today's
// scratchpad. The second is told at its start that the file exists, and may
// not stop on the strength of the first one's entry: it is blocked until it
// has added its own to the file.
func subagentSecondInstance(t *testing.T, s *Session) {
	s.CLI.Scribe(s)
	s.Wire()
	m := s.Model
	pad := Scratchpad("scribe", s.Today())
	const unchanged = "has not changed since you started"
	call1, returned1 := s.CLI.Delegate(s, "call_agent1", "task-one: write a note")
	call2, returned2 := s.CLI.Delegate(s, "call_agent2", "task-two: write another note")
	m.On("delegate-1", All(Main, First), call1)
	s.CLI.ScribeFinishes(s, "sub1", "task-one", First)
	m.On("delegate-2", All(Main, returned1), call2)
	m.On("sub2-stops-early", All(Subagent("task-two"), First), Say("second note written"))
	// The entry is added to the file as the first scribe left it.
	addEntry := func(*Request) Reply {
		before, _ := s.ReadFile(pad)
		return s.CLI.Append(s, "call_pad2", pad, before, "\n"+scratchpadBody("wrote the second note"))
	}
	blocked := "sub2-writes"
	if s.CLI.Read != nil {
		blocked = "sub2-reads"
		m.On("sub2-reads", All(Subagent("task-two"), Arrived(unchanged)), s.CLI.Read("call_read2", s.Path(pad)))
		m.OnFunc("sub2-writes", All(Subagent("task-two"), After("call_read2")), addEntry)
	} else {
		m.OnFunc("sub2-writes", All(Subagent("task-two"), Arrived(unchanged)), addEntry)
	}
	m.On("sub2-stops", All(Subagent("task-two"), After("call_pad2")), Say("second entry written"))
	m.On("main-logs", All(Main, returned2), s.CLI.WriteNew(s, "call_log", Scratchpad("coordinator", s.Today()),
		"## Delegated\ntwo notes by two scribes\n"))
	m.On("main-ends", All(Main, After("call_log")), Say("done"))
	run := s.Run("delegate two notes to scribes, one after the other")

	if len(m.Answered("sub1-stops")) == 0 || len(m.Answered("delegate-2")) == 0 {
		s.Fatalf("the first scribe did not finish after writing its scratchpad")
	}
	if !s.Turn("sub2-stops-early").Contains("That file already exists") {
		s.Errorf("the second scribe was not told at its start that today's file exists")
	}
	if len(m.Answered(blocked)) == 0 {
		s.Fatalf("the second scribe was let stop without writing its own entry: the first one's file counted for it")
	}
	if why := s.Turn(blocked).TailText(); !strings.Contains(why, unchanged) {
		s.Errorf("the second scribe's block does not say the file is unchanged since it started: %q", clip(why, 400))
	}
	if res, _ := s.Turn("sub2-stops").ToolResult("call_pad2"); res.IsError || s.deniedResult(res) {
		s.Fatalf("the second scribe could not write its entry: %q", res.Text)
	}
	if got, _ := s.ReadFile(pad); strings.Count(got, "## What I did") != 2 || !strings.Contains(got, "wrote the second note") {
		s.Errorf("the scratchpad does not hold both entries: %q", got)
	}
	if len(m.Answered("main-ends")) != 1 {
		s.Errorf("the main agent did not finish after the coordinator log")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.also("subagent-stop/second-instance", run)
}

// lastLine is text's last line that is not empty.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return lines[len(lines)-1]
}

// subagentReadOnly: the CLI's built-in agent that only reads and searches
// (Claude Code's Explore, Copilot CLI's explore: in
// scratchpad.exempt_agents) cannot write a scratchpad: it is told at its
// start that it writes none, its stop is not blocked demanding one (a
// demand it cannot meet only burns turns until the cap lets it go), and
// the main agent's stop does not count it as delegated work owing a
// coordinator log.
func subagentReadOnly(t *testing.T, s *Session) {
	s.Wire()
	m := s.Model
	call, returned := s.CLI.Explore(s, "call_explore", "task-search: find the parser")
	m.On("delegate", All(Main, First), call)
	m.On("explore-stops", All(Subagent("task-search"), First), Say("the parser is in parse.go"))
	// The agent only answers: any later turn of it follows a blocked stop.
	m.On("explore-blocked", All(Subagent("task-search"), Not(First)), Say("the parser is in parse.go")).Times = -1
	m.On("main-ends", All(Main, returned), Say("found it"))
	// Any other turn of the main agent follows a blocked stop (a wait for
	// the agent follows the call's result).
	m.On("main-blocked", All(Main, Not(First), Not(returned), Not(After("call_explore"))), Say("found it")).Times = -1
	run := s.Run("find the parser")

	if s.CLI.WriteTools != nil {
		if tools := s.CLI.WriteTools(s.Turn("explore-stops")); len(tools) > 0 {
			s.Cannot("%s's built-in explorer is offered %s: it can write files, so it owes a scratchpad like any agent, and the CLI has no agent that only reads",
				s.CLI.Name, strings.Join(tools, ", "))
		}
	}
	if !s.Turn("explore-stops").Contains("write no scratchpad") {
		s.Errorf("the read-only agent was not told at its start that it writes no scratchpad")
	}
	if n := len(m.Answered("explore-blocked")); n > 0 {
		s.Errorf("the read-only agent, which has no tool that writes a file, was blocked %d times for a scratchpad it cannot write: %q",
			n, clip(s.Turn("explore-blocked").TailText(), 300))
	}
	if len(m.Answered("main-ends")) != 1 {
		s.Errorf("the main agent did not get the read-only agent's result")
	}
	if n := len(m.Answered("main-blocked")); n > 0 {
		s.Errorf("the main agent's stop was blocked %d times after delegating only to the read-only agent: %q",
			n, clip(s.Turn("main-blocked").TailText(), 300))
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.also("subagent-stop/read-only-agent", run)
}
