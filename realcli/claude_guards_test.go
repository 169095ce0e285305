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
