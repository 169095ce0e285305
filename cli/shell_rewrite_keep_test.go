package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/dialect"
)

// The line a CLI whose own rules judge the rewritten command (Copilot CLI)
// gets: the wrapper named through a variable, handed the command cut from
// the string bash runs, and the command once, in a function nothing calls,
// for the CLI's rules to read.
func TestKeptRewriteIsExact(t *testing.T) {
	got := rewrittenCommand(dialect.Copilot, "/home/me/.local/share/massgen-hook/bin/massgen-hook-shell", "/work/it's", "git push origin main")
	want := "MASSGEN_HOOK_SHELL='/home/me/.local/share/massgen-hook/bin/massgen-hook-shell'; " +
		"MASSGEN_HOOK_PROJECT='/work/it'\\''s' exec \"$MASSGEN_HOOK_SHELL\" --agent-line \"$BASH_EXECUTION_STRING\"\n" +
		"massgen_hook_agent_command() {\ngit push origin main\n}"
	if got != want {
		t.Errorf("rewrittenCommand(keep) =\n%s\nwant\n%s", got, want)
	}
	plain := rewrittenCommand(dialect.Cursor, "/w", "/p", "ls")
	if plain != "MASSGEN_HOOK_PROJECT='/p' '/w' --agent-command 'ls'" {
		t.Errorf("rewrittenCommand(plain) = %q", plain)
	}
	for _, bad := range []string{"ls", "a\nmassgen_hook_agent_command() {\nls", "a\nmassgen_hook_agent_command() {\nls\n}\n"} {
		if c, ok := keptCommand(bad); ok {
			t.Errorf("keptCommand(%q) = %q, true; want no command", bad, c)
		}
	}
}

// agentCommand gives back the agent's command from each CLI's form, and
// nothing from a line that only looks like one.
func TestAgentCommandReadsExactlyTheRewrittenLine(t *testing.T) {
	const wrapper, project = "/h/bin/massgen-hook-shell", "/p r/o'j"
	commands := []string{"ls", "echo \"it's\"; exit 3", "cat <<'EOF'\nx\nEOF", "echo '\\''", "", "a\n"}
	for _, d := range []*dialect.Dialect{dialect.Gemini, dialect.Codex, dialect.Copilot, dialect.OpenCode} {
		for _, c := range commands {
			line := rewrittenCommand(d, wrapper, project, c)
			if got, ok := agentCommand(d, line, wrapper, project); !ok || got != c {
				t.Errorf("%s: agentCommand(%q) = %q, %v; want %q", d.Name, line, got, ok, c)
			}
			for _, other := range []string{line + "; rm -rf ~", line + "\n", rewrittenCommand(d, wrapper, "/other", c), rewrittenCommand(d, "/w2", project, c)} {
				if got, ok := agentCommand(d, other, wrapper, project); ok {
					t.Errorf("agentCommand(%q) = %q, true; want no command", other, got)
				}
			}
		}
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
	// The wrapper gets the line, and takes each command from it exactly:
	// one that holds the function's own opening or closing, and one of 100
	// KB, which runs without the sandbox (Linux takes 128 KiB in one
	// argument) and so must with it.
	for _, c := range []string{command, "a\n}\nmassgen_hook_agent_command() {\nb\n}", "x\n}", strings.Repeat("y", 100<<10)} {
		line := rewrittenCommand(dialect.Copilot, wrapper, "/p q", c)
		out, err := exec.Command(bash, "--norc", "--noprofile", "-c", line).Output()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 4 {
			t.Fatalf("the kept line of a %d-byte command exited %v, want the wrapper's 4", len(c), err)
		}
		if want := "/p q|--agent-line|" + line; string(out) != want {
			t.Errorf("the wrapper got %q, want %q", clipped(string(out)), clipped(want))
		}
		if got, ok := keptCommand(line); !ok || got != c {
			t.Errorf("keptCommand gave %q, %v; want %q", clipped(got), ok, clipped(c))
		}
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command in the function ran")
	}

	var exit *exec.ExitError
	missing := filepath.Join(dir, "gone")
	_, err = exec.Command(bash, "--norc", "--noprofile", "-c", rewrittenCommand(dialect.Copilot, missing, "/p", command)).Output()
	if !errors.As(err, &exit) || exit.ExitCode() != 127 {
		t.Errorf("with the wrapper missing the kept line exited %v, want 127", err)
	}
	// Even where a failed exec does not end the shell (execfail), the
	// command is only defined.
	if _, err := exec.Command(bash, "--norc", "--noprofile", "-O", "execfail", "-c", rewrittenCommand(dialect.Copilot, missing, "/p", command)).Output(); err != nil {
		t.Errorf("with execfail and the wrapper missing the kept line exited %v, want 0 (the function defined)", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command after a failed exec ran unconfined")
	}
}

// clipped is s cut to a length a failure message can show.
func clipped(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
