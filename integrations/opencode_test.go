package integrations

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeHook stands for the massgen-hook binary: it records how it was run
// (arguments, folder, project variable, stdin) and answers as the test's
// FAKE_* variables say.
const fakeHook = `#!/bin/sh
cat > "$FAKE_LOG/stdin"
printf '%s\n' "$@" > "$FAKE_LOG/args"
pwd > "$FAKE_LOG/cwd"
printf '%s' "$OPENCODE_PROJECT_DIR" > "$FAKE_LOG/project"
printf '%s' "${CLAUDE_PROJECT_DIR-unset}" > "$FAKE_LOG/claude-project"
echo run >> "$FAKE_LOG/runs"
if [ -n "$FAKE_FIRST_STDOUT" ] && [ "$(wc -l < "$FAKE_LOG/runs")" -eq 1 ]; then
	printf '%s' "$FAKE_FIRST_STDOUT"
	exit 0
fi
printf '%s' "$FAKE_STDERR" >&2
printf '%s' "$FAKE_STDOUT"
exit "${FAKE_EXIT:-0}"
`

// opencodePlugin is the plugin as init writes it in project scope, in
// <root>/project/.opencode/plugins, with the fake binary where init puts
// massgen-hook. It returns the plugin's path and the project.
func opencodePlugin(t *testing.T, subcommands []string, withBinary bool) (string, string) {
	t.Helper()
	src, ok := Plugin("opencode")
	if !ok {
		t.Fatal("no OpenCode plugin embedded")
	}
	subs, _ := json.Marshal(subcommands)
	filled := strings.NewReplacer(`"@MASSGEN_HOOK_BINARY@"`, `".claude/hooks/massgen-hook"`,
		`"@MASSGEN_HOOK_SCOPE@"`, `"project"`, `["@MASSGEN_HOOK_SUBCOMMANDS@"]`, string(subs)).Replace(string(src))
	if strings.Contains(filled, "@MASSGEN_HOOK_") {
		t.Fatal("a placeholder is left in the plugin")
	}
	project := filepath.Join(t.TempDir(), "it's a project")
	plugin := filepath.Join(project, ".opencode", "plugins", "massgen-hook.mjs")
	for _, dir := range []string{filepath.Dir(plugin), filepath.Join(project, ".claude", "hooks")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(plugin, []byte(filled), 0o644); err != nil {
		t.Fatal(err)
	}
	if withBinary {
		if err := os.WriteFile(filepath.Join(project, ".claude", "hooks", "massgen-hook"), []byte(fakeHook), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return plugin, project
}

// step is one hook call the driver makes.
type step struct {
	Hook      string            `json:"hook,omitempty"`
	Input     map[string]any    `json:"input,omitempty"`
	Calls     [][2]any          `json:"calls,omitempty"`
	Output    map[string]any    `json:"output"`
	Env       map[string]string `json:"env"`
	Directory string            `json:"directory"`
	Session   map[string]any    `json:"session,omitempty"`
	Repeat    int               `json:"repeat,omitempty"`
}

type driven struct {
	Thrown  string           `json:"thrown"`
	Output  map[string]any   `json:"output"`
	Same    bool             `json:"same"`
	Prompts []map[string]any `json:"prompts"`
	log     string
}

// drive runs the plugin's hook in node, the binary answering with
// stdout, stderr and exit.
func drive(t *testing.T, plugin, project string, st step, stdout, stderr string, exit int) driven {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the plugin cannot be loaded")
	}
	log := t.TempDir()
	env := map[string]string{"FAKE_LOG": log, "FAKE_STDOUT": stdout, "FAKE_STDERR": stderr, "FAKE_EXIT": strconv.Itoa(exit)}
	for k, v := range st.Env {
		env[k] = v
	}
	st.Env = env
	st.Directory = project
	in, _ := json.Marshal(st)
	cmd := exec.Command(node, filepath.Join("testdata", "opencode-driver.mjs"), plugin, string(in))
	cmd.Dir, _ = os.Getwd()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v: %s", err, out)
	}
	var d driven
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatalf("driver printed %q: %v", out, err)
	}
	d.log = log
	return d
}

func logged(t *testing.T, d driven, name string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(d.log, name))
	return string(b)
}

var all = []string{"session-start", "subagent-start", "pre-tool-use", "post-tool-use", "post-tool-use-failure", "subagent-stop", "stop"}

func before(args map[string]any) step {
	return step{Hook: "tool.execute.before", Input: map[string]any{"tool": "bash", "sessionID": "ses_1", "callID": "call_1"},
		Output: map[string]any{"args": args}}
}

