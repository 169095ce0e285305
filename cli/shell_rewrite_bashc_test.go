package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/dialect"
)

func TestDoubleQuoted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`git push origin main`, `"git push origin main"`},
		{`echo 'a'; git push`, `"echo 'a'; git push"`},
		{`echo "it's" \n $HOME`, `"echo \"it's\" \\n \$HOME"`},
		{"echo `git push`", `"echo "'` + "`" + `'"git push"'` + "`" + `'""`},
		{"", `""`},
	} {
		if got := doubleQuoted(c.in); got != c.want {
			t.Errorf("doubleQuoted(%q) = %q, want %q", c.in, got, c.want)
		}
		back, ok := fromDoubleQuoted(c.want)
		if !ok || back != c.in {
			t.Errorf("fromDoubleQuoted(%q) = %q, %v; want %q, true", c.want, back, ok, c.in)
		}
	}
}

// A word doubleQuoted did not make is not read back: an unescaped `$` or
// quote, or text after the closing quote, would run something else.
func TestFromDoubleQuotedRefusesOtherWords(t *testing.T) {
	for _, w := range []string{`"a $HOME"`, `"a" "b"`, `"a"; rm -rf ~ #"`, `'a'`, `"a\"`, `"a`, `"\x"`, `"` + "`id`" + `"`} {
		if s, ok := fromDoubleQuoted(w); ok {
			t.Errorf("fromDoubleQuoted(%q) = %q, true; want false", w, s)
		}
	}
}

// Bash reads the word back as the command itself, whatever it holds.
func TestDoubleQuotedIsTheCommandToBash(t *testing.T) {
	for _, cmd := range []string{"echo 'a'; echo \"b\" \\c $HOME `x`", "a\nb\\\n", "$(", "\\"} {
		out, err := exec.Command("bash", "-c", `printf %s `+doubleQuoted(cmd)).Output()
		if err != nil || string(out) != cmd {
			t.Errorf("bash read %q back as %q (%v)", doubleQuoted(cmd), out, err)
		}
	}
}

func TestRewrittenCommandGemini(t *testing.T) {
	const wrapper, project = "/h/.local/share/massgen-hook/bin/massgen-hook-shell", "/p/it's"
	line := rewrittenCommand(dialect.Gemini, wrapper, project, `echo 'a' && git push`)
	want := `export MASSGEN_HOOK_PROJECT='/p/it'\''s'; /h/.local/share/massgen-hook/bin/sandboxed-bash/bash -c "echo 'a' && git push"`
	if line != want {
		t.Fatalf("rewrittenCommand = %q\nwant %q", line, want)
	}
	if got, ok := agentCommand(dialect.Gemini, line, wrapper, project); !ok || got != `echo 'a' && git push` {
		t.Errorf("agentCommand(the line) = %q, %v", got, ok)
	}
	for _, other := range []string{
		line + "; rm -rf ~",
		strings.Replace(line, "/p/it", "/q/it", 1),
		`/h/.local/share/massgen-hook/bin/sandboxed-bash/bash -c "echo 'a' && git push"`,
	} {
		if got, ok := agentCommand(dialect.Gemini, other, wrapper, project); ok {
			t.Errorf("agentCommand(%q) = %q, true; want false", other, got)
		}
	}
	// Cursor's form is the plain one, unchanged.
	if got := rewrittenCommand(dialect.Cursor, wrapper, project, "ls"); got != `MASSGEN_HOOK_PROJECT='/p/it'\''s' '/h/.local/share/massgen-hook/bin/massgen-hook-shell' --agent-command 'ls'` {
		t.Errorf("Cursor's line = %q", got)
	}
}

