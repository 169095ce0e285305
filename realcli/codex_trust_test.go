//go:build realcli

package realcli

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Codex runs a project's hooks only when the user trusted their exact
// definition; otherwise it skips them.

// codexUntrusted: the hooks as `massgen-hook init --agent codex` leaves
// them. doctor says Codex will skip them, and Codex does: `cat .env` runs
// unguarded and no hook leaves a trace.
func codexUntrusted(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Init()
	doctor := codexDoctor(s, 1)
	if !strings.Contains(doctor, "Codex skips massgen-hook's") || !strings.Contains(doctor, "PreToolUse (not trusted)") {
		s.Errorf("doctor does not say Codex skips the untrusted hooks:\n%s", doctor)
	}
	m := s.Model
	m.On("cat", All(Main, First), cxShell("call_cat", "cat .env"))
	m.On("done", All(Main, After("call_cat")), Say("read it"))
	run := s.Run("show me the environment file")

	if res, _ := s.Turn("done").ToolResult("call_cat"); !strings.Contains(res.Text, "realcli-secret-4711") {
		s.Errorf("cat .env did not run as an unguarded call would: the model got %q", clip(res.Text, 400))
	}
	if recs := s.Audit(); len(recs) > 0 {
		s.Errorf("an untrusted hook ran: the audit trail has %d records (first %v)", len(recs), recs[0])
	}
	if runs := codexHookRuns(run); len(runs) > 0 {
		s.Errorf("Codex ran untrusted hooks: %v", runs)
	}
	if strings.Contains(strings.ToLower(string(run.Stderr)), "hook") {
		s.Observe("Codex said about the untrusted hooks: %s", clip(string(run.Stderr), 300))
	} else {
		s.Observe("Codex skipped the untrusted hooks without a word")
	}
}

// codexTrusted: the user trusts the hooks with the config.toml lines init
// printed; doctor then finds nothing to report, and Codex runs them.
func codexTrusted(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	if doctor := codexDoctor(s, 0); !strings.Contains(doctor, "codex project: .codex/hooks.json: 6 handlers, ok") {
		s.Errorf("doctor is not satisfied with the hooks trusted as init said:\n%s", doctor)
	}
	m := s.Model
	m.On("cat", All(Main, First), cxShell("call_cat", "cat .env"))
	m.On("done", All(Main, After("call_cat")), Say("I may not read it."))
	run := s.Run("show me the environment file")

	if res, _ := s.Turn("done").ToolResult("call_cat"); !strings.Contains(codexDenyReason(res.Text), "protected path") {
		s.Errorf("the trusted PreToolUse hook did not deny cat .env: the model got %q", clip(res.Text, 400))
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
	for _, want := range []string{"SessionStart Completed", "PreToolUse Blocked", "Stop Completed"} {
		if !slices.Contains(codexHookRuns(run), want) {
			s.Errorf("Codex shows no %q run of the trusted hooks: %v", want, codexHookRuns(run))
		}
	}
}

// codexDoctor runs `massgen-hook doctor` and wants exit code want.
func codexDoctor(s *Session, want int) string {
	s.t.Helper()
	out, err := s.Hook("doctor", "--no-timing")
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		s.Fatalf("doctor: %v", err)
	}
	if code != want {
		s.Errorf("doctor exited %d, want %d:\n%s", code, want, out)
	}
	return out
}
