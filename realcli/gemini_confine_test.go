//go:build realcli

package realcli

import (
	"os/exec"
	"strings"
	"testing"
)

// geminiConfineUserRules: Gemini CLI 0.61 matches the user's policy rules
// after the BeforeTool hooks, on the line the hook rewrote; the rewrite
// keeps a `bash -c "COMMAND"` the policy engine judges by COMMAND. A push
// hidden from a reading of the line as text (after a quote, in a
// substitution, in a bash -c of its own, after an apostrophe in double
// quotes) is denied as it is without massgen-hook, and nothing reaches
// the remote; a command the rules allow runs, rewritten.
func geminiConfineUserRules(t *testing.T, s *Session) {
	needBwrap(s)
	s.CLI.ShellDeny(s, "git push")
	remote := pushRemote(s)
	s.Wire()
	wantSandboxWired(s)

	pushes := []string{
		`echo 'a'; git push origin main`,
		"echo `git push origin main`",
		`bash -c 'git push origin main'`,
		`echo "it's" && git push origin main`,
	}
	m := s.Model
	prev := First
	for i, cmd := range pushes {
		id := "call_push" + string(rune('a'+i))
		m.On(id, All(Main, prev), gShell(id, cmd))
		prev = After(id)
	}
	m.On("allowed", All(Main, prev), gShell("call_ok", `echo "ran 'quoted'" > ran.txt`))
	m.On("done", All(Main, After("call_ok")), Say("done"))
	s.Run("push the branch")

	done := s.Turn("done")
	for i, cmd := range pushes {
		res := mustResult(done, "call_push"+string(rune('a'+i)))
		if !res.IsError || !strings.Contains(res.Text, "denied by policy") {
			s.Errorf("the user's git push deny did not deny %q: the model read %q", cmd, clip(res.Text, 400))
		}
	}
	if refs, _ := exec.Command("git", "--git-dir", remote, "for-each-ref").Output(); len(strings.TrimSpace(string(refs))) > 0 {
		s.Errorf("the remote got a push: %q", refs)
	}
	res := mustResult(done, "call_ok")
	if got, _ := s.ReadFile("ran.txt"); got != "ran 'quoted'\n" {
		s.Errorf("the allowed command did not run as written: ran.txt is %q; the model read %q", got, clip(res.Text, 400))
	}
	// It ran rewritten, so the denials above were of rewritten lines.
	if !strings.Contains(res.Text, "were modified by a hook") {
		s.Errorf("the allowed command was not rewritten (no confinement here?): %q", clip(res.Text, 400))
	}
}

// geminiConfineDefaultApproval: in Gemini CLI's default approval mode
// (no --yolo), headless, the user's own rules decide which shell calls
// run: a rewritten command gets the decision its command gets without
// massgen-hook. An allowed one runs (confined), a denied one is denied,
// and one no rule allows does not run, with no user to ask.
func geminiConfineDefaultApproval(t *testing.T, s *Session) {
	needBwrap(s)
	s.DefaultApproval = true
	writeHome(s, ".gemini/policies/realcli-allow.toml", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"echo\"\ndecision = \"allow\"\npriority = 400\n")
	s.CLI.ShellDeny(s, "echo DENIED")
	s.Wire()
	wantSandboxWired(s)
	m := s.Model
	m.On("allowed", All(Main, First), gShell("call_allowed", "echo ALLOWED-4410"))
	m.On("denied", All(Main, After("call_allowed")), gShell("call_denied", "echo DENIED 4411"))
	m.On("unruled", All(Main, After("call_denied")), gShell("call_unruled", "touch unruled.txt"))
	m.On("done", All(Main, After("call_unruled")), Say("done"))
	s.Run("run the commands")

	done := s.Turn("done")
	if res := mustResult(done, "call_allowed"); res.IsError || !strings.Contains(res.Text, "ALLOWED-4410") || !strings.Contains(res.Text, "were modified by a hook") {
		s.Errorf("the command the user's rule allows did not run rewritten: %q", clip(res.Text, 400))
	}
	if res := mustResult(done, "call_denied"); !res.IsError || !strings.Contains(res.Text, "denied by policy") {
		s.Errorf("the command the user's rule denies was not denied: %q", clip(res.Text, 400))
	}
	res := mustResult(done, "call_unruled")
	if _, ran := s.ReadFile("unruled.txt"); ran || !res.IsError {
		s.Errorf("a command no rule allows ran with no user to ask (ran: %v): %q", ran, clip(res.Text, 400))
	}
	s.Observe("a command no rule allows: %q", clip(res.Text, 300))
}
