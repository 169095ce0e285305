//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// copilotPerAgentRule: a rule for agent scribe denies a bash call inside a
// scribe subagent (task tool) and leaves the same call alone in the main
// thread.
func copilotPerAgentRule(t *testing.T, s *Session) {
	copilotScribe(s)
	s.WriteScript("rules/scribe-no-probe.sh", ruleScript("agent-rule-probe",
		`{"decision":"deny","reason":"AGENT-RULE-6620: scribes may not run the probe"}`))
	// block_cap 1: the scribe writes no scratchpad here.
	s.WriteFile(".claude/massgen-hook.yaml", "scratchpad:\n  block_cap: 1\n"+
		"agents:\n  - id: scribe\n    hooks:\n      PreToolUse:\n"+
		"        - matcher: Bash\n          handler: ./rules/scribe-no-probe.sh\n")
	s.Wire()
	m := s.Model
	m.On("main-probe", All(Main, First), cpBash("call_main", "echo agent-rule-probe main"))
	m.On("delegate", All(Main, After("call_main")), cpTask("call_agent", "scribe", "task-probe: run the probe"))
	m.On("sub-probe", All(Subagent("task-probe"), First), cpBash("call_sub", "echo agent-rule-probe sub"))
	m.On("sub-stops", All(Subagent("task-probe"), After("call_sub")), Say("done"))
	// The subagent wrote no scratchpad: its stop is blocked until the cap
	// lets it go. That is the protocol's business, not this scenario's.
	m.On("sub-blocked", All(Subagent("task-probe"), Arrived("Scratchpad missing")), Say("done")).Times = -1
	m.On("main-ends", All(Main, After("call_agent")), Say("done"))
	// Nor is whether the main agent's stop is then blocked (the
	// coordinator's log, the subagent's release).
	m.On("main-blocked", All(Main, Not(First), Not(After("call_main")), Not(After("call_agent"))), Say("done")).Times = -1
	s.Run("run the probe, then have the scribe run it")

	if res, _ := s.Turn("delegate").ToolResult("call_main"); strings.HasPrefix(res.Text, copilotDenied) || !strings.Contains(res.Text, "agent-rule-probe main") {
		s.Errorf("the scribe's rule applied in the main thread: %+v", res)
	}
	wantDenied(s, s.Turn("sub-stops"), "call_sub", "AGENT-RULE-6620")
}
