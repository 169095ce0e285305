//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// claudePerAgentRule: a rule for agent scribe denies a Bash call inside a
// scribe subagent and leaves the same call alone in the main thread.
func claudePerAgentRule(t *testing.T, s *Session) {
	s.WriteFile(".claude/agents/scribe.md", scribeAgent)
	s.WriteScript("rules/scribe-no-probe.sh", ruleScript("agent-rule-probe",
		`{"decision":"deny","reason":"AGENT-RULE-6620: scribes may not run the probe"}`))
	s.WriteFile(".claude/massgen-hook.yaml", "agents:\n  - id: scribe\n    hooks:\n      PreToolUse:\n"+
		"        - matcher: Bash\n          handler: ./rules/scribe-no-probe.sh\n")
	s.Wire()
	m := s.Model
	m.On("main-probe", All(Main, First), ccBash("toolu_main", "echo agent-rule-probe main"))
	m.On("delegate", All(Main, After("toolu_main")), ccAgent("toolu_agent", "scribe", "task-probe: run the probe"))
	m.On("sub-probe", All(Subagent("task-probe"), First), ccBash("toolu_sub", "echo agent-rule-probe sub"))
	m.On("sub-writes", All(Subagent("task-probe"), After("toolu_sub")),
		ccWrite("toolu_pad", s.Path(Scratchpad("scribe", s.Today())), scratchpadBody("the probe was denied")))
	m.On("sub-stops", All(Subagent("task-probe"), After("toolu_pad")), Say("done"))
	m.On("main-logs", All(Main, After("toolu_agent")), coordinatorLog(s, "toolu_log", "the scribe's probe was denied"))
	m.On("main-ends", All(Main, After("toolu_log")), Say("done"))
	s.Run("run the probe, then have the scribe run it")

	if res, _ := s.Turn("delegate").ToolResult("toolu_main"); res.IsError || !strings.Contains(res.Text, "agent-rule-probe main") {
		s.Errorf("the scribe's rule applied in the main thread: %+v", res)
	}
	if res, _ := s.Turn("sub-writes").ToolResult("toolu_sub"); !res.IsError || !strings.Contains(res.Text, "AGENT-RULE-6620") {
		s.Errorf("the scribe's rule did not deny inside the scribe subagent: %+v", res)
	}
}
