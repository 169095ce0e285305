//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// Codex's subagents (features.multi_agent_v2): the model calls
// collaboration.spawn_agent with an agent_type, one of the roles the
// config declares; the subagent's hooks carry agent_id and that
// agent_type; its final answer reaches the main agent as an agent_message
// ("Message Type: FINAL_ANSWER").

// codexScribeProject turns Codex's subagents on in the project's own
// config and declares the scribe role.
func codexScribeProject(s *Session) {
	s.WriteFile(".codex/config.toml", "[features]\nmulti_agent_v2 = true\n\n"+
		"[agents.scribe]\ndescription = \"Writes short notes when asked to.\"\n")
}

// cxSpawn starts a scribe subagent on task, with none of the main agent's
// history.
func cxSpawn(id, task string) Reply { return cxSpawnNamed(id, "scribe", task) }

// cxSpawnNamed is cxSpawn naming the subagent (its path is /root/<name>):
// two subagents of one session need names of their own.
func cxSpawnNamed(id, name, task string) Reply {
	return Use(id, "collaboration.spawn_agent", map[string]any{
		"task_name": name, "agent_type": "scribe", "message": task, "fork_turns": "none"})
}

// finalAnswer is how a subagent's result reaches the main agent.
const finalAnswer = "Message Type: FINAL_ANSWER"

// codexAwait scripts the main agent after the spawn call spawnID: it
// waits for the subagent unless the answer is already there, then writes
// today's coordinator log, as the protocol asks of a delegating agent, and
// ends with text. The answer may arrive with the spawn's result or after
// the wait, so the steps go by whether it arrived, not by order.
func codexAwait(s *Session, spawnID, text string) {
	m := s.Model
	codexWait(m, spawnID)
	m.On("main-logs", All(Main, Arrived(finalAnswer)), cxPatch("call_log",
		cxAddFile(Scratchpad("coordinator", s.Today()), "## Delegated\nscribe: a note, done\n")))
	m.On("main-ends", All(Main, After("call_log")), Say(text))
}

// codexWait: after the spawn call spawnID, the main agent waits for the
// subagent unless its answer is already there.
func codexWait(m *Model, spawnID string) {
	m.On("main-waits", All(Main, After(spawnID), Not(Arrived(finalAnswer))),
		Use("call_wait", "collaboration.wait_agent", map[string]any{"timeout_ms": 60000}))
}

