package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// The other CLIs reach the sandbox through the pre-tool-use hook's
// answer, which rewrites the agent's shell command into a line that runs
// it under the wrapper. That line is run by the CLI's own shell, outside
// the sandbox: any command whose line runs a part of it outside the
// wrapper, or leaves it as written, is an escape. These tests play the
// CLI inside the outer jail: the hook (as the CLI runs it) rewrites each
// command, and the line it hands back is run as the CLI's shell runs it.

// rewriteCLI is one CLI's pre-tool-use event for a shell command, and how
// its shell runs the line the hook hands back.
type rewriteCLI struct {
	dialect string
	event   func(command string) string
	// shell runs the line: Codex's exec_command runs `bash -lc LINE`, or
	// `bash -c LINE` where the call asks for no login shell (its login
	// argument, which the model sets); the others `bash -c LINE`.
	shell []string
	// env is the CLI's environment for its hooks and its shell (see
	// jail.env): Codex names the project to neither.
	env []string
}

var rewriteCLIs = []rewriteCLI{
	{"codex", func(c string) string {
		return `{"session_id":"jail","turn_id":"t","cwd":"` + jailProject + `","hook_event_name":"PreToolUse","model":"m","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":` + jsonString(c) + `},"tool_use_id":"c1"}`
	}, []string{"/bin/bash", "-c"}, []string{"-CLAUDE_PROJECT_DIR"}},
	{"copilot", func(c string) string {
		return `{"sessionId":"jail","timestamp":1,"cwd":"` + jailProject + `","toolName":"bash","toolArgs":{"command":` + jsonString(c) + `,"description":"d"}}`
	}, []string{"/bin/bash", "-c"}, nil},
	{"gemini", func(c string) string {
		return `{"session_id":"jail","cwd":"` + jailProject + `","hook_event_name":"BeforeTool","timestamp":"t","tool_name":"run_shell_command","tool_input":{"command":` + jsonString(c) + `}}`
	}, []string{"/bin/bash", "-c"}, nil},
	{"cursor", func(c string) string {
		return `{"conversation_id":"jail","hook_event_name":"preToolUse","cwd":"` + jailProject + `","tool_name":"Shell","tool_input":{"command":` + jsonString(c) + `},"workspace_roots":["` + jailProject + `"]}`
	}, []string{"/bin/bash", "-c"}, nil},
	// pi's extension names the project in PI_PROJECT_DIR alone, and pi
	// runs the call's command with /bin/bash -c.
	{"pi", func(c string) string {
		return `{"session_id":"jail","cwd":"` + jailProject + `","hook_event_name":"tool_call","toolName":"bash","toolCallId":"c1","input":{"command":` + jsonString(c) + `},"hasUI":false}`
	}, []string{"/bin/bash", "-c"}, []string{"-CLAUDE_PROJECT_DIR", "PI_PROJECT_DIR=" + jailProject}},
	// OpenCode's plugin names the project in OPENCODE_PROJECT_DIR alone,
	// and OpenCode runs the call's command with bash -c (its shell where
	// SHELL names none it takes).
	{"opencode", func(c string) string {
		return `{"hook_event_name":"tool.execute.before","session_id":"jail","call_id":"c1","cwd":"` + jailProject + `","tool":"bash","args":{"command":` + jsonString(c) + `,"description":"d"}}`
	}, []string{"/bin/bash", "-c"}, []string{"-CLAUDE_PROJECT_DIR", "OPENCODE_PROJECT_DIR=" + jailProject}},
}

// jailWrapper is where init installs the wrapper for the jail's HOME.
const jailWrapper = jailHome + "/.local/share/massgen-hook/bin/massgen-hook-shell"

// harmScript does harm where it runs unconfined: it prints the secrets and
// deletes a folder of the home. The static guards cannot see into it.
const harmScript = "#!/bin/sh\ncat ~/.git-credentials " + jailProject + "/.env 2>/dev/null; rm -rf ~/work\n"

