//go:build realcli

package realcli

import (
	"slices"
	"strings"
	"testing"
)

// Codex's default guards, through its own tools: the shell (exec_command,
// which hooks see as Bash) and apply_patch (a patch naming its files).

// codexReadEnv: the model asks the shell to `cat .env`; the default guards
// deny it, the reason is the call's output the model reads next, and
// nothing of the file reaches the model.
func codexReadEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	codexWire(s)
	m := s.Model
	m.On("cat", All(Main, First), cxShell("call_cat", "cat .env"))
	m.On("done", All(Main, After("call_cat")), Say("I may not read it."))
	run := codexRun(s, "show me the environment file")

	next := s.Turn("done")
	res, _ := next.ToolResult("call_cat")
	if why := codexDenyReason(res.Text); !strings.Contains(why, "protected path") || !strings.Contains(why, ".env") {
		s.Errorf("the model did not get the guard's reason as the result of cat .env: %q", res.Text)
	}
	if next.Contains("realcli-secret") {
		s.Errorf("the secret reached the model")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// codexPatchDenied: an apply_patch that changes a protected file is denied
// as a whole; the reason is the call's output and the file is untouched.
func codexPatchDenied(file, before, patch string) func(*testing.T, *Session) {
	return func(t *testing.T, s *Session) {
		s.WriteFile(file, before)
		codexWire(s)
		before, _ = s.ReadFile(file) // as init left it
		m := s.Model
		m.On("patch", All(Main, First), cxPatch("call_patch", patch))
		m.On("done", All(Main, After("call_patch")), Say("I may not change it."))
		run := codexRun(s, "change "+file)

		res, _ := s.Turn("done").ToolResult("call_patch")
		if why := codexDenyReason(res.Text); !strings.Contains(why, "protected path") || !strings.Contains(why, file) {
			s.Errorf("the model did not get the guard's reason as the result of the patch: %q", res.Text)
		}
		if got, _ := s.ReadFile(file); got != before {
			s.Errorf("%s changed: %q", file, got)
		}
		if !run.Final.OK {
			s.Errorf("the run did not end as a success: %s", run.Final.Raw)
		}
		s.wantAudit("PreToolUse", "apply_patch", "deny")
	}
}

var codexPatchEnv = codexPatchDenied(".env", envSecret,
	"*** Begin Patch\n*** Update File: .env\n@@\n-API_KEY=realcli-secret-4711\n+API_KEY=overwritten\n*** End Patch\n")

// codexPatchGuardConfig: a patch turning the default guards off in
// massgen-hook's own config is denied.
var codexPatchGuardConfig = codexPatchDenied(".claude/massgen-hook.yaml", "scratchpad:\n  block_cap: 3\n",
	"*** Begin Patch\n*** Update File: .claude/massgen-hook.yaml\n@@\n scratchpad:\n   block_cap: 3\n+default_guards: false\n*** End Patch\n")

// codexPatchAllowed: a patch adding an ordinary file passes: the hook says
// nothing (Codex rejects an explicit allow), Codex shows no hook error, and
// the file is written.
func codexPatchAllowed(t *testing.T, s *Session) {
	codexWire(s)
	m := s.Model
	m.On("patch", All(Main, First), cxPatch("call_notes",
		"*** Begin Patch\n*** Add File: docs/notes.md\n+NOTES-5120\n*** End Patch\n"))
	m.On("done", All(Main, After("call_notes")), Say("notes written"))
	run := codexRun(s, "write the notes")

	res, _ := s.Turn("done").ToolResult("call_notes")
	if !strings.Contains(res.Text, "Success") || strings.Contains(strings.ToLower(res.Text), "hook") {
		s.Errorf("the patch did not pass cleanly: the model got %q", res.Text)
	}
	if got, ok := s.ReadFile("docs/notes.md"); !ok || got != "NOTES-5120\n" {
		s.Errorf("docs/notes.md is %q (exists %v)", got, ok)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	if !slices.Contains(codexHookRuns(run), "PreToolUse Completed") {
		s.Errorf("Codex shows no PreToolUse hook that ran and let the patch through: %v", codexHookRuns(run))
	}
	for _, rec := range s.Audit() {
		if rec["decision"] == "deny" {
			s.Errorf("the audit trail has a deny: %v", rec)
		}
	}
}
