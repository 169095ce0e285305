//go:build realcli

package realcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// geminiRuleDeny: a user's PreToolUse rule for Bash denies a
// run_shell_command call; its reason is the result the model reads, and the
// command did not run.
func geminiRuleDeny(t *testing.T, s *Session) {
	s.WriteScript("rules/deny-probe.sh", ruleScript("forbidden-probe",
		`{"decision":"deny","reason":"RULE-DENY-2291: the forbidden probe may not run"}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/deny-probe.sh\n")
	s.Wire()
	m := s.Model
	m.On("probe", All(Main, First), gShell("g_probe", "echo forbidden-probe > probe.txt"))
	m.On("done", All(Main, After("g_probe")), Say("denied"))
	s.Run("run the probe")

	res, _ := s.Turn("done").ToolResult("g_probe")
	if !res.IsError || !strings.Contains(res.Text, "RULE-DENY-2291") {
		s.Errorf("the model did not get the rule's reason: %+v", res)
	}
	if _, ok := s.ReadFile("probe.txt"); ok {
		s.Errorf("the denied command ran: probe.txt exists")
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// geminiRuleRewrite: a rule rewrites the command (updated_input); the
// rewritten command is the one that runs.
func geminiRuleRewrite(t *testing.T, s *Session) {
	s.WriteScript("rules/rewrite.sh", ruleScript("original-probe",
		`{"updated_input":{"command":"echo rewritten-7710 > rewritten.txt","description":"rewritten by a rule"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/rewrite.sh\n")
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), gShell("g_rw", "echo original-probe > original.txt"))
	m.On("done", All(Main, After("g_rw")), Say("ran"))
	s.Run("run the command")

	if res, _ := s.Turn("done").ToolResult("g_rw"); res.IsError {
		s.Errorf("the rewritten call failed: %q", res.Text)
	}
	if got, ok := s.ReadFile("rewritten.txt"); !ok || got != "rewritten-7710\n" {
		s.Errorf("the rewritten command did not run: rewritten.txt is %q (exists %v)", got, ok)
	}
	if _, ok := s.ReadFile("original.txt"); ok {
		s.Errorf("the original command ran: original.txt exists")
	}
}

// geminiInject: a PostToolUse rule injects context with the strategy; the
// model reads it in its next turn, as markup, not HTML-escaped text.
func geminiInject(strategy string) func(*testing.T, *Session) {
	return func(t *testing.T, s *Session) {
		marker := "INJECT-" + strategy + "-4512: remember to update the changelog"
		s.WriteScript("rules/inject.sh", ruleScript("inject-probe",
			`{"inject":{"content":"`+marker+`","strategy":"`+strategy+`"}}`))
		s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/inject.sh\n")
		s.Wire()
		m := s.Model
		m.On("call", All(Main, First), gShell("g_inj", "echo inject-probe"))
		m.On("done", All(Main, After("g_inj")), Say("noted"))
		s.Run("run the command")

		next := s.Turn("done")
		if !strings.Contains(next.TailText(), marker) {
			s.Fatalf("the injected context did not reach the model; it got: %q", clip(next.TailText(), 600))
		}
		if strategy == "tool_result" && !strings.Contains(next.TailText(), "SYSTEM CONTEXT (not part of tool output)") {
			s.Errorf("the tool_result injection lacks its separator block: %q", clip(next.TailText(), 600))
		}
		noEscapedMarkup(s, next)
	}
}

// geminiSmartRetry: the same failing call twice in a row, then a third
// time: the retry guard denies it with its message, which the model reads.
func geminiSmartRetry(t *testing.T, s *Session) {
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: smart_retry\n"+
		"      options: {max_failures: 2}\n")
	s.Wire()
	const fails = "ls does-not-exist-3391"
	m := s.Model
	m.On("try-1", All(Main, First), gShell("g_r1", fails))
	m.On("try-2", All(Main, After("g_r1")), gShell("g_r2", fails))
	m.On("try-3", All(Main, After("g_r2")), gShell("g_r3", fails))
	m.On("done", All(Main, After("g_r3")), Say("giving up"))
	s.Run("list the missing folder")

	for _, id := range []string{"g_r1", "g_r2"} {
		if res, _ := s.Turn("done").ToolResult(id); !strings.Contains(res.Text, "No such file") {
			s.Errorf("call %s did not fail as the shell fails: %+v", id, res)
		}
	}
	res, _ := s.Turn("done").ToolResult("g_r3")
	if !res.IsError || !strings.Contains(res.Text, "STOP AND THINK") {
		s.Errorf("the third identical call was not stopped by the retry guard: %+v", res)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

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
	// A user's agent: Gemini CLI runs a project's agents (.gemini/agents)
	// only once the user has acknowledged them in its interface.
	if err := os.MkdirAll(filepath.Join(s.Home, ".gemini", "agents"), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Home, ".gemini", "agents", "scribe.md"), []byte(scribeGeminiAgent), 0o644); err != nil {
		s.t.Fatal(err)
	}
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
