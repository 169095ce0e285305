//go:build realcli

package realcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copilotDeniedWith fails unless the model read the call's result as
// Copilot's denial carrying each of want.
func copilotDeniedWith(s *Session, next *Request, id string, want ...string) {
	s.t.Helper()
	res, ok := next.ToolResult(id)
	if !ok {
		s.Errorf("the model got no result for %s", id)
		return
	}
	if !strings.HasPrefix(res.Text, copilotDenied) {
		s.Errorf("the call %s was not denied by the hook: the model got %q", id, clip(res.Text, 300))
		return
	}
	for _, w := range want {
		if !strings.Contains(res.Text, w) {
			s.Errorf("the denial of %s does not say %q: %q", id, w, clip(res.Text, 300))
		}
	}
}

// noSecret fails when the .env secret reached the model in any request.
func noSecret(s *Session) {
	s.t.Helper()
	for _, r := range s.Model.Requests() {
		if r.Contains("realcli-secret") {
			s.Errorf("the secret reached the model (request %d, step %q)", r.N, r.Step)
			return
		}
	}
}

// copilotReadEnv: `cat .env` through bash is denied, the reason is the
// tool message the model reads next, and nothing of the file reaches it.
func copilotReadEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("cat", All(Main, First), cpBash("call_cat", "cat .env"))
	m.On("done", All(Main, After("call_cat")), Say("I may not read it."))
	run := s.Run("show me the environment file")

	copilotDeniedWith(s, s.Turn("done"), "call_cat", "protected path", ".env")
	noSecret(s)
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// copilotViewEnv: view of .env is denied the same way.
func copilotViewEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("view", All(Main, First), cpView("call_view", s.Path(".env")))
	m.On("done", All(Main, After("call_view")), Say("I may not read it."))
	s.Run("show me the environment file")

	copilotDeniedWith(s, s.Turn("done"), "call_view", "protected path", ".env")
	noSecret(s)
	s.wantAudit("PreToolUse", "Read", "deny")
}

// copilotGrepEnv: grep whose paths name the project's .env is a read of
// it: denied, and no line of it reaches the model.
func copilotGrepEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile("src/app.txt", "no secret here\n")
	s.Wire()
	m := s.Model
	m.On("grep", All(Main, First), cpGrep("call_grep", "API_KEY", s.Path("src"), s.Path(".env")))
	m.On("done", All(Main, After("call_grep")), Say("I may not search it."))
	s.Run("find the API key")

	copilotDeniedWith(s, s.Turn("done"), "call_grep", "protected path", ".env")
	noSecret(s)
	s.wantAudit("PreToolUse", "Grep", "deny")
}

// copilotWriteEnv: an edit of .env is denied; the reason reaches the model
// and the file keeps its content.
func copilotWriteEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("edit", All(Main, First), cpEdit("call_edit", s.Path(".env"), strings.TrimSpace(envSecret), "API_KEY=overwritten"))
	m.On("done", All(Main, After("call_edit")), Say("I may not write it."))
	s.Run("reset the environment file")

	copilotDeniedWith(s, s.Turn("done"), "call_edit", "protected path")
	if got, _ := s.ReadFile(".env"); got != envSecret {
		s.Errorf(".env changed: %q", got)
	}
	s.wantAudit("PreToolUse", "Edit", "deny")
}

