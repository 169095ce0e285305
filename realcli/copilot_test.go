//go:build realcli

package realcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Copilot CLI's models in bring-your-own-key mode. A Claude model is
// offered bash, view, create, edit, grep, glob and task; a GPT-5 model
// apply_patch (a freeform tool: its input is the raw patch) and rg instead
// of create, edit and grep.
const (
	copilotClaude = "claude-sonnet-4.6"
	copilotGPT    = "gpt-5.4"
)

// copilotCLI is GitHub Copilot CLI, run headless (-p) as a headless user
// runs it, against the fake Chat Completions API in its bring-your-own-key
// mode.
var copilotCLI = &CLI{
	Name:     "copilot-cli",
	Version:  "1.0.102",
	Packages: []string{"@github/copilot@1.0.102"},
	Agent:    "copilot",
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", ".bin", "copilot")
	},
	// On first start Copilot unpacks about 235 MB under XDG_CACHE_HOME:
	// keep that beside the install, so every run shares it (the install's
	// `--version` check unpacks it, once, before any scenario runs).
	// COPILOT_OFFLINE: no GitHub sign-in, telemetry or update check.
	Env: func(prefix string) []string {
		return []string{"XDG_CACHE_HOME=" + filepath.Join(prefix, "xdg-cache"), "COPILOT_OFFLINE=true"}
	},
	NewWire: func() Wire { return chatWire{} },
	Setup:   copilotSetup,
	// --allow-all-tools: -p cannot ask, and a headless user allows the
	// tools so. --trust-folder: without it -p loads no project hooks
	// (.github/hooks). --no-ask-user: no ask_user tool, nobody answers.
	// --disable-builtin-mcps: the GitHub MCP servers would reach for
	// github.com. The model is COPILOT_MODEL (a scenario's s.Env may name
	// the GPT model); the key is long so Copilot's masking of the key's
	// value in its output does not mangle the output.
	Command: func(s *Session, prompt string) ([]string, []string) {
		args := []string{"-p", prompt, "--allow-all-tools", "--trust-folder", "--no-ask-user",
			"--disable-builtin-mcps", "--output-format", "json"}
		env := []string{
			"COPILOT_PROVIDER_BASE_URL=" + s.Model.URL() + "/v1",
			"COPILOT_PROVIDER_API_KEY=sk-realcli-fake-provider-key",
			"COPILOT_MODEL=" + copilotClaude,
			"COPILOT_AUTO_UPDATE=false",
		}
		return args, env
	},
	Final:   copilotFinal,
	Timeout: 3 * time.Minute,
	Adapter: Adapter{
		Shell:     cpBash,
		BashInput: shellInput,
		Read:      cpView,
		Overwrite: func(s *Session, id, rel, old, new string) (Reply, string) {
			return cpEdit(id, s.Path(rel), old, new), "Edit"
		},
		Patch:      cpPatch,
		PatchReady: copilotUseGPT,
		Scribe:     copilotScribe,
		Delegate: func(s *Session, id, task string) (Reply, When) {
			return cpTask(id, "scribe", task), After(id)
		},
		ScribeFinishes: func(s *Session, step, task string, when When) { copilotScribeWrites(s, step, task, when) },
		Explore:        func(s *Session, id, task string) (Reply, When) { return cpTask(id, "explore", task), After(id) },
		WriteNew:       func(s *Session, id, rel, content string) Reply { return cpCreate(id, s.Path(rel), content) },
		// edit replaces the last line with itself and the new lines.
		Append: func(s *Session, id, rel, before, lines string) Reply {
			last := lastLine(before)
			return cpEdit(id, s.Path(rel), last, last+"\n"+strings.TrimSuffix(lines, "\n"))
		},
		Search:         func(id, pattern, dir string) Reply { return cpGrep(id, pattern, dir) },
		Denial:         denyAfter(copilotDenied),
		NoCallID:       "Copilot CLI gives hooks no call id: preToolUse and postToolUse carry toolName and toolArgs only",
		ReplacesOutput: true,

		// The user's rule is a flag of the run (1.0.102 reads no tool rule
		// from a settings file); it matches a command by its first words.
		ShellDeny: func(s *Session, words string) { s.Args = append(s.Args, "--deny-tool=shell("+words+")") },
		RuleDenied: func(res Block) bool {
			return strings.HasPrefix(res.Text, "Permission to run this tool was denied due to the following rules: ")
		},
		// Every call runs in a fresh `bash -c` in the session's folder: a
		// cd or an export is gone by the next call.
		CarriesCwd: false,
		Background: cpBashAsync,

		Also: map[string]func(*Session, *Run){
			"smart-retry/repeated-failure": copilotRetryLearnt,
			"subagent-stop/read-only-agent": func(s *Session, run *Run) {
				s.Observe("explore is offered: %s", strings.Join(chatToolNames(s.Turn("explore-stops")), ", "))
			},
			"session-start/context": copilotSessionSource,
		},
		NA: map[string]string{
			"plugin/first-use":                     "massgen-hook ships as a plugin of Claude Code alone; here init wires it",
			"permission-request/scratchpad-writes": "only Claude Code asks before a write under .claude/; Copilot CLI writes there without a permission request to answer",
		},
	},
}

