//go:build realcli

package realcli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
)

// codexModel is in Codex's model catalogue, so Codex offers it the tools
// a real GPT-5 gets: exec_command (the shell) and apply_patch, a freeform
// tool whose input is the patch text.
const codexModel = "gpt-5.5"

// codexCLI is Codex CLI, run as `codex exec` against the fake Responses API.
var codexCLI = &CLI{
	Name:     "codex",
	Version:  "0.169.0",
	Packages: []string{"@openai/codex@0.169.0"},
	Agent:    "codex",
	// The npm package is a node launcher for the native binary in the
	// platform's optional package; run that binary itself when it is
	// there, with the variables the launcher would set.
	Executable: func(prefix string) string {
		if native := codexNative(prefix); native != "" {
			return native
		}
		return filepath.Join(prefix, "node_modules", ".bin", "codex")
	},
	Env: func(prefix string) []string {
		return []string{"CODEX_MANAGED_BY_NPM=1",
			"CODEX_MANAGED_PACKAGE_ROOT=" + filepath.Join(prefix, "node_modules", "@openai", "codex")}
	},
	NewWire: func() Wire { return responsesWire{} },
	Setup:   codexSetup,
	Command: func(s *Session, prompt string) ([]string, []string) {
		// The human-readable output, not --json: only it shows what each
		// hook did ("hook: PreToolUse Failed", "hook: Stop Blocked"), on
		// stderr; stdout is the final answer. Approvals and the sandbox
		// are off, as in a headless run on a machine that is itself the
		// sandbox.
		// A scenario that names a sandbox (s.Args) runs Codex in it.
		args := []string{"exec", "--color", "never"}
		if !slices.Contains(s.Args, "--sandbox") {
			args = append(args, "--dangerously-bypass-approvals-and-sandbox")
		}
		return append(args, prompt), []string{"FAKE_OPENAI_KEY=sk-realcli-fake"}
	},
	Final: codexFinal,
	// A run takes 2 to 4 s of CPU, hooks included; the rest is for a busy
	// machine.
	Timeout: 2 * time.Minute,
	Adapter: Adapter{
		Trust:   codexTrust,
		Checked: codexChecked,
		Shell:   cxShell,
		// Hooks see exec_command as Bash with its command alone.
		BashInput: func(command string) map[string]any { return map[string]any{"command": command} },
		// A PostToolUse block's reason is handed to the model as the
		// call's output: a replacement goes that way.
		ReplacesOutput: true,
		Patch:          cxPatch,
		Scribe:         codexScribeProject,
		// The subagent's answer reaches the main agent as a message,
		// with the spawn's result or after a wait.
		Delegate: func(s *Session, id, task string) (Reply, When) {
			codexWait(s.Model, id)
			return cxSpawnNamed(id, "scribe_"+strings.TrimPrefix(id, "call_"), task), All(Called(id), Arrived(finalAnswer))
		},
		ScribeFinishes: func(s *Session, step, task string, when When) {
			pad := "call_" + step + "_pad"
			s.Model.On(step+"-writes", All(Subagent(task), when),
				cxPatch(pad, cxAddFile(Scratchpad("scribe", s.Today()), scratchpadBody("wrote a note"))))
			s.Model.On(step+"-stops", All(Subagent(task), After(pad)), Say("note written"))
		},
		// Its built-in explorer role, spawned as any subagent once the
		// project turns subagents on.
		Explore: func(s *Session, id, task string) (Reply, When) {
			codexScribeProject(s)
			codexWait(s.Model, id)
			return Use(id, "collaboration.spawn_agent", map[string]any{
				"task_name": "explorer", "agent_type": "explorer", "message": task, "fork_turns": "none"}), All(Called(id), Arrived(finalAnswer))
		},
		WriteTools: func(r *Request) []string {
			var out []string
			for _, name := range responsesToolNames(r) {
				if name == "apply_patch" {
					out = append(out, name)
				}
			}
			return out
		},
		WriteNew: func(s *Session, id, rel, content string) Reply { return cxPatch(id, cxAddFile(rel, content)) },
		Append: func(s *Session, id, rel, before, lines string) Reply {
			return cxPatch(id, cxAddLines(rel, lastLine(before), lines))
		},
		Overwrite: func(s *Session, id, rel, old, new string) (Reply, string) {
			return cxPatch(id, "*** Begin Patch\n*** Update File: "+rel+"\n@@\n-"+old+"\n+"+new+"\n*** End Patch\n"), "apply_patch"
		},
		Denial: func(res Block) (string, bool) {
			reason := codexDenyReason(res.Text)
			return reason, reason != ""
		},
		ShellFailed: func(res Block) bool { return codexFailed.MatchString(res.Text) },
		// The user's own rule: a prefix_rule in Codex's execpolicy, which
		// Codex matches after the pre-tool hook, on the command the hook
		// leaves.
		ShellDeny: func(s *Session, words string) {
			pattern, _ := json.Marshal(strings.Fields(words))
			writeHome(s, ".codex/rules/default.rules", "prefix_rule(pattern="+string(pattern)+", decision=\"forbidden\")\n")
		},
		// Each exec_command runs in a new `bash -lc` in the turn's
		// folder (or the call's workdir): a cd does not carry over, nor
		// does an export.
		CarriesCwd: false,
		// A command still running when its call yields goes on as a
		// session the model polls with write_stdin.
		Background: func(id, command string) Reply {
			return Use(id, "exec_command", map[string]any{"cmd": command, "yield_time_ms": 300})
		},
		EndsShellJobs: "Codex 0.169 ends what an exec_command call left running in the background (`nohup sleep 30 &`) when the call returns, without massgen-hook too; its own route is a call that yields while its command runs on",
		NA: map[string]string{
			"plugin/first-use":                     "massgen-hook ships as a plugin of Claude Code alone; here init wires it",
			"permission-request/scratchpad-writes": "only Claude Code asks before a write under .claude/; Codex writes there without a permission request to answer",
			"default-guards/grep-env":              codexNoSearch,
			"default-guards/search-project":        codexNoSearch,
		},
		Also: map[string]func(*Session, *Run){
			"stop/block-and-cap":                   codexStopRuns,
			"subagent-stop/blocks-then-allows":     codexPatchApplied("sub-stops", "call_sub_pad"),
			"subagent-stop/second-instance":        codexPatchApplied("sub2-stops", "call_pad2"),
			"default-guards/apply-patch-add":       codexPatchPassed,
			"default-guards/apply-patch-protected": codexConfigProtected,
			// Codex rejects an explicit allow and says so on stderr.
			"rules/allow-says-nothing": func(s *Session, run *Run) {
				if !slices.Contains(codexHookRuns(run), "PreToolUse Completed") {
					s.Errorf("Codex shows no PreToolUse hook that ran and let the call through: %v", codexHookRuns(run))
				}
			},
		},
	},
}

