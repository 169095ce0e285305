//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The user's rules, on every CLI: deny, allow, rewrite, inject context,
// replace a tool's output, and the built-in retry guard.

var rulesScenarios = []Scenario{
	{Name: "rules/deny", Project: quoted, Run: ruleDeny},
	{Name: "rules/allow-says-nothing", Project: quoted, Run: ruleAllow},
	{Name: "rules/rewrite", Run: ruleRewrite},
	{Name: "rules/inject-tool_result", Run: ruleInject("tool_result")},
	{Name: "rules/inject-user_message", Project: quoted, Run: ruleInject("user_message")},
	{Name: "rules/replace-output", Run: ruleReplaceOutput},
	{Name: "rules/per-agent-in-subagent", Run: rulePerAgent},
	{Name: "smart-retry/repeated-failure", Run: smartRetry},
}

// ruleScript is a rule handler: it reads the event and, when the tool input
// holds probe, prints answer (MassGen's HookResult).
func ruleScript(probe, answer string) string {
	return "#!/bin/sh\nevent=$(cat)\ncase \"$event\" in\n*" + probe + "*) printf '%s\\n' '" + answer + "' ;;\nesac\n"
}

// bashRule is the project's config with one rule for Bash on event.
func bashRule(event, handler string) string {
	return "hooks:\n  " + event + ":\n    - matcher: Bash\n      handler: " + handler + "\n"
}

