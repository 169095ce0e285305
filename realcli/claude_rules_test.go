//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// ruleScript is a rule handler: it reads the event and, when the tool input
// holds probe, prints answer (MassGen's HookResult).
func ruleScript(probe, answer string) string {
	return "#!/bin/sh\nevent=$(cat)\ncase \"$event\" in\n*" + probe + "*) printf '%s\\n' '" + answer + "' ;;\nesac\n"
}

// claudeRuleDeny: a user's PreToolUse rule denies a Bash call; its reason is
// the tool result the model reads, and the command did not run.
func claudeRuleDeny(t *testing.T, s *Session) {
	s.WriteScript("rules/deny-probe.sh", ruleScript("forbidden-probe",
		`{"decision":"deny","reason":"RULE-DENY-2291: the forbidden probe may not run"}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/deny-probe.sh\n")
	s.Wire()
	m := s.Model
	m.On("probe", All(Main, First), ccBash("toolu_probe", "echo forbidden-probe > probe.txt"))
	m.On("done", All(Main, After("toolu_probe")), Say("denied"))
	s.Run("run the probe")

	res, _ := s.Turn("done").ToolResult("toolu_probe")
	if !res.IsError || !strings.Contains(res.Text, "RULE-DENY-2291") {
		s.Errorf("the model did not get the rule's reason: %+v", res)
	}
	if _, ok := s.ReadFile("probe.txt"); ok {
		s.Errorf("the denied command ran: probe.txt exists")
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// claudeRuleRewrite: a rule rewrites the Bash command (updated_input); the
// rewritten command is the one that runs. The rewrite goes to Claude Code
// without a permission decision, so --allowedTools judges it: an ask, as
// headless runs refuse, would have stopped it.
func claudeRuleRewrite(t *testing.T, s *Session) {
	s.WriteScript("rules/rewrite.sh", ruleScript("original-probe",
		`{"updated_input":{"command":"echo rewritten-7710 > rewritten.txt","description":"rewritten by a rule"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/rewrite.sh\n")
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), ccBash("toolu_rw", "echo original-probe > original.txt"))
	m.On("done", All(Main, After("toolu_rw")), Say("ran"))
	s.Run("run the command")

	res, _ := s.Turn("done").ToolResult("toolu_rw")
	if res.IsError {
		s.Errorf("the rewritten call did not run: the model got %q", res.Text)
	}
	if got, ok := s.ReadFile("rewritten.txt"); !ok || got != "rewritten-7710\n" {
		s.Errorf("the rewritten command did not run: rewritten.txt is %q (exists %v)", got, ok)
	}
	if _, ok := s.ReadFile("original.txt"); ok {
		s.Errorf("the original command ran: original.txt exists")
	}
}

// claudeInject: a PostToolUse rule injects context with the strategy; the
// model reads it in its next turn, as markup, not HTML-escaped text.
func claudeInject(strategy string) func(*testing.T, *Session) {
	return func(t *testing.T, s *Session) {
		marker := "INJECT-" + strategy + "-4512: remember to update the changelog"
		s.WriteScript("rules/inject.sh", ruleScript("inject-probe",
			`{"inject":{"content":"`+marker+`","strategy":"`+strategy+`"}}`))
		s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/inject.sh\n")
		s.Wire()
		m := s.Model
		m.On("call", All(Main, First), ccBash("toolu_inj", "echo inject-probe"))
		m.On("done", All(Main, After("toolu_inj")), Say("noted"))
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

// claudeReplaceOutput: a PostToolUse rule replaces a Bash call's output
// (updatedToolOutput), once as a string and once as an object with stdout
// alone. Claude Code keeps a replacement only in the Bash output's own
// shape, so the hook gives it that shape: the model reads the replacement,
// never the original output.
func claudeReplaceOutput(t *testing.T, s *Session) {
	s.WriteScript("rules/replace.sh", "#!/bin/sh\nevent=$(cat)\ncase \"$event\" in\n"+
		"*replace-as-string*) printf '%s\\n' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"updatedToolOutput\":\"REPLACED-STRING-9034\"}}' ;;\n"+
		"*replace-as-object*) printf '%s\\n' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"updatedToolOutput\":{\"stdout\":\"REPLACED-OBJECT-9035\"}}}' ;;\n"+
		"esac\n")
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/replace.sh\n")
	s.Wire()
	m := s.Model
	m.On("string", All(Main, First), ccBash("toolu_str", "echo replace-as-string ORIGINAL-OUTPUT-1147"))
	m.On("object", All(Main, After("toolu_str")), ccBash("toolu_obj", "echo replace-as-object ORIGINAL-OUTPUT-1148"))
	m.On("done", All(Main, After("toolu_obj")), Say("read"))
	run := s.Run("run the commands")

	for _, c := range []struct{ id, next, replaced, original string }{
		{"toolu_str", "object", "REPLACED-STRING-9034", "ORIGINAL-OUTPUT-1147"},
		{"toolu_obj", "done", "REPLACED-OBJECT-9035", "ORIGINAL-OUTPUT-1148"},
	} {
		next := s.Turn(c.next)
		res, _ := next.ToolResult(c.id)
		if !strings.Contains(res.Text, c.replaced) {
			s.Errorf("the model did not read the replacement %s as the result of %s: %+v", c.replaced, c.id, res)
		}
		if strings.Contains(next.TailText(), c.original) {
			s.Errorf("the original output of %s reached the model: %q", c.id, clip(next.TailText(), 600))
		}
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// claudeSmartRetry: the same failing call twice in a row, then a third time:
// the retry guard denies it with its message, which the model reads.
func claudeSmartRetry(t *testing.T, s *Session) {
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: smart_retry\n"+
		"      options: {max_failures: 2}\n")
	s.Wire()
	const fails = "ls does-not-exist-3391"
	m := s.Model
	m.On("try-1", All(Main, First), ccBash("toolu_r1", fails))
	m.On("try-2", All(Main, After("toolu_r1")), ccBash("toolu_r2", fails))
	m.On("try-3", All(Main, After("toolu_r2")), ccBash("toolu_r3", fails))
	m.On("done", All(Main, After("toolu_r3")), Say("giving up"))
	s.Run("list the missing folder")

	for _, id := range []string{"toolu_r1", "toolu_r2"} {
		if res, _ := s.Turn("done").ToolResult(id); !res.IsError || !strings.Contains(res.Text, "No such file") {
			s.Errorf("call %s did not fail as the shell fails: %+v", id, res)
		}
	}
	res, _ := s.Turn("done").ToolResult("toolu_r3")
	if !res.IsError || !strings.Contains(res.Text, "STOP AND THINK") {
		s.Errorf("the third identical call was not stopped by the retry guard: %+v", res)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}
