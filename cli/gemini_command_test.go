package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// geminiExpand is what Gemini CLI 0.61.0 does to a hook's command before
// it runs it: HookRunner.expandCommand (packages/core/src/hooks/
// hookRunner.ts; bundle/chunk-JDPZ4CE3.js in the npm package) replaces
// every "$GEMINI_PROJECT_DIR", "$GEMINI_CWD" and "$CLAUDE_PROJECT_DIR" with
// the session's cwd, "$GEMINI_PLANS_DIR" and "$GEMINI_SESSION_ID" with
// theirs, each passed through escapeShellArg, which for bash is
// shell-quote's quote([value]). The result runs as `bash -c COMMAND` with
// those variables also in the environment and cwd as its directory.
func geminiExpand(command, cwd, plans, session string) string {
	for _, r := range []struct{ name, value string }{
		{"GEMINI_PROJECT_DIR", cwd}, {"GEMINI_CWD", cwd}, {"GEMINI_PLANS_DIR", plans},
		{"GEMINI_SESSION_ID", session}, {"CLAUDE_PROJECT_DIR", cwd},
	} {
		command = strings.ReplaceAll(command, "$"+r.name, shellQuoteJS(r.value))
	}
	return command
}

// shellQuoteJS is shell-quote 1.8's quote() of one argument
// (node_modules/shell-quote/quote.js), after escapeShellArg's own rule
// that an empty value is "".
func shellQuoteJS(s string) string {
	if s == "" {
		return ""
	}
	space := strings.ContainsFunc(s, unicode.IsSpace)
	if (space || strings.ContainsAny(s, `"\`)) && !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	if space || strings.ContainsAny(s, `"'`) {
		return `"` + jsDoubleQuoted.ReplaceAllString(s, `\$1`) + `"`
	}
	return jsBare.ReplaceAllString(s, `$1\$2`)
}

var (
	jsDoubleQuoted = regexp.MustCompile("([\"\\\\$`!])")
	jsBare         = regexp.MustCompile(`([A-Za-z]:)?([#!"$&'()*,:;<=>?@\[\\\]^` + "`" + `{|}])`)
)

// handlerCommand is the shell command of a handler init writes.
func handlerCommand(t *testing.T, h any) string {
	t.Helper()
	raw, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"command", "bash"} {
		if c, ok := m[k].(string); ok {
			return c
		}
	}
	t.Fatalf("no command in %s", raw)
	return ""
}

// runHookCommand runs command as the CLI would, with a fake binary at
// the project's .claude/hooks/massgen-hook that prints its arguments.
func runHookCommand(t *testing.T, project, command string, env ...string) (string, error) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash")
	}
	cmd := exec.Command(bash, "-c", command)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func fakeProject(t *testing.T, name string) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), name)
	bin := filepath.Join(project, projectBinary)
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho \"RAN $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return project
}

// projectNames are project folders whose names a hook command must
// survive: spaces, both quotes, and what shells expand.
var projectNames = []string{"plain", "my proj", `it's "q"`, "a'b c", `x $HOME !y` + "`z`", `back\slash "d" 'e'`}

// The command init wires for Gemini CLI runs the installed binary however
// the project is named, once Gemini has expanded it.
func TestGeminiHookCommandRuns(t *testing.T) {
	g := targets.Get()["gemini"]
	for _, name := range projectNames {
		project := fakeProject(t, name)
		for _, e := range g.entries(g.projectVar+"/"+projectBinary, nil) {
			command := geminiExpand(handlerCommand(t, e.Handler), project, "/tmp/plans dir", "s-1")
			out, err := runHookCommand(t, project, command,
				"GEMINI_PROJECT_DIR="+project, "GEMINI_CWD="+project, "CLAUDE_PROJECT_DIR="+project)
			if want := "RAN " + e.Key + "\n"; err != nil || out != want {
				t.Errorf("project %q, %s: %q ran as %v %q, want %q", name, e.Event, command, err, out, want)
			}
		}
	}
}

// The form init wired before, "$GEMINI_PROJECT_DIR" in double quotes, is
// what Gemini's expansion breaks: the replica of it must fail there too.
func TestGeminiExpansionBreaksQuotedVariable(t *testing.T) {
	project := fakeProject(t, "my proj")
	command := geminiExpand(`"$GEMINI_PROJECT_DIR"/`+projectBinary+" stop --dialect gemini", project, "", "s")
	if out, err := runHookCommand(t, project, command, "GEMINI_PROJECT_DIR="+project); err == nil {
		t.Fatalf("%q ran (%q): the replica of Gemini's expansion is not Gemini's", command, out)
	}
}

// Copilot CLI 1.0.102 runs a hook's bash command with COPILOT_PROJECT_DIR
// in the environment and does not rewrite the command; without the
// variable (older versions) the command finds the project with git.
func TestCopilotHookCommandRuns(t *testing.T) {
	c := targets.Get()["copilot"]
	for _, name := range projectNames {
		project := fakeProject(t, name)
		for _, e := range c.entries(c.projectVar+"/"+projectBinary, nil) {
			out, err := runHookCommand(t, project, handlerCommand(t, e.Handler), "COPILOT_PROJECT_DIR="+project)
			if want := "RAN " + e.Key + "\n"; err != nil || out != want {
				t.Errorf("project %q, %s: ran as %v %q, want %q", name, e.Event, err, out, want)
			}
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	project := fakeProject(t, `git 'repo' "x"`)
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	e := c.entries(c.projectVar+"/"+projectBinary, nil)[0]
	out, err := runHookCommand(t, project, handlerCommand(t, e.Handler), "COPILOT_PROJECT_DIR=")
	if want := "RAN " + e.Key + "\n"; err != nil || out != want {
		t.Errorf("without COPILOT_PROJECT_DIR: ran as %v %q, want %q", err, out, want)
	}
}