// ruleDeny: a user's PreToolUse rule denies a shell call; its reason is
// the result the model reads, and the command did not run.
func ruleDeny(t *testing.T, s *Session) {
	s.WriteScript("rules/deny-probe.sh", ruleScript("forbidden-probe",
		`{"decision":"deny","reason":"RULE-DENY-2291: the forbidden probe may not run"}`))
	s.WriteFile(".claude/massgen-hook.yaml", bashRule("PreToolUse", "./rules/deny-probe.sh"))
	s.Wire()
	m := s.Model
	m.On("probe", All(Main, First), s.CLI.Shell("call_probe", "echo forbidden-probe > probe.txt"))
	m.On("done", All(Main, After("call_probe")), Say("denied"))
	s.Run("run the probe")

	wantDenied(s, s.Turn("done"), "call_probe", "RULE-DENY-2291")
	if _, ok := s.ReadFile("probe.txt"); ok {
		s.Errorf("the denied command ran: probe.txt exists")
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// rulePerAgent: a rule the config gives agent scribe alone denies a shell
// call inside a scribe subagent and leaves the same call alone in the main
// agent.
func rulePerAgent(t *testing.T, s *Session) {
	s.CLI.Scribe(s)
	s.WriteScript("rules/scribe-no-probe.sh", ruleScript("agent-rule-probe",
		`{"decision":"deny","reason":"AGENT-RULE-6620: scribes may not run the probe"}`))
	// block_cap 1: the main agent's stop owes the coordinator's log, the
	// protocol's business, not this scenario's; one blocked stop will do.
	s.WriteFile(".claude/massgen-hook.yaml", "scratchpad:\n  block_cap: 1\n"+
		"agents:\n  - id: scribe\n    hooks:\n      PreToolUse:\n"+
		"        - matcher: Bash\n          handler: ./rules/scribe-no-probe.sh\n")
	s.Wire()
	s.prepare("rules/per-agent-in-subagent")
	m := s.Model
	call, returned := s.CLI.Delegate(s, "call_agent", "task-probe: run the probe")
	m.On("main-probe", All(Main, First), s.CLI.Shell("call_main", "echo agent-rule-probe main"))
	m.On("delegate", All(Main, After("call_main")), call)
	m.On("sub-probe", All(Subagent("task-probe"), First), s.CLI.Shell("call_sub", "echo agent-rule-probe sub"))
	s.CLI.ScribeFinishes(s, "sub", "task-probe", After("call_sub"))
	m.On("main-ends", All(Main, returned), Say("done"))
	m.On("main-blocked", All(Main, Arrived("Multi-agent delegation detected")), Say("done")).Times = -1
	run := s.Run("run the probe, then have the scribe run it")

	if res, _ := s.Turn("delegate").ToolResult("call_main"); res.IsError || s.deniedResult(res) ||
		!strings.Contains(res.Text, "agent-rule-probe main") {
		s.Errorf("the scribe's rule applied in the main agent: %q", clip(res.Text, 300))
	}
	if len(m.Answered("main-ends")) != 1 {
		s.Errorf("the main agent did not get the scribe's answer")
	}
	// Before the check of the scribe's call: a CLI that does not tell its
	// hooks whose call it is ends the scenario as n/a there.
	s.also("rules/per-agent-in-subagent", run)
	next := turnWhere(s, All(Subagent("task-probe"), After("call_sub")))
	if next == nil {
		s.Fatalf("the scribe never read the result of its probe")
	}
	wantDenied(s, next, "call_sub", "AGENT-RULE-6620")
}

// ruleAllow: a rule allows a shell call in Claude Code's own format
// (permissionDecision "allow"). Each CLI gets it in its own terms (Codex
// rejects that field, failing the hook run, so massgen-hook says nothing
// there): the call runs, and no CLI reports a hook error.
func ruleAllow(t *testing.T, s *Session) {
	s.WriteScript("rules/allow.sh", ruleScript("allowed-probe",
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ALLOW-3318"}}`))
	s.WriteFile(".claude/massgen-hook.yaml", bashRule("PreToolUse", "./rules/allow.sh"))
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), s.CLI.Shell("call_allow", "echo allowed-probe > allowed.txt"))
	m.On("done", All(Main, After("call_allow")), Say("ran"))
	run := s.Run("run the command")

	notDenied(s, s.Turn("done"), "call_allow", "the allowed call was denied")
	if got, _ := s.ReadFile("allowed.txt"); got != "allowed-probe\n" {
		s.Errorf("the allowed command did not run: allowed.txt is %q", got)
	}
	s.wantAudit("PreToolUse", "Bash", "allow")
	s.also("rules/allow-says-nothing", run)
}

// ruleRewrite: a rule rewrites the shell command (updated_input); the
// rewritten command is the one that runs. The rewrite goes to the CLI
// without a permission decision, so the CLI's own permissions judge it
// (Claude Code's --allowedTools): an ask, as headless runs refuse, would
// have stopped it.
func ruleRewrite(t *testing.T, s *Session) {
	rewritten, _ := json.Marshal(map[string]any{"updated_input": s.CLI.BashInput("echo rewritten-7710 > rewritten.txt")})
	s.WriteScript("rules/rewrite.sh", ruleScript("original-probe", string(rewritten)))
	s.WriteFile(".claude/massgen-hook.yaml", bashRule("PreToolUse", "./rules/rewrite.sh"))
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), s.CLI.Shell("call_rw", "echo original-probe > original.txt"))
	m.On("done", All(Main, After("call_rw")), Say("ran"))
	s.Run("run the command")

	res, _ := s.Turn("done").ToolResult("call_rw")
	if s.deniedResult(res) || res.IsError {
		s.Errorf("the rewritten call did not run: the model got %q", clip(res.Text, 400))
	}
	if got, ok := s.ReadFile("rewritten.txt"); !ok || got != "rewritten-7710\n" {
		s.Errorf("the rewritten command did not run: rewritten.txt is %q (exists %v); the model got %q", got, ok, clip(res.Text, 400))
	}
	if _, ok := s.ReadFile("original.txt"); ok {
		s.Errorf("the original command ran: original.txt exists")
	}
}

// ruleInject: a PostToolUse rule injects context with the strategy; the
// model reads it in its next turn beside the command's own output, as
// markup, not HTML-escaped text, and once (where the CLI shows a hook's
// context once).
func ruleInject(strategy string) func(*testing.T, *Session) {
	return func(t *testing.T, s *Session) {
		marker := "INJECT-" + strategy + "-4512: remember to update the changelog"
		s.WriteScript("rules/inject.sh", ruleScript("inject-probe",
			`{"inject":{"content":"`+marker+`","strategy":"`+strategy+`"}}`))
		s.WriteFile(".claude/massgen-hook.yaml", bashRule("PostToolUse", "./rules/inject.sh"))
		s.Wire()
		m := s.Model
		m.On("call", All(Main, First), s.CLI.Shell("call_inj", "echo inject-probe"))
		m.On("done", All(Main, After("call_inj")), Say("noted"))
		s.Run("run the command")

		next := s.Turn("done")
		if !strings.Contains(next.TailText(), marker) {
			s.Fatalf("the injected context did not reach the model; it got: %q", clip(next.TailText(), 600))
		}
		if n := next.Count(marker); n != 1 && !s.CLI.RepeatsContext {
			s.Errorf("the injection is in the model's context %d times", n)
		}
		if res, _ := next.ToolResult("call_inj"); !strings.Contains(res.Text, "inject-probe") {
			s.Errorf("the command's own output was lost beside the injection: %q", clip(res.Text, 600))
		}
		if strategy == "tool_result" && !strings.Contains(next.TailText(), "SYSTEM CONTEXT (not part of tool output)") {
			s.Errorf("the tool_result injection lacks its separator block: %q", clip(next.TailText(), 600))
		}
		noEscapedMarkup(s, next)
	}
}

