package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/dialect"
)

func TestRewrittenCommandKeepsTheAgentsWordsWhereTheCLIsRulesReadTheLine(t *testing.T) {
	const w, p = "/home/u/.local/share/massgen-hook/bin/massgen-hook-shell", "/src/it's"
	cmd := `git push origin 'main' && echo "done"`
	if got, want := rewrittenCommand(dialect.Codex, w, p, cmd),
		`exec /usr/bin/env 'MASSGEN_HOOK_PROJECT=/src/it'\''s' '/home/u/.local/share/massgen-hook/bin/massgen-hook-shell' --agent-command 'git push origin '\''main'\'' && echo "done"'; exit 126; git push origin 'main' && echo "done"`; got != want {
		t.Errorf("Codex:\n got %s\nwant %s", got, want)
	}
	// Gemini CLI's rules judge a bash -c "X" in the line by X
	// (shell_rewrite_bashc.go).
	if got, want := rewrittenCommand(dialect.Gemini, w, p, cmd),
		`export MASSGEN_HOOK_PROJECT='/src/it'\''s'; /home/u/.local/share/massgen-hook/bin/sandboxed-bash/bash -c "git push origin 'main' && echo \"done\""`; got != want {
		t.Errorf("Gemini:\n got %s\nwant %s", got, want)
	}
	// Cursor's rules are not known to read the line: the plain form.
	if got, want := rewrittenCommand(dialect.Cursor, w, p, cmd),
		`MASSGEN_HOOK_PROJECT='/src/it'\''s' '/home/u/.local/share/massgen-hook/bin/massgen-hook-shell' --agent-command 'git push origin '\''main'\'' && echo "done"'`; got != want {
		t.Errorf("Cursor:\n got %s\nwant %s", got, want)
	}
}

func TestIsRewrittenTakesOnlyTheExactLine(t *testing.T) {
	const w, p = "/w/massgen-hook-shell", "/p"
	for _, d := range []*dialect.Dialect{dialect.Codex, dialect.Gemini, dialect.Copilot, dialect.Cursor, dialect.OpenCode} {
		for _, cmd := range []string{"ls", "echo 'a'\\''b' \"$x\"", "cat <<EOF\nx'y\nEOF", "'"} {
			line := rewrittenCommand(d, w, p, cmd)
			if !isRewritten(d, line, w, p) {
				t.Errorf("%s: its own line for %q is not taken as rewritten: %s", d.Name, cmd, line)
			}
			for _, other := range []string{
				line + "; echo more",
				rewrittenCommand(d, w, "/other", cmd),
				rewrittenCommand(d, "/elsewhere/massgen-hook-shell", p, cmd),
			} {
				if isRewritten(d, other, w, p) {
					t.Errorf("%s: %s is taken as this project's rewrite", d.Name, other)
				}
			}
		}
	}
	// Where the CLI's rules read the words after the exec, they must be
	// the command the wrapper runs: a line that shows them one command and
	// runs another is wrapped again, so that they read the one that runs.
	hidden := quotedHead(dialect.Codex, w, p) + shellQuote("git push") + execTail + "echo harmless"
	if isRewritten(dialect.Codex, hidden, w, p) {
		t.Errorf("a line whose words differ from its command is taken as rewritten: %s", hidden)
	}
	for _, c := range []struct{ in, word, rest string }{
		{`'a'\''b' c`, "a'b", " c"},
		{`'a''b'`, "a", "'b'"},
		{`''`, "", ""},
	} {
		if word, rest, ok := cutQuoted(c.in); !ok || word != c.word || rest != c.rest {
			t.Errorf("cutQuoted(%q) = %q, %q, %v; want %q, %q", c.in, word, rest, ok, c.word, c.rest)
		}
	}
	for _, bad := range []string{"", "'unterminated", `'a'\''b`, "x'a'"} {
		if _, _, ok := cutQuoted(bad); ok {
			t.Errorf("cutQuoted(%q) took it for a quoted word", bad)
		}
	}
}

