package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The line a CLI whose own rules judge the rewritten command (Copilot CLI)
// gets: the wrapper named through a variable, the agent's command quoted
// for it, and the command once more, in a function nothing calls, for the
// CLI's rules to read.
func TestKeptRewriteIsExact(t *testing.T) {
	got := rewrittenCommand("/home/me/.local/share/massgen-hook/bin/massgen-hook-shell", "/work/it's", "git push origin main", true)
	want := "MASSGEN_HOOK_SHELL='/home/me/.local/share/massgen-hook/bin/massgen-hook-shell'; " +
		"MASSGEN_HOOK_PROJECT='/work/it'\\''s' exec \"$MASSGEN_HOOK_SHELL\" --agent-command 'git push origin main'\n" +
		"massgen_hook_agent_command() {\ngit push origin main\n}"
	if got != want {
		t.Errorf("rewrittenCommand(keep) =\n%q\nwant\n%q", got, want)
	}
	plain := rewrittenCommand("/w", "/p", "ls", false)
	if plain != "MASSGEN_HOOK_PROJECT='/p' '/w' --agent-command 'ls'" {
		t.Errorf("rewrittenCommand(plain) = %q", plain)
	}
}

// agentCommand gives back the agent's command from either form, and
// nothing from a line that only looks like one.
func TestAgentCommandReadsExactlyTheRewrittenLine(t *testing.T) {
	const wrapper, project = "/h/bin/massgen-hook-shell", "/p r/o'j"
	commands := []string{"ls", "echo \"it's\"; exit 3", "cat <<'EOF'\nx\nEOF", "echo '\\''", "", "a\n"}
	for _, keep := range []bool{false, true} {
		for _, c := range commands {
			line := rewrittenCommand(wrapper, project, c, keep)
			if got, ok := agentCommand(line, wrapper, project); !ok || got != c {
				t.Errorf("agentCommand(%q) = %q, %v; want %q", line, got, ok, c)
			}
			for _, other := range []string{line + "; rm -rf ~", line + "\n", rewrittenCommand(wrapper, "/other", c, keep), rewrittenCommand("/w2", project, c, keep)} {
				if got, ok := agentCommand(other, wrapper, project); ok {
					t.Errorf("agentCommand(%q) = %q, true; want no command", other, got)
				}
			}
		}
	}
	kept := rewrittenCommand(wrapper, project, "ls", true)
	if _, ok := agentCommand(strings.Replace(kept, "{\nls\n}", "{\nrm -rf ~\n}", 1), wrapper, project); ok {
		t.Error("a kept line whose tail differs from the quoted command was read as a rewrite")
	}
}

// The kept line runs the wrapper with the project and the command exactly
// as written; where the wrapper cannot run, bash stops at its exec and the
// command after it never runs unconfined.
func TestKeptRewriteRunsOnlyTheWrapper(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "wrapper")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nprintf '%s|%s|%s' \"$MASSGEN_HOOK_PROJECT\" \"$1\" \"$2\"\nexit 4\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ran := filepath.Join(dir, "ran")
	command := "echo \"it's\" > " + shellQuote(ran)
	out, err := exec.Command(bash, "--norc", "--noprofile", "-c", rewrittenCommand(wrapper, "/p q", command, true)).Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 4 {
		t.Fatalf("the kept line exited %v, want the wrapper's 4", err)
	}
	if want := "/p q|--agent-command|" + command; string(out) != want {
		t.Errorf("the wrapper got %q, want %q", out, want)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command after the wrapper's exec ran")
	}

	missing := filepath.Join(dir, "gone")
	_, err = exec.Command(bash, "--norc", "--noprofile", "-c", rewrittenCommand(missing, "/p", command, true)).Output()
	if !errors.As(err, &exit) || exit.ExitCode() != 127 {
		t.Errorf("with the wrapper missing the kept line exited %v, want 127", err)
	}
	// Even where a failed exec does not end the shell (execfail), the
	// command is only defined.
	if _, err = exec.Command(bash, "--norc", "--noprofile", "-O", "execfail", "-c", rewrittenCommand(missing, "/p", command, true)).Output(); err != nil {
		t.Errorf("with execfail and the wrapper missing the kept line exited %v, want 0 (the function defined)", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command after a failed exec ran unconfined")
	}
}
