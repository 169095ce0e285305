//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// copilotRuleDeny: a user's PreToolUse rule denies a bash call; its reason
// is the tool message the model reads, and the command did not run.
func copilotRuleDeny(t *testing.T, s *Session) {
	s.WriteScript("rules/deny-probe.sh", ruleScript("forbidden-probe",
		`{"decision":"deny","reason":"RULE-DENY-2291: the forbidden probe may not run"}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/deny-probe.sh\n")
	s.Wire()
	m := s.Model
	m.On("probe", All(Main, First), cpBash("call_probe", "echo forbidden-probe > probe.txt"))
	m.On("done", All(Main, After("call_probe")), Say("denied"))
	s.Run("run the probe")

	copilotDeniedWith(s, s.Turn("done"), "call_probe", "RULE-DENY-2291")
	if _, ok := s.ReadFile("probe.txt"); ok {
		s.Errorf("the denied command ran: probe.txt exists")
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// copilotRuleRewrite: a rule rewrites the bash command (updated_input);
// the rewritten command is the one that runs.
func copilotRuleRewrite(t *testing.T, s *Session) {
	s.WriteScript("rules/rewrite.sh", ruleScript("original-probe",
		`{"updated_input":{"command":"echo rewritten-7710 > rewritten.txt","description":"rewritten by a rule"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/rewrite.sh\n")
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), cpBash("call_rw", "echo original-probe > original.txt"))
	m.On("done", All(Main, After("call_rw")), Say("ran"))
	s.Run("run the command")

	if res, _ := s.Turn("done").ToolResult("call_rw"); strings.HasPrefix(res.Text, copilotDenied) {
		s.Errorf("the rewritten call did not run: the model got %q", res.Text)
	}
	if got, ok := s.ReadFile("rewritten.txt"); !ok || got != "rewritten-7710\n" {
		s.Errorf("the rewritten command did not run: rewritten.txt is %q (exists %v)", got, ok)
	}
	if _, ok := s.ReadFile("original.txt"); ok {
		s.Errorf("the original command ran: original.txt exists")
	}
}

// copilotInject: a PostToolUse rule injects context with the strategy;
// Copilot CLI appends postToolUse additionalContext to the tool message,
// and the model reads it in its next turn, as markup, not escaped text.
func copilotInject(strategy string) func(*testing.T, *Session) {
	return func(t *testing.T, s *Session) {
		marker := "INJECT-" + strategy + "-4512: remember to update the changelog"
		s.WriteScript("rules/inject.sh", ruleScript("inject-probe",
			`{"inject":{"content":"`+marker+`","strategy":"`+strategy+`"}}`))
		s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/inject.sh\n")
		s.Wire()
		m := s.Model
		m.On("call", All(Main, First), cpBash("call_inj", "echo inject-probe"))
		m.On("done", All(Main, After("call_inj")), Say("noted"))
		s.Run("run the command")

		next := s.Turn("done")
		if !strings.Contains(next.TailText(), marker) {
			s.Fatalf("the injected context did not reach the model; it got: %q", clip(next.TailText(), 600))
		}
		if n := next.Count(marker); n != 1 {
			s.Errorf("the injection is in the model's context %d times", n)
		}
		if res, _ := next.ToolResult("call_inj"); !strings.Contains(res.Text, "inject-probe") {
			s.Errorf("the tool's own output was lost beside the injection: %q", clip(res.Text, 600))
		}
		if strategy == "tool_result" && !strings.Contains(next.TailText(), "SYSTEM CONTEXT (not part of tool output)") {
			s.Errorf("the tool_result injection lacks its separator block: %q", clip(next.TailText(), 600))
		}
		noEscapedMarkup(s, next)
	}
}

// copilotReplaceOutput: a PostToolUse rule replaces the tool's output
// (updatedToolOutput, which Copilot CLI takes as modifiedResult): the model
// reads the replacement, not what the command printed.
func copilotReplaceOutput(t *testing.T, s *Session) {
	s.WriteScript("rules/replace.sh", ruleScript("replace-probe",
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"REPLACED-OUTPUT-8123: the output was redacted"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/replace.sh\n")
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), cpBash("call_rep", "echo replace-probe original-output-6402"))
	m.On("done", All(Main, After("call_rep")), Say("noted"))
	s.Run("run the command")

	res, ok := s.Turn("done").ToolResult("call_rep")
	if !ok || !strings.Contains(res.Text, "REPLACED-OUTPUT-8123") {
		s.Errorf("the model did not read the replaced output: %q", clip(res.Text, 600))
	}
	// The command itself names the marker; only its output must not.
	if strings.Contains(res.Text, "original-output-6402") {
		s.Errorf("the original output reached the model: %q", clip(res.Text, 600))
	}
}

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
	copilotDeniedWith(s, s.Turn("sub-stops"), "call_sub", "AGENT-RULE-6620")
}

// copilotSmartRetry: the same failing call twice in a row, then a third
// time: the retry guard denies it with its message, which the model reads.
// Both ways Copilot CLI reports a failure count: a bash command that exits
// non-zero (a "success" whose text gives the exit code) and a view of a
// missing file (postToolUseFailure).
func copilotSmartRetry(t *testing.T, s *Session) {
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: smart_retry\n"+
		"      options: {max_failures: 2}\n")
	s.Wire()
	const fails = "ls does-not-exist-3391"
	missing := s.Path("does-not-exist-3392.txt")
	m := s.Model
	m.On("try-1", All(Main, First), cpBash("call_r1", fails))
	m.On("try-2", All(Main, After("call_r1")), cpBash("call_r2", fails))
	m.On("try-3", All(Main, After("call_r2")), cpBash("call_r3", fails))
	m.On("view-1", All(Main, After("call_r3")), cpView("call_v1", missing))
	m.On("view-2", All(Main, After("call_v1")), cpView("call_v2", missing))
	m.On("view-3", All(Main, After("call_v2")), cpView("call_v3", missing))
	m.On("done", All(Main, After("call_v3")), Say("giving up"))
	s.Run("list the missing folder, then read the missing file")

	done := s.Turn("done")
	for _, id := range []string{"call_r1", "call_r2"} {
		if res, _ := done.ToolResult(id); !strings.Contains(res.Text, "No such file") {
			s.Errorf("call %s did not fail as the shell fails: %+v", id, res)
		}
	}
	copilotDeniedWith(s, done, "call_r3", "STOP AND THINK", "Exit code 2")
	for _, id := range []string{"call_v1", "call_v2"} {
		if res, _ := done.ToolResult(id); strings.HasPrefix(res.Text, copilotDenied) {
			s.Errorf("call %s was denied before it failed twice: %q", id, res.Text)
		}
	}
	copilotDeniedWith(s, done, "call_v3", "STOP AND THINK")
	// A failed view reaches the hooks only as postToolUseFailure, which
	// init wires: without it the third view would not have been denied.
	failures := 0
	for _, r := range copilotHookRuns(s) {
		if r.Type == "postToolUseFailure" {
			failures++
		}
	}
	if failures != 2 {
		s.Errorf("Copilot CLI ran postToolUseFailure %d times, want 2 (the two failed views)", failures)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
	s.wantAudit("PreToolUse", "Read", "deny")
}
