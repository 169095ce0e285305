//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// codexRuleDeny: a user's PreToolUse rule denies a shell call; its reason
// is the call's output the model reads, and the command did not run.
func codexRuleDeny(t *testing.T, s *Session) {
	s.WriteScript("rules/deny-probe.sh", ruleScript("forbidden-probe",
		`{"decision":"deny","reason":"RULE-DENY-2291: the forbidden probe may not run"}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/deny-probe.sh\n")
	codexWire(s)
	m := s.Model
	m.On("probe", All(Main, First), cxShell("call_probe", "echo forbidden-probe > probe.txt"))
	m.On("done", All(Main, After("call_probe")), Say("denied"))
	codexRun(s, "run the probe")

	res, _ := s.Turn("done").ToolResult("call_probe")
	if !strings.Contains(codexDenyReason(res.Text), "RULE-DENY-2291") {
		s.Errorf("the model did not get the rule's reason: %q", res.Text)
	}
	if _, ok := s.ReadFile("probe.txt"); ok {
		s.Errorf("the denied command ran: probe.txt exists")
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// codexRuleAllow: a rule allows a shell call in Claude Code's own format
// (permissionDecision "allow"). Codex rejects that field, failing the hook
// run, so massgen-hook must say nothing: the call runs and Codex shows no
// hook error (codexRun checks it).
func codexRuleAllow(t *testing.T, s *Session) {
	s.WriteScript("rules/allow.sh", ruleScript("allowed-probe",
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ALLOW-3318"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/allow.sh\n")
	codexWire(s)
	m := s.Model
	m.On("call", All(Main, First), cxShell("call_allow", "echo allowed-probe > allowed.txt"))
	m.On("done", All(Main, After("call_allow")), Say("ran"))
	run := codexRun(s, "run the command")

	if got, _ := s.ReadFile("allowed.txt"); got != "allowed-probe\n" {
		s.Errorf("the allowed command did not run: allowed.txt is %q", got)
	}
	if !slices.Contains(codexHookRuns(run), "PreToolUse Completed") {
		s.Errorf("Codex shows no PreToolUse hook that ran and let the call through: %v", codexHookRuns(run))
	}
	s.wantAudit("PreToolUse", "Bash", "allow")
}

// codexRuleRewrite: a rule rewrites the shell command (updated_input); the
// rewritten command is the one that runs.
func codexRuleRewrite(t *testing.T, s *Session) {
	s.WriteScript("rules/rewrite.sh", ruleScript("original-probe",
		`{"updated_input":{"command":"echo rewritten-7710 > rewritten.txt"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./rules/rewrite.sh\n")
	codexWire(s)
	m := s.Model
	m.On("call", All(Main, First), cxShell("call_rw", "echo original-probe > original.txt"))
	m.On("done", All(Main, After("call_rw")), Say("ran"))
	codexRun(s, "run the command")

	res, _ := s.Turn("done").ToolResult("call_rw")
	if got, ok := s.ReadFile("rewritten.txt"); !ok || got != "rewritten-7710\n" {
		s.Errorf("the rewritten command did not run: rewritten.txt is %q (exists %v); the model got %q", got, ok, clip(res.Text, 400))
	}
	if _, ok := s.ReadFile("original.txt"); ok {
		s.Errorf("the original command ran: original.txt exists")
	}
}

// codexInject: a PostToolUse rule injects context with the strategy; the
// model reads it in its next turn, as markup, not HTML-escaped text.
func codexInject(strategy string) func(*testing.T, *Session) {
	return func(t *testing.T, s *Session) {
		marker := "INJECT-" + strategy + "-4512: remember to update the changelog"
		s.WriteScript("rules/inject.sh", ruleScript("inject-probe",
			`{"inject":{"content":"`+marker+`","strategy":"`+strategy+`"}}`))
		s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/inject.sh\n")
		codexWire(s)
		m := s.Model
		m.On("call", All(Main, First), cxShell("call_inj", "echo inject-probe"))
		m.On("done", All(Main, After("call_inj")), Say("noted"))
		codexRun(s, "run the command")

		next := s.Turn("done")
		if !strings.Contains(next.TailText(), marker) {
			s.Fatalf("the injected context did not reach the model; it got: %q", clip(next.TailText(), 600))
		}
		if strategy == "tool_result" && !strings.Contains(next.TailText(), "SYSTEM CONTEXT (not part of tool output)") {
			s.Errorf("the tool_result injection lacks its separator block: %q", clip(next.TailText(), 600))
		}
		if res, _ := next.ToolResult("call_inj"); !strings.Contains(res.Text, "inject-probe") {
			s.Errorf("the command's own output did not reach the model: %q", res.Text)
		}
		noEscapedMarkup(s, next)
	}
}

// codexReplaceOutput: a PostToolUse rule replaces the tool's output
// (updatedToolOutput). Codex cannot replace it, so the replacement reaches
// the model as context after the original, and the user is warned.
func codexReplaceOutput(t *testing.T, s *Session) {
	s.WriteScript("rules/replace.sh", ruleScript("replace-probe",
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"REPLACED-OUTPUT-9034"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/replace.sh\n")
	codexWire(s)
	m := s.Model
	m.On("call", All(Main, First), cxShell("call_rep", "echo replace-probe ORIGINAL-OUTPUT-1147"))
	m.On("done", All(Main, After("call_rep")), Say("noted"))
	run := codexRun(s, "run the command")

	next := s.Turn("done")
	if !strings.Contains(next.TailText(), "REPLACED-OUTPUT-9034") {
		s.Errorf("the replacement did not reach the model; it got: %q", clip(next.TailText(), 600))
	}
	if res, _ := next.ToolResult("call_rep"); strings.Contains(res.Text, "ORIGINAL-OUTPUT-1147") {
		s.Observe("Codex ignores updatedToolOutput: the model read the original output, then the replacement as context")
	}
	const warning = "the model also saw the original output"
	s.Observe("the warning to the user is shown by codex exec: %v",
		strings.Contains(string(run.Stdout)+string(run.Stderr), warning))
}

// codexSmartRetry: the same failing call twice in a row, then a third time:
// the retry guard denies it with its message, which the model reads. The
// guard learns of a failure from PostToolUse (Codex has no
// PostToolUseFailure); a rule records what Codex sends there, so a run
// where the guard cannot know is told from one where it got it wrong.
func codexSmartRetry(t *testing.T, s *Session) {
	s.WriteScript("rules/record.sh", "#!/bin/sh\ncat >> \"$(dirname \"$0\")/post-tool-use.jsonl\"\necho >> \"$(dirname \"$0\")/post-tool-use.jsonl\"\n")
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: smart_retry\n"+
		"      options: {max_failures: 2}\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/record.sh\n")
	codexWire(s)
	const fails = "ls does-not-exist-3391"
	m := s.Model
	m.On("try-1", All(Main, First), cxShell("call_r1", fails))
	m.On("try-2", All(Main, After("call_r1")), cxShell("call_r2", fails))
	m.On("try-3", All(Main, After("call_r2")), cxShell("call_r3", fails))
	m.On("done", All(Main, After("call_r3")), Say("giving up"))
	codexRun(s, "list the missing folder")

	for _, id := range []string{"call_r1", "call_r2"} {
		if res, _ := s.Turn("done").ToolResult(id); !strings.Contains(res.Text, "No such file") || !strings.Contains(res.Text, "exited with code 2") {
			s.Errorf("call %s did not fail as the shell fails: %q", id, res.Text)
		}
	}
	res, _ := s.Turn("done").ToolResult("call_r3")
	if strings.Contains(codexDenyReason(res.Text), "STOP AND THINK") {
		s.wantAudit("PreToolUse", "Bash", "deny")
		return
	}
	if why := codexNoFailureSignal(s); why != "" {
		s.Cannot("%s; so the retry guard never learns the call failed, and the third identical call ran: %q", why, clip(res.Text, 200))
	}
	s.Errorf("the third identical call was not stopped by the retry guard: %q", clip(res.Text, 400))
}

// exitStatus is how Codex words an exit code where it gives one (the
// model's "Process exited with code 2", apply_patch's "Exit code: 0").
var exitStatus = regexp.MustCompile(`(?i)exit(ed with)? code`)

// codexNoFailureSignal says what Codex's PostToolUse events for the failed
// calls lacked, as the recording rule saw them, or "" when they carried a
// failure the guard could have read.
func codexNoFailureSignal(s *Session) string {
	data, _ := s.ReadFile("rules/post-tool-use.jsonl")
	var outputs []string
	for _, line := range strings.Split(data, "\n") {
		var ev struct {
			ToolOutput json.RawMessage `json:"tool_output"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil || len(ev.ToolOutput) == 0 {
			continue
		}
		var text string
		if json.Unmarshal(ev.ToolOutput, &text) != nil || exitStatus.MatchString(text) {
			return "" // an object, or an exit status: a failure could be read
		}
		outputs = append(outputs, text)
	}
	if len(outputs) < 2 {
		return ""
	}
	return fmt.Sprintf("Codex's PostToolUse tool_response for a shell call is only the command's output text (%q), without its exit code, and Codex has no PostToolUseFailure event",
		clip(outputs[0], 120))
}
