//go:build realcli

package realcli

import (
	"fmt"
	"strings"
	"testing"
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

// coordinatorLog is the main thread writing today's coordinator scratchpad
// with the Write tool, as the stop hook asks once work was delegated.
func coordinatorLog(s *Session, id, what string) Reply {
	return ccWrite(id, s.Path(Scratchpad("coordinator", s.Today())), "## Delegated\n"+what+"\n")
}

// wantGrant fails unless permission-request granted agent the Write of
// its own scratchpad for today, in the audit trail.
func wantGrant(s *Session, agent string) {
	s.t.Helper()
	file := Scratchpad(agent, s.Today())
	for _, rec := range s.Audit() {
		if rec["event"] == "PermissionRequest" && rec["agent"] == agent && rec["file"] == file &&
			rec["decision"] == "allow" && rec["rule"] == "scratchpad.own_file" {
			return
		}
	}
	s.Errorf("no audit record of permission-request granting %s its scratchpad %s", agent, file)
}

// claudeScratchpadGranted: Claude Code asks before a write under .claude/,
// which nobody answers headless; so the scribe is told at its start to
// write its scratchpad with Write or Edit, and permission-request grants
// that write, and the main thread's of the coordinator log.
func claudeScratchpadGranted(s *Session, run *Run) {
	if !s.Turn("sub-stops-early").Contains("Write it with the Write or Edit tool") {
		s.Errorf("the subagent was not told at its start to write its scratchpad with Write or Edit")
	}
	wantGrant(s, "scribe")
	wantGrant(s, "coordinator")
}

// claudeReleaseNotice: a subagent that never writes its scratchpad is let
// go by the stop cap (block_cap 1). Its own warning is shown nowhere
// headless, so the main thread reads a notice on the Agent tool's
// PostToolUse, right with the subagent's result, naming the subagent and
// its agent_id; the audit trail has the release.
func claudeReleaseNotice(t *testing.T, s *Session) {
	s.WriteFile(".claude/agents/scribe.md", scribeAgent)
	s.WriteFile(".claude/massgen-hook.yaml", "scratchpad:\n  block_cap: 1\n")
	s.Wire()
	m := s.Model
	m.On("delegate", All(Main, First), ccAgent("toolu_agent", "scribe", "task-skip: write nothing"))
	m.On("sub-stops", All(Subagent("task-skip"), First), Say("done"))
	m.On("sub-blocked", All(Subagent("task-skip"), Arrived("Stop hook feedback")), Say("done")).Times = -1
	m.On("main-logs", All(Main, After("toolu_agent")), coordinatorLog(s, "toolu_log", "scribe was let go without its scratchpad"))
	m.On("main-ends", All(Main, After("toolu_log")), Say("done"))
	run := s.Run("delegate to the scribe")

	if n := len(m.Answered("sub-blocked")); n != 1 {
		s.Errorf("the subagent was blocked %d times, want 1 (block_cap)", n)
	}
	var released map[string]any
	for _, rec := range s.Audit() {
		if rec["rule"] == "scratchpad.block_cap" && rec["outcome"] == "released" && rec["who"] == "subagent scribe" {
			released = rec
		}
	}
	// The record's agent is the count's key: the subagent's agent_id.
	if id, _ := released["agent"].(string); id == "" || id == "main" {
		s.Fatalf("no audit record of the subagent's release with its agent_id: %v", released)
	}
	notice := fmt.Sprintf("subagent scribe (agent_id %s) was let go after 1 blocked stops", released["agent"])
	tail := s.Turn("main-logs").TailText()
	if !strings.Contains(tail, "PostToolUse:Agent hook additional context") || !strings.Contains(tail, notice) {
		s.Errorf("the main thread did not read the release notice with the Agent tool's result; it got: %q", clip(tail, 800))
	}
	if n := s.Turn("main-ends").Count(notice); n != 1 {
		s.Errorf("the release notice reached the main thread %d times, want once", n)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