// codexFailed is how Codex tells the model a shell command failed: it
// exited with an error, or Codex refused to start it (its execpolicy
// rules: "exec_command failed: CreateProcess { ... Rejected(...) }").
var codexFailed = regexp.MustCompile(`exited with code [1-9]|^exec_command failed: `)

// codexPatchApplied: Codex says an apply_patch call applied ("Success")
// in its result, which the model read in step's turn; a failed patch is
// not marked as an error.
func codexPatchApplied(step, id string) func(*Session, *Run) {
	return func(s *Session, run *Run) {
		if res, _ := s.Turn(step).ToolResult(id); !strings.Contains(res.Text, "Success") {
			s.Errorf("the scribe's patch %s did not apply: %q", id, res.Text)
		}
	}
}

// codexNoSearch is why Codex runs no search scenario.
const codexNoSearch = "Codex has no search tool of its own: its model searches with the shell, which the Bash guards judge (default-guards/read-env)"

func init() {
	codexCLI.Scenarios = []Scenario{
		{Name: "trust/untrusted-skipped", Run: codexUntrusted},
		{Name: "trust/trusted-as-init-says", Project: quoted, Run: codexTrusted},
		{Name: "confine/codex-own-sandbox", OutsideTmp: true, Run: codexOwnSandbox},
	}
	register(codexCLI)
}

// codexNative is the platform binary inside the install, or "".
func codexNative(prefix string) string {
	triple := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH] + "-unknown-linux-musl"
	pkg := map[string]string{"amd64": "codex-linux-x64", "arm64": "codex-linux-arm64"}[runtime.GOARCH]
	if runtime.GOOS != "linux" || pkg == "" {
		return ""
	}
	native := filepath.Join(prefix, "node_modules", "@openai", pkg, "vendor", triple, "bin", "codex")
	if _, err := os.Stat(native); err != nil {
		return ""
	}
	return native
}

// codexConfig is $HOME/.codex/config.toml (Codex's home when CODEX_HOME is
// not set, where massgen-hook init and doctor look for its trust too).
func codexConfig(s *Session) string { return filepath.Join(s.Home, ".codex", "config.toml") }

// codexSetup points Codex at the fake model API and trusts the project, as
// a user who runs Codex there has. The hooks are not trusted here: that is
// the user's step after `massgen-hook init` (codexTrust).
func codexSetup(s *Session) error {
	config := fmt.Sprintf(`model = %q
model_provider = "fake"
# No update check, no analytics: nothing leaves 127.0.0.1.
check_for_update_on_startup = false

[analytics]
enabled = false

# The curated plugins sync from github.com (chatgpt.com if that fails)
# at start-up.
[features]
plugins = false

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"
# A refused request ends the run at once instead of being asked again.
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"
`, codexModel, s.Model.URL(), s.Project)
	if err := os.MkdirAll(filepath.Dir(codexConfig(s)), 0o755); err != nil {
		return err
	}
	// Codex runs each command in a login shell (bash -lc), whose PATH
	// the profiles set (/etc/profile resets it for root): the user's own
	// profile carries the tools they use (Go), as a developer's does.
	profile := "PATH=\"$PATH\":'" + strings.ReplaceAll(os.Getenv("PATH"), "'", "") + "'\nexport PATH\n"
	if err := os.WriteFile(filepath.Join(s.Home, ".bash_profile"), []byte(profile), 0o644); err != nil {
		return err
	}
	return os.WriteFile(codexConfig(s), []byte(config), 0o644)
}