// codexSubagentProtocol: a scribe that tries to stop without its
// scratchpad is blocked with a reason the model reads; once it has written
// .claude/scratchpad/scribe/<today>.md with apply_patch, it may stop, and
// the main agent gets its answer.
func codexSubagentProtocol(t *testing.T, s *Session) {
	codexScribeProject(s)
	s.Wire()
	m := s.Model
	pad := Scratchpad("scribe", s.Today())
	m.On("delegate", All(Main, First), cxSpawn("call_spawn1", "task-one: write a note"))
	codexAwait(s, "call_spawn1", "all done")
	m.On("sub-stops-early", All(Subagent("task-one"), First), Say("note written"))
	m.On("sub-writes", All(Subagent("task-one"), Arrived("Scratchpad missing")),
		cxPatch("call_pad1", cxAddFile(pad, scratchpadBody("wrote the first note"))))
	m.On("sub-stops", All(Subagent("task-one"), After("call_pad1")), Say("scratchpad written"))
	run := s.Run("delegate a note to the scribe")

	if len(m.Answered("sub-writes")) == 0 {
		s.Fatalf("the subagent's early stop was not blocked with the scratchpad reason")
	}
	if blocked := s.Turn("sub-writes"); !strings.Contains(blocked.TailText(), pad) {
		s.Errorf("the block reason does not name the scratchpad path %s: %q", pad, blocked.TailText())
	}
	if res, _ := s.Turn("sub-stops").ToolResult("call_pad1"); !strings.Contains(res.Text, "Success") {
		s.Fatalf("writing the scratchpad was refused: %q", res.Text)
	}
	if got, ok := s.ReadFile(pad); !ok || !strings.Contains(got, "wrote the first note") {
		s.Errorf("the scratchpad is not on disk (got %q)", got)
	}
	if len(m.Answered("main-ends")) != 1 || !s.Turn("main-ends").Contains("scratchpad written") {
		s.Errorf("the main agent did not get the subagent's answer")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// cxAddFile is a patch adding the file path with content.
func cxAddFile(path, content string) string {
	return "*** Begin Patch\n*** Add File: " + path + "\n+" +
		strings.ReplaceAll(strings.TrimSuffix(content, "\n"), "\n", "\n+") + "\n*** End Patch\n"
}

// cxAddLines is a patch adding lines at the end of path, after its last
// line last.
func cxAddLines(path, last, lines string) string {
	return "*** Begin Patch\n*** Update File: " + path + "\n@@\n " + last + "\n+" +
		strings.ReplaceAll(strings.TrimSuffix(lines, "\n"), "\n", "\n+") + "\n*** End Patch\n"
}

// codexPerAgentRule: a rule for agent scribe denies a shell call inside a
// scribe subagent and leaves the same call alone in the main agent.
func codexPerAgentRule(t *testing.T, s *Session) {
	codexScribeProject(s)
	s.WriteScript("rules/scribe-no-probe.sh", ruleScript("agent-rule-probe",
		`{"decision":"deny","reason":"AGENT-RULE-6620: scribes may not run the probe"}`))
	// block_cap 1: the scribe writes no scratchpad here; one blocked stop
	// is enough to see where the release is shown.
	s.WriteFile(".claude/massgen-hook.yaml", "scratchpad:\n  block_cap: 1\n"+
		"agents:\n  - id: scribe\n    hooks:\n      PreToolUse:\n"+
		"        - matcher: Bash\n          handler: ./rules/scribe-no-probe.sh\n")
	s.Wire()
	m := s.Model
	m.On("main-probe", All(Main, First), cxShell("call_main", "echo agent-rule-probe main"))
	m.On("delegate", All(Main, After("call_main")), cxSpawn("call_spawn", "task-probe: run the probe"))
	codexAwait(s, "call_spawn", "done")
	m.On("sub-probe", All(Subagent("task-probe"), First), cxShell("call_sub", "echo agent-rule-probe sub"))
	m.On("sub-stops", All(Subagent("task-probe"), After("call_sub")), Say("probe refused"))
	// The subagent wrote no scratchpad: its stop is blocked until the cap
	// lets it go. That is the protocol's business, not this scenario's.
	m.On("sub-blocked", All(Subagent("task-probe"), Arrived("Scratchpad missing")), Say("probe refused")).Times = -1
	run := s.Run("run the probe, then have the scribe run it")

	if res, _ := s.Turn("delegate").ToolResult("call_main"); !strings.Contains(res.Text, "agent-rule-probe main") ||
		strings.Contains(res.Text, "AGENT-RULE-6620") {
		s.Errorf("the scribe's rule applied in the main agent: %q", res.Text)
	}
	if res, _ := s.Turn("sub-stops").ToolResult("call_sub"); !strings.Contains(codexDenyReason(res.Text), "AGENT-RULE-6620") {
		s.Errorf("the scribe's rule did not deny inside the scribe subagent: %q", res.Text)
	}
	if len(m.Answered("main-ends")) != 1 {
		s.Errorf("the main agent did not get the scribe's answer")
	}
	// Where the cap's release of a subagent is shown: its systemMessage.
	if len(m.Answered("sub-blocked")) == 1 {
		s.Observe("a subagent's release by the stop cap is shown by codex exec: %v",
			strings.Contains(string(run.Stdout)+string(run.Stderr), "let subagent scribe stop"))
	}
}