// ruleReplaceOutput: a PostToolUse rule replaces a shell call's output
// (updatedToolOutput) as a string, and, where the shell's output is an
// object (Claude Code's Bash), once more as an object with stdout alone.
// Where the CLI can replace it, the model reads the replacement, never
// the original; where it cannot, the replacement reaches the model as
// context after the original, and the user is warned.
func ruleReplaceOutput(t *testing.T, s *Session) {
	s.WriteScript("rules/replace.sh", "#!/bin/sh\nevent=$(cat)\ncase \"$event\" in\n"+
		"*replace-as-string*) printf '%s\\n' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"updatedToolOutput\":\"REPLACED-STRING-9034\"}}' ;;\n"+
		"*replace-as-object*) printf '%s\\n' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"updatedToolOutput\":{\"stdout\":\"REPLACED-OBJECT-9035\"}}}' ;;\n"+
		"esac\n")
	s.WriteFile(".claude/massgen-hook.yaml", bashRule("PostToolUse", "./rules/replace.sh"))
	s.Wire()
	type replaced struct{ id, next, replaced, original string }
	calls := []replaced{{"call_str", "done", "REPLACED-STRING-9034", "ORIGINAL-OUTPUT-1147"}}
	m := s.Model
	m.On("string", All(Main, First), s.CLI.Shell("call_str", "echo replace-as-string ORIGINAL-OUTPUT-1147"))
	if s.CLI.OutputObject {
		calls[0].next = "object"
		calls = append(calls, replaced{"call_obj", "done", "REPLACED-OBJECT-9035", "ORIGINAL-OUTPUT-1148"})
		m.On("object", All(Main, After("call_str")), s.CLI.Shell("call_obj", "echo replace-as-object ORIGINAL-OUTPUT-1148"))
	}
	m.On("done", All(Main, After(calls[len(calls)-1].id)), Say("read"))
	run := s.Run("run the commands")

	for _, c := range calls {
		next := s.Turn(c.next)
		res, _ := next.ToolResult(c.id)
		switch {
		case s.CLI.ReplacesOutput:
			if !strings.Contains(res.Text, c.replaced) {
				s.Errorf("the model did not read the replacement %s as the result of %s: %+v", c.replaced, c.id, res)
			}
			// The call itself names the marker, before the tail; only
			// what came after it must not.
			if strings.Contains(next.TailText(), c.original) {
				s.Errorf("the original output of %s reached the model: %q", c.id, clip(next.TailText(), 600))
			}
		default:
			if !strings.Contains(next.TailText(), c.replaced) {
				s.Errorf("the replacement did not reach the model; it got: %q", clip(next.TailText(), 600))
			}
			if strings.Contains(res.Text, c.original) {
				s.Observe("%s ignores updatedToolOutput: the model read the original output, then the replacement as context", s.CLI.Name)
			}
			const warning = "the model also saw the original output"
			s.Observe("the warning to the user is shown by %s: %v", s.CLI.Name, strings.Contains(shownToUser(s, run), warning))
		}
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// shownToUser is what the CLI showed its user in the run: its adapter's
// reading, else all it printed.
func shownToUser(s *Session, run *Run) string {
	if s.CLI.Shown != nil {
		return s.CLI.Shown(run)
	}
	return string(run.Stdout) + string(run.Stderr)
}

// smartRetry: the same failing shell call twice in a row, then a third
// time: the retry guard denies it with its message, which the model reads.
// Where the CLI has a tool that reads files, the same for a read of a
// missing file, a failure of the tool itself (PostToolUseFailure). The
// guard learns of a failure after the call; a rule records what the CLI
// sends there, so a run where the guard cannot know is told from one where
// it got it wrong.
func smartRetry(t *testing.T, s *Session) {
	s.WriteScript("rules/record.sh", "#!/bin/sh\ncat >> \"$(dirname \"$0\")/post-tool-use.jsonl\"\necho >> \"$(dirname \"$0\")/post-tool-use.jsonl\"\n")
	s.WriteFile(".claude/massgen-hook.yaml", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: smart_retry\n"+
		"      options: {max_failures: 2}\n  PostToolUse:\n    - matcher: Bash\n      handler: ./rules/record.sh\n")
	s.Wire()
	const fails = "ls does-not-exist-3391"
	m := s.Model
	m.On("try-1", All(Main, First), s.CLI.Shell("call_r1", fails))
	m.On("try-2", All(Main, After("call_r1")), s.CLI.Shell("call_r2", fails))
	m.On("try-3", All(Main, After("call_r2")), s.CLI.Shell("call_r3", fails))
	last := "call_r3"
	if s.CLI.Read != nil {
		missing := s.Path("does-not-exist-3392.txt")
		m.On("read-1", All(Main, After("call_r3")), s.CLI.Read("call_v1", missing))
		m.On("read-2", All(Main, After("call_v1")), s.CLI.Read("call_v2", missing))
		m.On("read-3", All(Main, After("call_v2")), s.CLI.Read("call_v3", missing))
		last = "call_v3"
	}
	m.On("done", All(Main, After(last)), Say("giving up"))
	run := s.Run("list the missing folder, then read the missing file")

	done := s.Turn("done")
	for _, id := range []string{"call_r1", "call_r2"} {
		res, _ := done.ToolResult(id)
		if !strings.Contains(res.Text, "No such file") || s.CLI.ShellFailed != nil && !s.CLI.ShellFailed(res) {
			s.Errorf("call %s did not fail as the shell fails: %+v", id, res)
		}
	}
	if reason, denied := s.CLI.Denial(mustResult(done, "call_r3")); !denied || !strings.Contains(reason, "STOP AND THINK") {
		if why := noFailureSignal(s); why != "" {
			s.Cannot("%s; so the retry guard never learns the call failed, and the third identical call ran: %q", why, clip(mustResult(done, "call_r3").Text, 200))
		}
		s.Errorf("the third identical call was not stopped by the retry guard: %q", clip(mustResult(done, "call_r3").Text, 400))
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
	if s.CLI.Read != nil {
		for _, id := range []string{"call_v1", "call_v2"} {
			notDenied(s, done, id, "the read "+id+" was denied before it failed twice")
		}
		wantDenied(s, done, "call_v3", "STOP AND THINK")
		s.wantAudit("PreToolUse", "Read", "deny")
	}
	s.also("smart-retry/repeated-failure", run)
}

// mustResult is call id's result in r (empty when it has none).
func mustResult(r *Request, id string) Block {
	res, _ := r.ToolResult(id)
	return res
}

// exitStatus is how a CLI words an exit code where it gives one (Codex's
// "Process exited with code 2", apply_patch's "Exit code: 0").
var exitStatus = regexp.MustCompile(`(?i)exit(ed with)? code`)

// noFailureSignal says what the CLI's PostToolUse events for the failed
// calls lacked, as the recording rule saw them, or "" when they carried a
// failure the guard could have read.
func noFailureSignal(s *Session) string {
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
	return fmt.Sprintf("%s's PostToolUse tool_response for a shell call is only the command's output text (%q), without its exit code, and %s has no PostToolUseFailure event",
		s.CLI.Name, clip(outputs[0], 120), s.CLI.Name)
}

// prepare sets up, once the project is wired, what the CLI's own checks
// of the scenario need (a hook that records what the CLI sends).
func (s *Session) prepare(scenario string) {
	s.t.Helper()
	if setup := s.CLI.Prepare[scenario]; setup != nil {
		setup(s)
	}
}

// also runs the checks only the CLI can make on the scenario.
func (s *Session) also(scenario string, run *Run) {
	s.t.Helper()
	if check := s.CLI.Also[scenario]; check != nil {
		check(s, run)
	}
}