// codexFinal: codex exec prints the final answer, and nothing else, on
// stdout. Whether the turn completed is its exit status (a failed turn
// exits 1 with "ERROR: ..." on stderr), which codexChecked checks.
func codexFinal(stdout []byte) (Final, error) {
	text := strings.TrimSpace(string(stdout))
	if text == "" {
		return Final{}, errors.New("no answer on stdout")
	}
	raw, _ := json.Marshal(map[string]string{"answer": text})
	return Final{OK: true, Text: text, Raw: raw}, nil
}

// codexHookLine is how codex exec shows a hook run on stderr: "hook:
// EVENT" when it starts, "hook: EVENT STATUS" when it ends (Completed,
// Blocked, Failed, Stopped).
var codexHookLine = regexp.MustCompile(`(?m)^hook: (\w+)(?: (\w+))?$`)

// codexHookRuns is every hook run codex exec reported as ended, as
// "EVENT STATUS", in order.
func codexHookRuns(r *Run) []string {
	var out []string
	for _, m := range codexHookLine.FindAllStringSubmatch(string(r.Stderr), -1) {
		if m[2] != "" {
			out = append(out, m[1]+" "+m[2])
		}
	}
	return out
}

// codexChecked is every run's own check: the run succeeded only when
// codex exec exited 0; and whatever the scenario checks, Codex must report
// no hook run as failed.
func codexChecked(s *Session, run *Run) {
	s.t.Helper()
	if run.Err != nil {
		run.Final.OK = false
		run.Final.Raw, _ = json.Marshal(map[string]string{"exit": run.Err.Error(), "answer": run.Final.Text,
			"stderr": tail(run.Stderr, 600)})
	}
	s.t.Cleanup(func() { noCodexHookError(s, run) })
}

// noCodexHookError fails when Codex reported a hook run as failed: a hook
// that printed an answer Codex rejects (an explicit allow is one), exited
// with an error, or timed out. Codex then goes on as if there were no hook.
func noCodexHookError(s *Session, r *Run) {
	s.t.Helper()
	for _, run := range codexHookRuns(r) {
		if strings.HasSuffix(run, " Failed") {
			s.Errorf("Codex reported a hook error: %q (all runs: %s)", run, strings.Join(codexHookRuns(r), ", "))
			return
		}
	}
}

// codexTrust trusts the hooks `massgen-hook init --agent codex` wired
// the way init tells the user to: it appends the config.toml lines init
// printed to Codex's config.
func codexTrust(s *Session) {
	s.t.Helper()
	lines := codexTrustLines(s.initOut)
	if lines == "" {
		s.Fatalf("init --agent codex printed no config.toml lines to trust its hooks:\n%s", s.initOut)
	}
	f, err := os.OpenFile(codexConfig(s), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("\n" + lines); err != nil {
		s.t.Fatal(err)
	}
}

// codexTrustLines are the indented TOML lines init prints after "add these
// lines to ...config.toml:".
func codexTrustLines(initOut string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(initOut, "\n") {
		switch {
		case strings.Contains(line, "add these lines to") && strings.HasSuffix(line, "config.toml:"):
			in = true
		case in && strings.HasPrefix(line, "    "):
			b.WriteString(strings.TrimPrefix(line, "    ") + "\n")
		case in:
			in = false
		}
	}
	return b.String()
}

// codexDenyReason is the reason of a call a PreToolUse hook denied, as
// the model reads it in the call's output ("Command blocked by PreToolUse
// hook: REASON. Command: THE COMMAND"), or "" when the output is not a
// denial. Codex appends the command (a whole patch, for apply_patch), so
// only the reason tells what the hook said.
func codexDenyReason(output string) string {
	rest, ok := strings.CutPrefix(output, "Command blocked by PreToolUse hook: ")
	if !ok {
		return ""
	}
	reason, _, _ := strings.Cut(rest, ". Command: ")
	return reason
}

// Codex's tool calls, as the model makes them.

// cxShell runs command with the shell tool (exec_command, which hooks see
// as Bash).
func cxShell(id, command string) Reply {
	return Use(id, "exec_command", map[string]any{"cmd": command})
}

// cxPatch calls apply_patch, a freeform tool: its input is the patch text.
func cxPatch(id, patch string) Reply { return Use(id, "apply_patch", patch) }