// The line bash runs: the wrapper gets the command and the project as
// they were, its exit code is the line's, and the words after it never
// run, not even where the wrapper cannot be run.
func TestRulesLineRunsOnlyTheWrapper(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "wrap per")
	script := "#!/bin/sh\nprintf '%s|%s|%s\\n' \"$MASSGEN_HOOK_PROJECT\" \"$1\" \"$2\"\nexit 7\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := "touch tail-ran; echo 'it''s'"
	run := func(line string) (string, int) {
		c := exec.Command(bash, "-c", line)
		c.Dir = dir
		out, _ := c.Output()
		return string(out), c.ProcessState.ExitCode()
	}
	out, code := run(rewrittenCommand(dialect.Codex, wrapper, "/p q'r", cmd))
	if want := "/p q'r|--agent-command|" + cmd + "\n"; out != want || code != 7 {
		t.Errorf("got %q exit %d, want %q exit 7", out, code, want)
	}
	// env cannot run a missing wrapper: it says so, exits 127, and the
	// words after it do not run, with or without execfail (which keeps a
	// shell going after an exec that failed).
	for _, before := range []string{"", "shopt -s execfail; "} {
		out, code = run(before + rewrittenCommand(dialect.Codex, filepath.Join(dir, "missing"), "/p", cmd))
		if out != "" || code != 127 {
			t.Errorf("%swith no wrapper: got %q exit %d, want nothing and exit 127", before, out, code)
		}
		if _, err := os.Stat(filepath.Join(dir, "tail-ran")); err == nil {
			t.Fatalf("%sthe words after the wrapper ran", before)
		}
	}
}

// Only what bash reads as no command is left unrewritten: a form feed, a
// no-break space or NEL is a program name to bash.
func TestRunsNothingIsBashsBlankOnly(t *testing.T) {
	for _, c := range []string{"", " ", "\t", "\n", " \t\n\n"} {
		if !runsNothing(c) {
			t.Errorf("runsNothing(%q) = false, want true", c)
		}
	}
	for _, c := range []string{"\f", "\v", "\r", "\u00a0", "\u0085", "\u2028", "\u3000", " \f ", "#", ";"} {
		if runsNothing(c) {
			t.Errorf("runsNothing(%q) = true, want false: bash runs it as a word", c)
		}
	}
}

// The generic line leaves no backslash inside single quotes, which fish
// would read as an escape; every shell reads the word back as written.
func TestAgentWordHasNoBackslashInsideSingleQuotes(t *testing.T) {
	const w, p = "/w/massgen-hook-shell", "/p"
	for _, cmd := range []string{`x\'; echo out; #`, `\\`, `'\`, `a\`, `echo "\$HOME" '\''`} {
		word := agentWord(dialect.Cursor, cmd)
		if rest := strings.NewReplacer(`'\''`, "", backslashWord, "").Replace(word); strings.Contains(rest, `\`) {
			t.Errorf("agentWord(%q) = %s leaves a backslash fish reads as an escape", cmd, word)
		}
		line := rewrittenCommand(dialect.Cursor, w, p, cmd)
		if got, ok := agentCommand(dialect.Cursor, line, w, p); !ok || got != cmd {
			t.Errorf("agentCommand(%s) = %q, %v; want %q", line, got, ok, cmd)
		}
		for _, sh := range []string{"bash", "dash", "zsh", "fish"} {
			path, err := exec.LookPath(sh)
			if err != nil {
				continue
			}
			out, err := exec.Command(path, "-c", "printf %s "+word).Output()
			if err != nil || string(out) != cmd {
				t.Errorf("%s reads %s as %q (%v), want %q", sh, word, out, err, cmd)
			}
		}
	}
	// A line whose word only agentWord would not make is not taken as
	// rewritten: shellQuote's for a command with a backslash.
	if isRewritten(dialect.Cursor, quotedHead(dialect.Cursor, w, p)+shellQuote(`a\b`), w, p) {
		t.Error("a word quoted another way is taken as this project's rewrite")
	}
}
