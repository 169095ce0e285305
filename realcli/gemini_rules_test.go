//go:build realcli

package realcli

import (
	"fmt"
	"strings"
	"testing"
)

// scribeGeminiAgent is a custom Gemini CLI subagent that may run commands.
const scribeGeminiAgent = `---
name: scribe
description: Writes short notes when asked to.
tools:
  - run_shell_command
max_turns: 5
---
You write short notes.
`

// geminiPerAgentRule: a rule for agent scribe denies a run_shell_command
// call inside the scribe subagent (invoke_agent) and leaves the same call
// alone in the main agent. Gemini CLI must run hooks for a subagent's calls
// (the audit trail has one) and say whose call it is.
func geminiPerAgentRule(t *testing.T, s *Session) {
	geminiScribe(s)
	s.WriteScript("rules/scribe-no-probe.sh", ruleScript("agent-rule-probe",
		`{"decision":"deny","reason":"AGENT-RULE-6620: scribes may not run the probe"}`))
	s.WriteFile(".claude/massgen-hook.yaml", "agents:\n  - id: scribe\n    hooks:\n      PreToolUse:\n"+
		"        - matcher: Bash\n          handler: ./rules/scribe-no-probe.sh\n")
	s.Wire()
	geminiCapture(s, "BeforeTool")
	geminiCapture(s, "AfterAgent")
	m := s.Model
	m.On("main-probe", All(Main, First), gShell("g_main", "echo agent-rule-probe main"))
	m.On("delegate", All(Main, After("g_main")), Use("g_agent", "invoke_agent",
		map[string]any{"agent_name": "scribe", "prompt": "task-probe: run the probe"}))
	m.On("sub-probe", All(Subagent("task-probe"), First), gShell("g_sub", "echo agent-rule-probe sub"))
	m.On("sub-done", All(Subagent("task-probe"), After("g_sub")), Use("g_complete", geminiCompleteTask,
		map[string]any{"result": "ran the probe"}))
	m.On("main-ends", All(Main, After("g_agent")), Say("done"))
	// The delegation asks for the coordinator's log at the stop; not what
	// this scenario is about.
	m.On("main-blocked", All(Main, Arrived("Multi-agent delegation detected")), Say("done")).Times = -1
	s.Run("run the probe, then have the scribe run it")

	if res, _ := s.Turn("delegate").ToolResult("g_main"); res.IsError || !strings.Contains(res.Text, "agent-rule-probe main") {
		s.Errorf("the scribe's rule applied in the main agent: %+v", res)
	}
	var subCall map[string]any
	for _, ev := range geminiCaptured(s, "BeforeTool") {
		if strings.Contains(fmt.Sprint(ev["tool_input"]), "agent-rule-probe sub") {
			subCall = ev
		}
	}
	if subCall == nil {
		s.Fatalf("Gemini CLI ran no BeforeTool hook for the subagent's run_shell_command")
	}
	if n := len(geminiCaptured(s, "AfterAgent")); n != 1 {
		s.Observe("AfterAgent ran %d times for a main agent and one subagent", n)
	}
	res, _ := s.Turn("sub-done").ToolResult("g_sub")
	if res.IsError && strings.Contains(res.Text, "AGENT-RULE-6620") {
		return
	}
	if _, ok := subCall["agent_id"]; !ok {
		if _, ok := subCall["agent_type"]; !ok {
			keys := make([]string, 0, len(subCall))
			for k := range subCall {
				keys = append(keys, k)
			}
			s.Cannot("Gemini CLI runs hooks for a subagent's calls but does not say whose call it is "+
				"(the subagent's BeforeTool has only %s), so no rule can be the scribe's alone", strings.Join(keys, ", "))
		}
	}
	s.Errorf("the scribe's rule did not deny inside the scribe subagent, which Gemini CLI named: %+v", res)
}
