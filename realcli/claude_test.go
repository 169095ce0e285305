//go:build realcli

package realcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
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
	// A run takes 3 s of CPU; the rest of the budget is for a busy machine.
	Timeout: 3 * time.Minute,
}

// quoted is a project folder name with a space and a single quote: hook
// commands that quote the project path badly break there.
const quoted = "it's a project"

func init() {
	claudeCode.Scenarios = []Scenario{
		wiredScenario,
		{Name: "default-guards/read-env", Project: quoted, Run: claudeReadEnv},
		{Name: "default-guards/write-env", Project: quoted, Run: claudeWriteEnv},
		{Name: "default-guards/config-typo", Run: claudeConfigTypo},
		{Name: "plugin/first-use", Project: quoted, Run: claudePluginFirstUse},
		{Name: "audit/silent-pass", Run: claudeSilentPass},
		{Name: "session-start/context", Run: claudeSessionStart},
		{Name: "permission-request/scratchpad-writes", Project: quoted, Run: claudeScratchpadPermissions},
		{Name: "subagent-stop/blocks-then-allows", Project: quoted, Run: claudeSubagentProtocol},
		{Name: "subagent-stop/second-instance", Run: claudeSecondInstance},
		{Name: "subagent-stop/read-only-agent", Run: claudeReadOnlyAgent},
		{Name: "subagent-stop/release-notice", Run: claudeReleaseNotice},
		{Name: "stop/block-and-cap", Project: quoted, Run: claudeStopCap},
		{Name: "stop/other-session", Run: claudeOtherSession},
		{Name: "inbox/send-while-running", Project: quoted, Run: claudeInbox},
		{Name: "inbox/nats-across-machines", Project: quoted, Run: claudeInboxNATS},
		{Name: "rules/deny", Project: quoted, Run: claudeRuleDeny},
		{Name: "rules/rewrite", Run: claudeRuleRewrite},
		{Name: "rules/replace-output", Run: claudeReplaceOutput},
		{Name: "rules/inject-tool_result", Run: claudeInject("tool_result")},
		{Name: "rules/inject-user_message", Project: quoted, Run: claudeInject("user_message")},
		{Name: "rules/per-agent-in-subagent", Run: claudePerAgentRule},
		{Name: "smart-retry/repeated-failure", Run: claudeSmartRetry},
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
