//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// scribeCopilotAgent is a Copilot CLI custom agent (.github/agents) with the
// tools the protocol needs.
const scribeCopilotAgent = `---
name: scribe
description: Writes short notes when asked to.
tools: ["bash", "view", "create", "edit"]
---
You write short notes.
`

// copilotScribe installs the scribe custom agent.
func copilotScribe(s *Session) { s.WriteFile(".github/agents/scribe.agent.md", scribeCopilotAgent) }

// copilotScribeWrites scripts a scribe subagent on task making the
// scratchpad folder (Copilot's create needs it) and writing its scratchpad,
// when w is its turn; the calls are named after id. Its last step, after
// the write, is "<id>-stops".
func copilotScribeWrites(s *Session, id, task string, w When) {
	m := s.Model
	m.On(id+"-mkdir", All(Subagent(task), w), cpBash("call_"+id+"_mkdir", "mkdir -p .claude/scratchpad/scribe"))
	m.On(id+"-writes", All(Subagent(task), After("call_"+id+"_mkdir")),
		cpCreate("call_"+id+"_pad", s.Path(Scratchpad("scribe", s.Today())), scratchpadBody("wrote a note")))
	m.On(id+"-stops", All(Subagent(task), After("call_"+id+"_pad")), Say("note written"))
}

// copilotAgentStopInSubagent: Copilot CLI fires agentStop inside a
// subagent too (with its agentId), right before its subagentStop. The
// scribe has written its scratchpad and stops while the coordinator's log
// is still missing: the scribe must not be asked for the coordinator's log
// (a log it does not own); the main agent is, when it stops.
func copilotAgentStopInSubagent(t *testing.T, s *Session) {
	copilotScribe(s)
	s.Wire()
	m := s.Model
	log := s.Path(Scratchpad("coordinator", s.Today()))
	m.On("delegate", All(Main, First), cpTask("call_agent2", "scribe", "task-two: write a note"))
	copilotScribeWrites(s, "sub", "task-two", First)
	m.On("sub-asked-for-log", All(Subagent("task-two"), Arrived("Multi-agent delegation detected")), Say("not mine to write")).Times = -1
	m.On("main-stops", All(Main, After("call_agent2")), Say("all done"))
	m.On("main-writes-log", All(Main, Arrived("Multi-agent delegation detected")),
		cpCreate("call_log", log, "delegated a note to scribe; it came back written\n"))
	m.On("main-ends", All(Main, After("call_log")), Say("logged"))
	run := s.Run("delegate a note to the scribe")

	inSub := 0
	for _, r := range copilotHookRuns(s) {
		if id, _ := r.Input["agentId"].(string); r.Type == "agentStop" && id != "" {
			inSub++
			// Copilot CLI does not act on a block here, so the hook's
			// answer is checked as well as what the subagent read.
			if r.Output["decision"] == "block" {
				s.Errorf("massgen-hook blocked the agentStop inside the scribe subagent: %v", r.Output["reason"])
			}
		}
	}
	if inSub == 0 {
		s.Errorf("Copilot CLI sent no agentStop inside the subagent: the scenario checks nothing")
	}
	if n := len(m.Answered("sub-asked-for-log")); n > 0 {
		s.Errorf("the scribe subagent was blocked %d times for the coordinator's log: %q", n,
			clip(s.Turn("sub-asked-for-log").TailText(), 300))
	}
	if len(m.Answered("main-writes-log")) != 1 {
		s.Errorf("the main agent was not asked for the coordinator's log when it stopped")
	}
	if got, ok := s.ReadFile(Scratchpad("coordinator", s.Today())); !ok || !strings.Contains(got, "delegated a note") {
		s.Errorf("the coordinator's log is not on disk (got %q)", got)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