// copilotPatchAdd: under a GPT model, an apply_patch (raw patch text)
// adding docs/notes.md is let through and the file is written.
func copilotPatchAdd(t *testing.T, s *Session) {
	copilotUseGPT(s)
	s.Wire()
	m := s.Model
	m.On("patch", All(Main, First), cpPatch("call_add",
		"*** Begin Patch\n*** Add File: docs/notes.md\n+NOTES-5150: first note\n*** End Patch\n"))
	m.On("done", All(Main, After("call_add")), Say("added"))
	run := s.Run("add a notes file")

	if res, _ := s.Turn("done").ToolResult("call_add"); strings.HasPrefix(res.Text, copilotDenied) {
		s.Errorf("the patch adding docs/notes.md was denied: %q", clip(res.Text, 300))
	}
	if got, ok := s.ReadFile("docs/notes.md"); !ok || got != "NOTES-5150: first note\n" {
		s.Errorf("docs/notes.md is %q (exists %v), want the patch's line", got, ok)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// copilotPatchProtected: under a GPT model, apply_patch updating .env, or
// massgen-hook's own config, or adding a file beside an update of .env, is
// denied whole; no file changes.
func copilotPatchProtected(t *testing.T, s *Session) {
	copilotUseGPT(s)
	s.WriteFile(".env", envSecret)
	s.Wire()
	config, _ := s.ReadFile(".claude/massgen-hook.yaml")
	// The line as init wrote it, so the patch would apply if let through.
	guardsLine := ""
	for _, l := range strings.Split(config, "\n") {
		if strings.HasPrefix(l, "default_guards: true") {
			guardsLine = l
		}
	}
	if guardsLine == "" {
		s.Fatalf("the starter config has no default_guards line:\n%s", config)
	}
	m := s.Model
	m.On("env", All(Main, First), cpPatch("call_env",
		"*** Begin Patch\n*** Update File: .env\n@@\n-API_KEY=realcli-secret-4711\n+API_KEY=overwritten\n*** End Patch\n"))
	m.On("config", All(Main, After("call_env")), cpPatch("call_config",
		"*** Begin Patch\n*** Update File: "+s.Path(".claude/massgen-hook.yaml")+"\n@@\n-"+guardsLine+"\n+default_guards: false\n*** End Patch\n"))
	m.On("mixed", All(Main, After("call_config")), cpPatch("call_mixed",
		"*** Begin Patch\n*** Add File: docs/ok.md\n+fine\n*** Update File: .env\n@@\n-API_KEY=realcli-secret-4711\n+API_KEY=mixed\n*** End Patch\n"))
	m.On("done", All(Main, After("call_mixed")), Say("I may not change them."))
	s.Run("turn the guards off and reset the key")

	next := s.Turn("done")
	copilotDeniedWith(s, next, "call_env", "protected path", ".env")
	copilotDeniedWith(s, next, "call_config", "massgen-hook.yaml")
	copilotDeniedWith(s, next, "call_mixed", ".env")
	if got, _ := s.ReadFile(".env"); got != envSecret {
		s.Errorf(".env changed: %q", got)
	}
	if got, _ := s.ReadFile(".claude/massgen-hook.yaml"); got != config {
		s.Errorf("massgen-hook's config changed:\n%s", got)
	}
	if _, ok := s.ReadFile("docs/ok.md"); ok {
		s.Errorf("the denied patch's other file, docs/ok.md, was written")
	}
	s.wantAudit("PreToolUse", "apply_patch", "deny")
}

// copilotDangerousBash: `rm -rf ../outside`, a folder beside the project,
// is denied as a recursive delete, the reason is the tool message the model
// reads next, and the folder is still there: the command never ran.
func copilotDangerousBash(t *testing.T, s *Session) {
	outside := filepath.Join(s.Root, "outside")
	canary := filepath.Join(outside, "keep.txt")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		s.Fatalf("%v", err)
	}
	if err := os.WriteFile(canary, []byte("still here\n"), 0o644); err != nil {
		s.Fatalf("%v", err)
	}
	s.Wire()
	m := s.Model
	m.On("rm", All(Main, First), cpBash("call_rm", "rm -rf ../outside"))
	m.On("done", All(Main, After("call_rm")), Say("I may not delete it."))
	run := s.Run("clean up the folder next to the project")

	copilotDeniedWith(s, s.Turn("done"), "call_rm", "recursive-delete")
	if _, err := os.Stat(canary); err != nil {
		s.Errorf("the denied rm -rf ran: %v", err)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// copilotSearchProject: grep over the project folder, which holds .env,
// must not show the model .env's content, whether the call is denied or
// its result leaves the file out.
func copilotSearchProject(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile("src/app.txt", "API_KEY is read from the environment\n")
	s.Wire()
	m := s.Model
	m.On("grep", All(Main, First), cpGrep("call_grepall", "API_KEY", s.Project))
	m.On("done", All(Main, After("call_grepall")), Say("searched"))
	s.Run("search the project for the key")

	res, _ := s.Turn("done").ToolResult("call_grepall")
	s.Observe("grep over the project answered: %q", clip(res.Text, 200))
	noSecret(s)
}