// The plugin runs the binary directly with the subcommand and the
// dialect, in the project (two folders above the plugin, whatever
// OpenCode's directory), with the project variable and without an
// inherited CLAUDE_PROJECT_DIR, the event on stdin.
func TestOpenCodePluginRunsTheBinary(t *testing.T) {
	plugin, project := opencodePlugin(t, all, true)
	st := before(map[string]any{"command": "ls $(whoami)", "description": "d"})
	// An outer Claude Code session's project, which the hooks would take
	// first, is not handed on.
	st.Env = map[string]string{"CLAUDE_PROJECT_DIR": "/elsewhere"}
	d := drive(t, plugin, project, st, "", "", 0)
	if got := logged(t, d, "claude-project"); got != "unset" {
		t.Errorf("the hook got CLAUDE_PROJECT_DIR=%q", got)
	}
	if d.Thrown != "" {
		t.Fatalf("an empty answer blocked the call: %s", d.Thrown)
	}
	if got := logged(t, d, "args"); got != "pre-tool-use\n--dialect\nopencode\n" {
		t.Errorf("arguments %q", got)
	}
	if got := strings.TrimSpace(logged(t, d, "cwd")); got != project || logged(t, d, "project") != project {
		t.Errorf("ran in %q with OPENCODE_PROJECT_DIR %q, want %q", got, logged(t, d, "project"), project)
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(logged(t, d, "stdin")), &ev); err != nil {
		t.Fatalf("stdin %q: %v", logged(t, d, "stdin"), err)
	}
	if ev["hook_event_name"] != "tool.execute.before" || ev["call_id"] != "call_1" || ev["tool"] != "bash" ||
		ev["session_id"] != "ses_1" || ev["args"].(map[string]any)["command"] != "ls $(whoami)" || ev["cwd"] != project {
		t.Errorf("event %v", ev)
	}
}

// Every answer of pre-tool-use, applied the way OpenCode allows, and
// every way the binary can fail, for a tool call: closed, with a reason
// naming the fix, except for exit 1, the hook's own choice to fail open.
func TestOpenCodePluginBeforeAnswers(t *testing.T) {
	args := map[string]any{"command": "git push", "description": "d"}
	for _, c := range []struct {
		name, stdout, stderr string
		exit                 int
		thrown               []string // "" : not blocked
		args                 map[string]any
	}{
		{name: "block", stdout: `{"block":"protected path: .env"}`, thrown: []string{"protected path: .env"}},
		{name: "exit 2", stderr: "denied on exit 2", exit: 2, thrown: []string{"denied on exit 2"}},
		{name: "not JSON", stdout: "oops", thrown: []string{"massgen-hook could not check this call", "not JSON", "massgen-hook doctor"}},
		{name: "exit 1 fails open", exit: 1, stderr: "config broken"},
		{name: "any other exit fails open too", exit: 9},
		{name: "rewrite", stdout: `{"args":{"command":"exec wrapper git push"}}`, args: map[string]any{"command": "exec wrapper git push"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			plugin, project := opencodePlugin(t, all, true)
			d := drive(t, plugin, project, before(args), c.stdout, c.stderr, c.exit)
			for _, w := range c.thrown {
				if !strings.Contains(d.Thrown, w) {
					t.Errorf("thrown %q, want it to say %q", d.Thrown, w)
				}
			}
			if len(c.thrown) == 0 && d.Thrown != "" {
				t.Errorf("blocked: %s", d.Thrown)
			}
			if c.args != nil {
				got, _ := json.Marshal(d.Output["args"])
				want, _ := json.Marshal(c.args)
				if string(got) != string(want) || !d.Same {
					t.Errorf("args %s (same object %v), want %s in place", got, d.Same, want)
				}
			}
		})
	}
}

// A binary that is not there blocks every tool call, saying how to fix it.
func TestOpenCodePluginMissingBinaryFailsClosed(t *testing.T) {
	plugin, project := opencodePlugin(t, all, false)
	d := drive(t, plugin, project, before(map[string]any{"command": "ls"}), "", "", 0)
	for _, w := range []string{"massgen-hook could not check this call", "massgen-hook doctor", "massgen-hook init --agent opencode"} {
		if !strings.Contains(d.Thrown, w) {
			t.Errorf("thrown %q, want it to say %q", d.Thrown, w)
		}
	}
}

