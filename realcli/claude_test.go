//go:build realcli

package realcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// claudeTools are the tools a headless user allows with --allowedTools; the
// run stays in the default permission mode, as theirs does.
const claudeTools = "Bash,Read,Write,Edit,Agent"

var claudeCode = &CLI{
	Name:     "claude-code",
	Version:  "2.1.328",
	Packages: []string{"@anthropic-ai/claude-code@2.1.328"},
	Agent:    "claude",
	// The npm package is a launcher; its postinstall copies the native
	// binary from the platform's optional package. Run that binary itself
	// when it is there, so a skipped postinstall does not matter.
	Executable: func(prefix string) string {
		native := filepath.Join(prefix, "node_modules", "@anthropic-ai", "claude-code-"+claudePlatform(), "claude")
		if _, err := os.Stat(native); err == nil {
			return native
		}
		return filepath.Join(prefix, "node_modules", ".bin", "claude")
	},
	NewWire: func() Wire { return anthropicWire{} },
	Command: func(s *Session, prompt string) ([]string, []string) {
		debug := filepath.Join(s.Root, "claude-debug.log")
		s.Logs = append(s.Logs, debug)
		args := []string{"-p", prompt, "--output-format", "stream-json", "--verbose",
			"--allowedTools", claudeTools, "--debug-file", debug}
		env := []string{
			"ANTHROPIC_BASE_URL=" + s.Model.URL(),
			"ANTHROPIC_API_KEY=sk-ant-realcli-fake",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"DISABLE_AUTOUPDATER=1",
			"CLAUDE_CODE_TMPDIR=" + s.Tmp,
		}
		return args, env
	},
	Final: claudeFinal,
	Adapter: Adapter{
		Shell: ccBash,
		Background: func(id, command string) Reply {
			return Use(id, "Bash", map[string]any{"command": command, "description": "run in the background", "run_in_background": true})
		},
		BashInput: shellInput,
		Read:      ccRead,
		Overwrite: func(s *Session, id, rel, _, new string) (Reply, string) {
			return ccWrite(id, s.Path(rel), new+"\n"), "Write"
		},
		PluginArgs: func(dir string) []string { return []string{"--plugin-dir", dir} },
		Scribe:     func(s *Session) { s.WriteFile(".claude/agents/scribe.md", scribeAgent) },
		Delegate: func(s *Session, id, task string) (Reply, When) {
			return ccAgent(id, "scribe", task), After(id)
		},
		ScribeFinishes: func(s *Session, step, task string, when When) {
			pad := "call_" + step + "_pad"
			s.Model.On(step+"-writes", All(Subagent(task), when),
				ccWrite(pad, s.Path(Scratchpad("scribe", s.Today())), scratchpadBody("wrote a note")))
			s.Model.On(step+"-stops", All(Subagent(task), After(pad)), Say("note written"))
		},
		Explore:  func(s *Session, id, task string) (Reply, When) { return ccAgent(id, "Explore", task), After(id) },
		WriteNew: func(s *Session, id, rel, content string) Reply { return ccWrite(id, s.Path(rel), content) },
		// Write takes the whole new content.
		Append: func(s *Session, id, rel, before, lines string) Reply { return ccWrite(id, s.Path(rel), before+lines) },
		// A deny is "PreToolUse:<tool> hook error: <reason>".
		Denial:      denyMarked(regexp.MustCompile(`^PreToolUse:\w+ hook error: `)),
		ShellFailed: func(res Block) bool { return res.IsError },
		ShellPrefix: true,
		ShellDeny: func(s *Session, words string) {
			writeHome(s, ".claude/settings.json", `{"permissions":{"deny":["Bash(`+words+`:*)"]}}`+"\n")
		},
		CarriesCwd: true,
		// A hook's additionalContext is shown both in the tool result
		// and as a system message of its own.
		RepeatsContext: true,
		ReplacesOutput: true,
		OutputObject:   true,
		Shown:          claudeShown,
		Also: map[string]func(*Session, *Run){
			"subagent-stop/blocks-then-allows": claudeScratchpadGranted,
		},
		NA: map[string]string{
			"default-guards/grep-env":              claudeNoSearch,
			"default-guards/search-project":        claudeNoSearch,
			"default-guards/apply-patch-add":       "Claude Code has no apply_patch tool",
			"default-guards/apply-patch-protected": "Claude Code has no apply_patch tool",
		},
	},
	// A run takes 3 s of CPU; the rest of the budget is for a busy machine.
	Timeout: 3 * time.Minute,
}

// quoted is a project folder name with a space and a single quote: hook
// commands that quote the project path badly break there.
const quoted = "it's a project"

// claudeNoSearch is why Claude Code runs no search scenario: it offers
// its model Agent, Bash, Edit, Read, Write and its own tools, no Grep or
// Glob (a call of Grep gets "No such tool available").
const claudeNoSearch = "Claude Code 2.1.328 offers its model no search tool (no Grep or Glob): it searches with Bash, which the Bash guards judge (default-guards/read-env)"

func init() {
	claudeCode.Scenarios = []Scenario{
		{Name: "permission-request/scratchpad-writes", Project: quoted, Run: claudeScratchpadPermissions},
		{Name: "subagent-stop/release-notice", Run: claudeReleaseNotice},
		{Name: "mcp/filesystem-server", Run: claudeMCPFilesystem},
		{Name: "mcp/filesystem-server-confined", Run: claudeMCPConfined},
	}
	register(claudeCode)
}

// claudePlatform names the platform package of the native binary.
func claudePlatform() string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	return runtime.GOOS + "-" + arch
}

// claudeFinal reads the last stream-json line: {"type":"result",...}.
func claudeFinal(stdout []byte) (Final, error) {
	lines := bytes.Split(bytes.TrimSpace(stdout), []byte("\n"))
	last := lines[len(lines)-1]
	var res struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	if err := json.Unmarshal(last, &res); err != nil {
		return Final{}, err
	}
	if res.Type != "result" {
		return Final{}, errors.New("the last line is a " + res.Type + " event, not the result")
	}
	return Final{OK: res.Subtype == "success" && !res.IsError, Text: res.Result, Raw: last}, nil
}

// claudeEvents is every stream-json event of a run.
func claudeEvents(stdout []byte) []map[string]any {
	var out []map[string]any
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		var ev map[string]any
		if json.Unmarshal(line, &ev) == nil {
			out = append(out, ev)
		}
	}
	return out
}

// claudeShown is what stream-json shows the user of hooks' messages: the
// content of its system events (hook_response events carry a hook's raw
// output, shown or not).
func claudeShown(r *Run) string {
	var b strings.Builder
	for _, ev := range claudeEvents(r.Stdout) {
		if ev["type"] == "system" && ev["subtype"] != "hook_response" {
			b.WriteString(fmt.Sprint(ev["content"]) + "\n")
		}
	}
	return b.String()
}

// Claude Code's tool calls, as the model makes them.

func ccBash(id, command string) Reply {
	return Use(id, "Bash", map[string]any{"command": command, "description": "run a command"})
}

func ccWrite(id, path, content string) Reply {
	return Use(id, "Write", map[string]any{"file_path": path, "content": content})
}

func ccRead(id, path string) Reply {
	return Use(id, "Read", map[string]any{"file_path": path})
}

// ccAgent starts a subagent of agentType on task and waits for it.
func ccAgent(id, agentType, task string) Reply {
	return Use(id, "Agent", map[string]any{"description": "delegate " + task, "prompt": task,
		"subagent_type": agentType, "run_in_background": false})
}