// rewriteAttack is a session of shell calls an injected agent makes, each
// judged by the hook and then run as the hook's answer says.
type rewriteAttack struct {
	name string
	// env changes the jail's environment (the CLI's, which its shell and
	// the wrapper inherit).
	env   []string
	steps []string
	// skip names an escape that is known and not closed yet.
	skip string
}

// rewriteAttacks try to make a rewritten line run the agent's command, or
// a part of it, outside the wrapper: quoting and parsing edge cases of
// each CLI's line form, and commands the rewrite leaves as written.
var rewriteAttacks = []rewriteAttack{
	{name: "plain", steps: []string{"./tools/harm"}},
	{name: "single quote closed early", steps: []string{"x'; ./tools/harm; '"}},
	{name: "quote escape sequence", steps: []string{`echo 'it'\''s'; ./tools/harm`}},
	{name: "double quote closed early", steps: []string{`x"; ./tools/harm; "`}},
	{name: "substitution", steps: []string{"echo $(./tools/harm)"}},
	{name: "backticks", steps: []string{"echo `./tools/harm`"}},
	{name: "ansi-c quoting", steps: []string{`echo $'\x27'; ./tools/harm`}},
	{name: "a line per command", steps: []string{"true\n./tools/harm\n"}},
	{name: "heredoc", steps: []string{"cat <<'EOF'\n'\nEOF\n./tools/harm"}},
	{name: "comment", steps: []string{"true # '\n./tools/harm"}},
	{name: "trailing backslash", steps: []string{`./tools/harm \`}},
	{name: "leading dash", steps: []string{"-c ./tools/harm; ./tools/harm"}},
	{name: "the wrapper's own flags", steps: []string{"--exec -- ./tools/harm"}},
	{name: "carriage return", steps: []string{"true\r\n./tools/harm"}},
	{name: "a long command", steps: []string{strings.Repeat(": ", 30000) + "\n./tools/harm"}},
	{name: "a brace line, as Copilot's line closes its function", steps: []string{"cat <<'E'\n}\nE\n./tools/harm\nmassgen_hook_agent_command() {\n:\n}"}},
	{
		// A command of what Go calls space but bash does not (a form feed,
		// a no-break space, NEL) is a program name bash looks up on PATH.
		// PATH holds a folder of the project where the CLI was started by
		// npx (node_modules/.bin), or with a Python virtualenv active.
		name: "a command that is only whitespace, named as a program on PATH",
		env:  []string{"PATH=" + jailProject + "/node_modules/.bin:/usr/local/bin:/usr/bin:/bin"},
		steps: []string{
			"mkdir -p node_modules/.bin && for n in $'\\f' $'\\v' $'\\u00a0' $'\\u0085'; do cp tools/harm node_modules/.bin/\"$n\"; done",
			"\f", "\v", "\u00a0", "\u0085",
		},
	},
}

// TestRewrittenLinesHold runs each attack through each CLI's rewrite, for
// real, inside the outer jail, and requires the sandbox to hold: no secret
// in the output, the protected files byte-identical, the wiring folder
// unwritten, the fake HOME whole.
func TestRewrittenLinesHold(t *testing.T) {
	t.Parallel() // jails of their own
	if testing.Short() {
		t.Skip("runs attacks in a bubblewrap jail; skipped in -short mode")
	}
	for _, cli := range rewriteCLIs {
		t.Run(cli.dialect, func(t *testing.T) {
			t.Parallel() // a jail of its own
			// One jail and one init per CLI; each attack starts from what
			// init left (reset).
			j := rewriteJail(t, cli.dialect)
			for _, a := range rewriteAttacks {
				t.Run(a.name, func(t *testing.T) {
					if a.skip != "" {
						t.Skip(a.skip)
					}
					j.t = t
					j.reset()
					j.env = append(append([]string{}, cli.env...), a.env...)
					before := hashTree(t, j.scratch)
					var out strings.Builder
					ran := 0
					for i, step := range a.steps {
						line, denied := j.rewrite(cli, step)
						fmt.Fprintf(&out, "step %d: denied=%v line=%.300q\n", i+1, denied, line)
						if denied {
							continue
						}
						ran++
						if line == step {
							t.Errorf("step %d (%.80q) is left as written: the CLI's shell runs it outside the sandbox", i+1, step)
						}
						_, o := j.run(jailProject, "", append(cli.shell, line)...)
						out.WriteString(o)
						if broken := j.broken(before, o); broken != "" {
							t.Fatalf("the sandbox did not hold at step %d (%.80q): %s\n%s", i+1, step, broken, out.String())
						}
					}
					if ran == 0 {
						t.Errorf("every step was denied: the attack tests nothing\n%s", out.String())
					}
				})
			}
		})
	}
}

// TestRewriteAttacksHarmUnconfined is the control: the harm script, run
// unconfined in the jail, breaks the invariants TestRewrittenLinesHold
// requires, and the whitespace-named program runs from PATH.
func TestRewriteAttacksHarmUnconfined(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs attacks in a bubblewrap jail; skipped in -short mode")
	}
	for _, command := range []string{"./tools/harm", "mkdir -p node_modules/.bin && cp tools/harm node_modules/.bin/$'\\u00a0' && PATH=$PWD/node_modules/.bin:$PATH; \u00a0"} {
		j := rewriteJail(t, "copilot")
		before := hashTree(t, j.scratch)
		_, out := j.run(jailProject, "", "/bin/bash", "-c", command)
		if j.broken(before, out) == "" {
			t.Errorf("%q does no harm even unconfined; the attacks test nothing:\n%s", command, out)
		}
	}
}

// rewriteJail is the attack fixture wired for dialect by init, run in the
// jail (the wrapper, and what that CLI's line needs, installed for the
// jail's HOME), with the harm script in the project.
func rewriteJail(t *testing.T, dialect string) *jail {
	t.Helper()
	j := newJail(t, attackFixture(t))
	if code, out := j.run(jailProject, "", jailRoot+"/bin/massgen-hook", "init", "--agent", dialect); code != 0 {
		t.Fatalf("init --agent %s exited %d:\n%s", dialect, code, out)
	}
	if code, out := j.run(jailProject, "", "/bin/sh", "-c", "test -x "+jailWrapper); code != 0 {
		t.Fatalf("init --agent %s installed no wrapper at %s:\n%s", dialect, jailWrapper, out)
	}
	j.write("proj/tools/harm", harmScript, 0o755)
	j.keep()
	return j
}

// rewrite runs the hook on command as cli runs it, and gives the line the
// CLI's shell then runs: the rewritten one, or the command as written
// when the answer leaves it; denied when the answer refuses the call.
func (j *jail) rewrite(cli rewriteCLI, command string) (line string, denied bool) {
	j.t.Helper()
	code, out := j.run(jailProject, cli.event(command), jailRoot+"/bin/massgen-hook", "pre-tool-use", "--dialect", cli.dialect)
	if code == 2 {
		return "", true
	}
	// The answer is the last line that is a JSON object (a note may
	// precede it on stderr).
	var answer map[string]any
	for _, l := range strings.Split(out, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			answer = m
		}
	}
	if code != 0 {
		j.t.Fatalf("pre-tool-use --dialect %s exited %d:\n%s", cli.dialect, code, out)
	}
	if refused(answer) {
		return "", true
	}
	if rewritten, ok := answerCommand(answer); ok {
		return rewritten, false
	}
	return command, false
}

// refused reports whether an answer of any CLI's shape refuses the call.
func refused(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, x := range m {
		switch s, _ := x.(string); {
		case (k == "permissionDecision" || k == "decision" || k == "permission") && (s == "deny" || s == "block"):
			return true
		case k == "continue" && x == false, k == "block" && (x == true || s != ""): // pi's flag, OpenCode's reason
			return true
		case refused(x):
			return true
		}
	}
	return false
}

// answerCommand is the rewritten command in an answer of any CLI's shape
// (updatedInput, modifiedArgs, tool_input, updated_input, pi's input,
// OpenCode's args).
func answerCommand(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	for _, k := range []string{"updatedInput", "modifiedArgs", "tool_input", "updated_input", "input", "args"} {
		if in, ok := m[k].(map[string]any); ok {
			if c, ok := in["command"].(string); ok {
				return c, true
			}
		}
	}
	for _, x := range m {
		if c, ok := answerCommand(x); ok {
			return c, true
		}
	}
	return "", false
}

// TestRewrittenLineSentAsIsHolds: the agent sends a line in the rewritten
// form itself. This project's exact line is left as it is (it already runs
// the wrapper); one naming a project of the agent's making, whose config
// says confine: off, must not run the command outside the sandbox.
func TestRewrittenLineSentAsIsHolds(t *testing.T) {
	t.Parallel() // jails of their own
	if testing.Short() {
		t.Skip("runs attacks in a bubblewrap jail; skipped in -short mode")
	}
	for _, cli := range rewriteCLIs {
		t.Run(cli.dialect, func(t *testing.T) {
			t.Parallel() // jails of their own
			j := rewriteJail(t, cli.dialect)
			j.env = cli.env
			j.write("proj/w/.git/HEAD", "ref: refs/heads/main\n", 0o644)
			j.write("proj/w/.claude/massgen-hook.yaml", "confine: off\ndefault_guards: false\n", 0o644)
			j.write("proj/w/tools/harm", harmScript, 0o755)
			own, denied := j.rewrite(cli, "./tools/harm")
			if denied || own == "./tools/harm" {
				t.Fatalf("./tools/harm is not rewritten (denied=%v): %q", denied, own)
			}
			fake := strings.Replace(own, jailProject+"'", jailProject+"/w'", 1)
			if fake == own {
				t.Fatalf("no project to replace in %q", own)
			}
			// The control: run as sent, the fake line does harm.
			c := rewriteJail(t, cli.dialect)
			c.env = cli.env
			c.write("proj/w/.git/HEAD", "ref: refs/heads/main\n", 0o644)
			c.write("proj/w/.claude/massgen-hook.yaml", "confine: off\ndefault_guards: false\n", 0o644)
			cBefore := hashTree(t, c.scratch)
			if _, out := c.run(jailProject, "", append(cli.shell, fake)...); c.broken(cBefore, out) == "" {
				t.Errorf("the line naming the agent's project does no harm even run as sent; the attack tests nothing:\n%s", out)
			}
			before := hashTree(t, j.scratch)
			for _, sent := range []string{own, fake} {
				line, denied := j.rewrite(cli, sent)
				if denied {
					continue
				}
				_, out := j.run(jailProject, "", append(cli.shell, line)...)
				if broken := j.broken(before, out); broken != "" {
					t.Fatalf("the sandbox did not hold for the line sent as %q, run as %q: %s\n%s", sent, line, broken, out)
				}
			}
		})
	}
}

// TestCodexWorkdirCannotChooseTheProject: Codex hands the hook, as the
// event's cwd, the folder the call runs in (exec_command's workdir, which
// the model chooses), while the hook process runs in the session's
// folder. A workdir in a repository of the agent's making, with a config
// saying confine: off and no guards, must not become the project: the
// command would run as written, outside the sandbox, unjudged.
func TestCodexWorkdirCannotChooseTheProject(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs an attack in a bubblewrap jail; skipped in -short mode")
	}
	codex := rewriteCLIs[0]
	j := rewriteJail(t, codex.dialect)
	j.env = codex.env
	j.write("proj/w/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	j.write("proj/w/.claude/massgen-hook.yaml", "confine: off\ndefault_guards: false\n", 0o644)
	j.write("proj/w/tools/harm", harmScript, 0o755)
	workdir := jailProject + "/w"
	ev := strings.Replace(codex.event("./tools/harm"), `"cwd":"`+jailProject+`"`, `"cwd":"`+workdir+`"`, 1)
	before := hashTree(t, j.scratch)
	code, out := j.run(jailProject, ev, jailRoot+"/bin/massgen-hook", "pre-tool-use", "--dialect", "codex")
	var answer map[string]any
	_ = json.Unmarshal([]byte(strings.TrimSpace(out)), &answer)
	if code == 2 || refused(answer) {
		return
	}
	line, ok := answerCommand(answer)
	if !ok {
		t.Fatalf("a call whose workdir is a repository of the agent's making is left as written (it runs outside the sandbox):\n%s", out)
	}
	_, ran := j.run(workdir, "", append(codex.shell, line)...)
	if broken := j.broken(before, ran); broken != "" {
		t.Fatalf("the sandbox did not hold for %q run in %s: %s\n%s", line, workdir, broken, ran)
	}
}

// TestCodexModelChosenShellHolds: Codex's exec_command takes a shell
// argument, the program that runs the call's line ("Defaults to the
// user's default shell"), which the model sets, and which Codex does not
// hand the hook (its tool_input holds the command alone). A program the
// agent wrote in the project, named there, runs the rewritten line
// outside the sandbox, and does what it likes with it.
func TestCodexModelChosenShellHolds(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs an attack in a bubblewrap jail; skipped in -short mode")
	}
	t.Skip("known escape: Codex runs exec_command's line with the shell the model names in the call (its shell argument), outside the sandbox, and tells the hook nothing of it; a program the agent wrote in the project, named as that shell, runs unconfined. massgen-hook cannot close it alone: Codex would have to hand the hook the shell (to deny any but the user's), or take no shell from the model")
	codex := rewriteCLIs[0]
	j := rewriteJail(t, codex.dialect)
	j.env = codex.env
	before := hashTree(t, j.scratch)
	var out strings.Builder
	for _, step := range []string{"cp tools/harm ./sh && chmod +x ./sh", "true"} {
		line, denied := j.rewrite(codex, step)
		if denied {
			t.Fatalf("%q is denied; the attack tests nothing", step)
		}
		shell := "/bin/bash"
		if step == "true" {
			shell = jailProject + "/sh" // the call's shell argument
		}
		_, o := j.run(jailProject, "", shell, "-lc", line)
		out.WriteString(o)
	}
	if broken := j.broken(before, out.String()); broken != "" {
		t.Fatalf("the sandbox did not hold: %s\n%s", broken, out.String())
	}
}

// TestGenericLineUnderFishHolds: the generic line quotes the command for
// bash; fish reads a backslash before a quote inside single quotes as an
// escape, so in fish the word closes early and the rest of the command
// runs after the wrapper, outside the sandbox. A CLI that runs the line
// with the user's shell (Cursor's terminal) runs it with fish where that
// is the user's shell. Codex's line holds: its exec runs first.
// (The control: the same line run by bash holds, by TestRewrittenLinesHold.)
func TestGenericLineUnderFishHolds(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs an attack in a bubblewrap jail; skipped in -short mode")
	}
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("needs fish")
	}
	cursor := rewriteCLIs[3]
	j := rewriteJail(t, cursor.dialect)
	before := hashTree(t, j.scratch)
	line, denied := j.rewrite(cursor, `x\'; ./tools/harm; #`)
	if denied {
		t.Fatal("the attack is denied; it tests nothing")
	}
	_, out := j.run(jailProject, "", fish, "-c", line)
	if broken := j.broken(before, out); broken != "" {
		t.Fatalf("the sandbox did not hold for %q run by fish: %s\n%s", line, broken, out)
	}
}