// copilotSessionSource records the source Copilot CLI's sessionStart
// gives (Claude Code's is "startup").
func copilotSessionSource(s *Session, run *Run) {
	for _, r := range copilotHookRuns(s) {
		if r.Type == "sessionStart" {
			s.Observe("sessionStart source %q", r.Input["source"])
		}
	}
}

// copilotRetryLearnt: Copilot CLI reports a bash command that exits
// non-zero as a success whose text gives the exit code, which the retry
// guard's denial quotes; and a failed view reaches the hooks only as
// postToolUseFailure, which init wires: without it the third view would
// not have been denied.
func copilotRetryLearnt(s *Session, run *Run) {
	wantDenied(s, s.Turn("done"), "call_r3", "Exit code 2")
	failures := 0
	for _, r := range copilotHookRuns(s) {
		if r.Type == "postToolUseFailure" {
			failures++
		}
	}
	if failures != 2 {
		s.Errorf("Copilot CLI ran postToolUseFailure %d times, want 2 (the two failed views)", failures)
	}
}

func init() {
	copilotCLI.Scenarios = []Scenario{
		{Name: "default-guards/grep-paths", Project: quoted, Run: copilotGrepPaths},
		{Name: "subagent-stop/agent-stop-in-subagent", Run: copilotAgentStopInSubagent},
	}
	register(copilotCLI)
}

// copilotFinal reads --output-format json's JSONL: the last line is
// {"type":"result","exitCode":N,...}; the answer is the main agent's last
// assistant.message (a subagent's carry parentToolCallId).
func copilotFinal(stdout []byte) (Final, error) {
	var text string
	for _, ev := range copilotEvents(stdout) {
		if ev.Type == "assistant.message" && ev.Data.ParentToolCallID == "" {
			text = ev.Data.Content
		}
	}
	lines := bytes.Split(bytes.TrimSpace(stdout), []byte("\n"))
	last := lines[len(lines)-1]
	var res struct {
		Type     string `json:"type"`
		ExitCode *int   `json:"exitCode"`
	}
	if err := json.Unmarshal(last, &res); err != nil {
		return Final{}, err
	}
	if res.Type != "result" || res.ExitCode == nil {
		return Final{}, errors.New("the last line is not the result: " + clip(string(last), 200))
	}
	return Final{OK: *res.ExitCode == 0, Text: text, Raw: last}, nil
}

// copilotEvent is one line of --output-format json.
type copilotEvent struct {
	Type string `json:"type"`
	Data struct {
		Content          string `json:"content"`
		ParentToolCallID string `json:"parentToolCallId"`
	} `json:"data"`
	Raw json.RawMessage `json:"-"`
}

func copilotEvents(stdout []byte) []copilotEvent {
	var out []copilotEvent
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		var ev copilotEvent
		if json.Unmarshal(line, &ev) == nil && ev.Type != "" {
			ev.Raw = append(json.RawMessage(nil), line...)
			out = append(out, ev)
		}
	}
	return out
}

