//go:build realcli

package realcli

import (
	"fmt"
	"strings"
	"testing"
)

const envSecret = "API_KEY=realcli-secret-4711\n"

// claudeReadEnv: the model asks to `cat .env`; the default guards deny it,
// the deny reason is the tool result the model reads next, and nothing of
// the file reaches the model.
func claudeReadEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("cat", All(Main, First), ccBash("toolu_cat", "cat .env"))
	m.On("done", All(Main, After("toolu_cat")), Say("I may not read it."))
	run := s.Run("show me the environment file")

	next := s.Turn("done")
	res, _ := next.ToolResult("toolu_cat")
	if !res.IsError || !strings.Contains(res.Text, "protected path") || !strings.Contains(res.Text, ".env") {
		s.Errorf("the model did not get the guard's reason as the result of cat .env: %+v", res)
	}
	if next.Contains("realcli-secret") {
		s.Errorf("the secret reached the model")
	}
	if got, _ := s.ReadFile(".env"); got != envSecret {
		s.Errorf(".env changed: %q", got)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// claudeWriteEnv: a Write to .env is denied; the reason reaches the model
// and the file keeps its content.
func claudeWriteEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("write", All(Main, First), ccWrite("toolu_write", s.Path(".env"), "API_KEY=overwritten\n"))
	m.On("done", All(Main, After("toolu_write")), Say("I may not write it."))
	run := s.Run("reset the environment file")

	res, _ := s.Turn("done").ToolResult("toolu_write")
	if !res.IsError || !strings.Contains(res.Text, "protected path") {
		s.Errorf("the model did not get the guard's reason as the result of the Write: %+v", res)
	}
	if got, _ := s.ReadFile(".env"); got != envSecret {
		s.Errorf(".env changed: %q", got)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Write", "deny")
}

// claudeSilentPass: a call the default guards let through without a word
// still leaves one short line in the audit trail, for its PreToolUse and
// its PostToolUse: the call's id and input, "decision":"none", no rule
// records.
func claudeSilentPass(t *testing.T, s *Session) {
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), ccBash("toolu_quiet", "echo silent-pass-4471"))
	m.On("done", All(Main, After("toolu_quiet")), Say("ran"))
	run := s.Run("run the command")

	if res, _ := s.Turn("done").ToolResult("toolu_quiet"); res.IsError || !strings.Contains(res.Text, "silent-pass-4471") {
		s.Errorf("the command did not run: %+v", res)
	}
	for _, event := range []string{"PreToolUse", "PostToolUse"} {
		var found map[string]any
		for _, rec := range s.Audit() {
			if rec["event"] == event && rec["tool_use_id"] == "toolu_quiet" {
				found = rec
			}
		}
		switch {
		case found == nil:
			s.Errorf("no audit record of the %s of the silent pass", event)
		case found["decision"] != "none" || found["hooks"] != nil || !strings.Contains(fmt.Sprint(found["tool_input"]), "silent-pass-4471"):
			s.Errorf("the %s record of a silent pass is not the short line (decision none, the input, no rule records): %v", event, found)
		}
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// configTypo is a config with the mistakes that used to switch every guard
// off: a mistyped key, and a mistyped attempt to switch the guards off.
const configTypo = "fail_closd: true\ndefault_guard: false\n"

// claudeConfigTypo: the project's config has mistakes. The hooks set it
// aside and run the built-in defaults, so `cat .env` is still denied, and
// the user is shown the error (file:line, the key meant) in stream-json's
// informational system event, once in the session.
func claudeConfigTypo(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	s.WriteFile(".claude/massgen-hook.yaml", configTypo)
	m := s.Model
	m.On("cat", All(Main, First), ccBash("toolu_cat", "cat .env"))
	m.On("cat-again", All(Main, After("toolu_cat")), ccBash("toolu_cat2", "cat .env"))
	m.On("done", All(Main, After("toolu_cat2")), Say("I may not read it."))
	run := s.Run("show me the environment file")

	for _, id := range []string{"toolu_cat", "toolu_cat2"} {
		turn := "cat-again"
		if id == "toolu_cat2" {
			turn = "done"
		}
		if res, _ := s.Turn(turn).ToolResult(id); !res.IsError || !strings.Contains(res.Text, "protected path") {
			s.Errorf("%s: the guard did not deny cat .env with the config broken: %+v", id, res)
		}
	}
	if s.Turn("done").Contains("realcli-secret") {
		s.Errorf("the secret reached the model")
	}
	const told = `unknown key \"fail_closd\" (did you mean \"fail_closed\"?)`
	shown := 0
	for _, ev := range claudeEvents(run.Stdout) {
		// hook_response events carry a hook's raw output, shown or not.
		if ev["type"] == "system" && ev["subtype"] != "hook_response" && strings.Contains(fmt.Sprint(ev["content"]), `unknown key "fail_closd"`) {
			shown++
		}
	}
	if shown == 0 {
		s.Errorf("the config error was not shown in stream-json (no system event naming %s)", told)
	}
	s.Observe("the config warning was shown %d time(s) in the session", shown)
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}