// The installed bash hands `-c COMMAND` to the wrapper; anything else it
// refuses, exit 2. Beside it, init writes the user's Gemini CLI policy file
// allowing the rewritten line's frame.
func TestSandboxedBash(t *testing.T) {
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "bin", ShellPrefixName)
	if err := os.MkdirAll(filepath.Dir(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	// A stand-in wrapper that prints what it was given.
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nprintf '<%s>' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	said := &strings.Builder{}
	w := &installer{app: &app{stdout: said, getenv: func(k string) string {
		return map[string]string{"HOME": filepath.Join(dir, "home")}[k]
	}}}
	if err := w.installBashC(wrapper); err != nil {
		t.Fatal(err)
	}
	bash := sandboxedBashPath(wrapper)
	out, err := exec.Command(bash, "-c", "echo 'x' \"$y\"").Output()
	if want := "<--agent-command><echo 'x' \"$y\">"; err != nil || string(out) != want {
		t.Errorf("bash -c ran %q (%v), want %q", out, err, want)
	}
	cmd := exec.Command(bash, "script.sh")
	msg, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(msg), "runs only 'bash -c COMMAND'") {
		t.Errorf("bash script.sh: exit %d (%v), %q; want exit 2 and the refusal", code, err, msg)
	}
	rules, err := os.ReadFile(filepath.Join(dir, "home", ".gemini", "policies", "massgen-hook.toml"))
	if err != nil || !strings.Contains(string(rules), "commandPrefix = \""+bash+" -c\"") || !strings.Contains(string(rules), `commandRegex = "export MASSGEN_HOOK_PROJECT='[^']*'(;|\")"`) {
		t.Errorf("the policy file: %v\n%s", err, rules)
	}
	// A second install changes nothing, and says nothing.
	said.Reset()
	if err := w.installBashC(wrapper); err != nil || said.Len() != 0 {
		t.Errorf("a second install: %v, said %q", err, said)
	}
}

func TestPlainPath(t *testing.T) {
	for p, want := range map[string]bool{"/home/me/.local/share/massgen-hook/bin/sandboxed-bash/bash": true,
		"/home/my name/x": false, "/home/o'k/x": false, `/a"b`: false, "/a$b": false, "": false} {
		if plainPath(p) != want {
			t.Errorf("plainPath(%q) = %v", p, !want)
		}
	}
}

// The frame rule's regex, as Gemini CLI matches it (after `"command":"`,
// against the JSON of the call's arguments): the rewritten line and its
// export alone match; an export with anything of its own after the
// project's quoted path (a redirection, another word) does not, since the
// rule is user-wide and allows what it matches unasked.
func TestFrameRuleMatchesTheFrameAlone(t *testing.T) {
	var pattern string
	for _, l := range strings.Split(frameRules("/h/.local/share/massgen-hook/bin/massgen-hook-shell"), "\n") {
		if v, ok := strings.CutPrefix(l, "commandRegex = "); ok {
			if err := json.Unmarshal([]byte(v), &pattern); err != nil { // a TOML basic string reads as JSON here
				t.Fatal(err)
			}
		}
	}
	re := regexp.MustCompile(`"command":"` + pattern)
	args := func(command string) string {
		b, _ := json.Marshal(map[string]string{"command": command})
		return string(b)
	}
	line := rewrittenCommand(dialect.Gemini, "/h/.local/share/massgen-hook/bin/massgen-hook-shell", "/p/it", "ls > out.txt")
	for _, ok := range []string{line, "export MASSGEN_HOOK_PROJECT='/p/it'"} {
		if !re.MatchString(args(ok)) {
			t.Errorf("the frame rule does not match %q", ok)
		}
	}
	for _, bad := range []string{
		"export MASSGEN_HOOK_PROJECT='x' > ~/.bashrc",
		"export MASSGEN_HOOK_PROJECT='x' PATH=/tmp/evil",
		"export MASSGEN_HOOK_PROJECT=x",
		`export MASSGEN_HOOK_PROJECT='x'"; rm -rf ~; echo "`,
		"rm -rf ~ # export MASSGEN_HOOK_PROJECT='x'",
	} {
		if re.MatchString(args(bad)) {
			t.Errorf("the frame rule matches %q", bad)
		}
	}
}