// After the call: a replacement takes the result's place, context goes
// after it, and so does context pre-tool-use gave the same call.
func TestOpenCodePluginAfterAnswers(t *testing.T) {
	after := func(out string) step {
		return step{Hook: "tool.execute.after", Input: map[string]any{"tool": "bash", "sessionID": "ses_1", "callID": "call_1",
			"args": map[string]any{"command": "ls"}}, Output: map[string]any{"title": "ls", "output": out, "metadata": map[string]any{"exit": 0}}}
	}
	plugin, project := opencodePlugin(t, all, true)
	if d := drive(t, plugin, project, after("secret"), `{"output":"[redacted]"}`, "", 0); d.Output["output"] != "[redacted]" {
		t.Errorf("replaced: %v", d.Output["output"])
	}
	if d := drive(t, plugin, project, after("a\n"), `{"context":"inbox: hi"}`, "", 0); d.Output["output"] != "a\n\n\ninbox: hi" {
		t.Errorf("context: %q", d.Output["output"])
	}
	st := before(map[string]any{"command": "ls"})
	a := after("a")
	st.Calls = [][2]any{{"tool.execute.before", st.Input}, {"tool.execute.after", a.Input}}
	st.Output = map[string]any{"args": map[string]any{"command": "ls"}, "output": "a"}
	if d := drive(t, plugin, project, st, `{"context":"mind the tests"}`, "", 0); !strings.HasPrefix(d.Output["output"].(string), "a\n\nmind the tests") {
		t.Errorf("pre-tool-use context: %q", d.Output["output"])
	}
}

// A session's start context is in every request's system prompt, from
// one session-start run; a subcommand init did not wire is never run.
func TestOpenCodePluginStartContext(t *testing.T) {
	plugin, project := opencodePlugin(t, all, true)
	st := step{Hook: "experimental.chat.system.transform", Input: map[string]any{"sessionID": "ses_1"},
		Output: map[string]any{"system": []string{"OpenCode's own"}}, Repeat: 2}
	d := drive(t, plugin, project, st, `{"context":"orientation"}`, "", 0)
	got, _ := json.Marshal(d.Output["system"])
	if string(got) != `["OpenCode's own","orientation","orientation"]` || logged(t, d, "runs") != "run\n" {
		t.Errorf("system %s after %q runs", got, logged(t, d, "runs"))
	}
	if !strings.HasPrefix(logged(t, d, "args"), "session-start\n") {
		t.Errorf("ran %q", logged(t, d, "args"))
	}

	plugin, project = opencodePlugin(t, []string{"pre-tool-use"}, true)
	d = drive(t, plugin, project, st, `{"context":"orientation"}`, "", 0)
	if logged(t, d, "runs") != "" {
		t.Errorf("session-start ran though init wired only pre-tool-use")
	}
}

// A subagent whose stop massgen-hook blocks is sent back (its child
// session prompted with the reason, as its own agent), and its new answer
// is the task's result; subagent-stop runs again on it.
func TestOpenCodePluginSendsTheSubagentBack(t *testing.T) {
	plugin, project := opencodePlugin(t, all, true)
	st := step{Hook: "tool.execute.after",
		Input: map[string]any{"tool": "task", "sessionID": "ses_main", "callID": "call_t",
			"args": map[string]any{"prompt": "write a note", "subagent_type": "scribe"}},
		Output: map[string]any{"title": "t", "metadata": map[string]any{"sessionId": "ses_child"},
			"output": "<task id=\"ses_child\" state=\"completed\">\n<task_result>\nstopping here\n</task_result>\n</task>"},
		Env: map[string]string{"FAKE_FIRST_STDOUT": `{"block":"Scratchpad missing: write it"}`}}
	d := drive(t, plugin, project, st, "", "", 0)
	if d.Thrown != "" {
		t.Fatal(d.Thrown)
	}
	if len(d.Prompts) != 1 {
		t.Fatalf("the subagent was sent back %d times, want 1: %v", len(d.Prompts), d.Prompts)
	}
	got, _ := json.Marshal(d.Prompts[0])
	if want := `{"body":{"agent":"scribe","parts":[{"text":"Scratchpad missing: write it","type":"text"}]},"path":{"id":"ses_child"}}`; string(got) != want {
		t.Errorf("sent back with %s, want %s", got, want)
	}
	if out := d.Output["output"]; out != "<task id=\"ses_child\" state=\"completed\">\n<task_result>\nnote written\n</task_result>\n</task>" {
		t.Errorf("the task's result is %q", out)
	}
	// Its second subagent-stop (the last run before post-tool-use) says
	// it was sent back, with the new answer.
	if runs := logged(t, d, "runs"); runs != "run\nrun\nrun\n" {
		t.Errorf("runs %q: want subagent-stop twice, then post-tool-use", runs)
	}
}