// copilotUseGPT makes the scenario's runs use the GPT model, whose tools
// are apply_patch and rg.
func copilotUseGPT(s *Session) { s.Env = append(s.Env, "COPILOT_MODEL="+copilotGPT) }

// Copilot CLI's tool calls, as the model makes them.

func cpBash(id, command string) Reply {
	return Use(id, "bash", map[string]any{"command": command, "description": "run a command"})
}

// cpBashAsync starts command in the background (mode async), as a shell
// session named by the call's id, which the model reads with read_bash.
func cpBashAsync(id, command string) Reply {
	return Use(id, "bash", map[string]any{"command": command, "description": "run in the background", "mode": "async", "shellId": id})
}

func cpView(id, path string) Reply { return Use(id, "view", map[string]any{"path": path}) }

func cpCreate(id, path, text string) Reply {
	return Use(id, "create", map[string]any{"path": path, "file_text": text})
}

func cpEdit(id, path, old, new string) Reply {
	return Use(id, "edit", map[string]any{"path": path, "old_str": old, "new_str": new})
}

// cpGrep searches paths (Copilot's grep takes one path or a list).
func cpGrep(id, pattern string, paths ...string) Reply {
	return Use(id, "grep", map[string]any{"pattern": pattern, "paths": paths, "output_mode": "content"})
}

// cpPatch is the GPT models' apply_patch: a freeform tool, whose input is
// the patch text itself.
func cpPatch(id, patch string) Reply { return Use(id, "apply_patch", patch) }

// cpTask starts a subagent of agentType on task and waits for it.
func cpTask(id, agentType, task string) Reply {
	return Use(id, "task", map[string]any{"name": agentType, "description": "delegate " + clip(task, 20),
		"agent_type": agentType, "prompt": task, "mode": "sync"})
}

// copilotDenied is how Copilot CLI tells the model a preToolUse hook denied
// the call: the tool message's text, before the reason.
const copilotDenied = "Denied by preToolUse hook: "

// copilotHookRun is one hook event Copilot CLI ran, as its session log
// (~/.copilot/session-state/<session>/events.jsonl) records it: the event,
// what the hooks were given and what they answered (merged, when several
// hooks of the event ran).
type copilotHookRun struct {
	Type   string         `json:"hookType"`
	ID     string         `json:"hookInvocationId"`
	Input  map[string]any `json:"input"`
	Output map[string]any `json:"output"`
}

// copilotHookRuns is every hook event of the run, in the order they
// started.
func copilotHookRuns(s *Session) []copilotHookRun {
	files, _ := filepath.Glob(filepath.Join(s.Home, ".copilot", "session-state", "*", "events.jsonl"))
	var runs []copilotHookRun
	at := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var ev struct {
				Type string         `json:"type"`
				Data copilotHookRun `json:"data"`
			}
			if json.Unmarshal(line, &ev) != nil {
				continue
			}
			switch ev.Type {
			case "hook.start":
				at[ev.Data.ID] = len(runs)
				runs = append(runs, ev.Data)
			case "hook.end":
				if i, ok := at[ev.Data.ID]; ok {
					runs[i].Output = ev.Data.Output
				}
			}
		}
	}
	return runs
}

// copilotSetup logs, when a scenario fails, every hook event Copilot CLI
// ran with what the hooks answered: in CI the scenario's folder, with
// Copilot's own session log, is not kept.
func copilotSetup(s *Session) error {
	s.t.Cleanup(func() {
		if !s.t.Failed() {
			return
		}
		var lines []string
		for _, r := range copilotHookRuns(s) {
			in, _ := json.Marshal(r.Input)
			out, _ := json.Marshal(r.Output)
			lines = append(lines, fmt.Sprintf("%s %s → %s", r.Type, clip(string(in), 300), clip(string(out), 300)))
		}
		s.t.Logf("Copilot CLI's hook runs:\n%s", strings.Join(lines, "\n"))
	})
	return nil
}
