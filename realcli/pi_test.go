//go:build realcli

package realcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// piModel is the model pi is told to use: the fake Messages API's, declared
// in the user's models.json as a provider of its own.
const (
	piProvider = "realcli"
	piModel    = "claude-fake"
)

// piCLI is pi (npm @mariozechner/pi-coding-agent), run headless in JSON
// mode (--mode json: print mode, with every event on stdout) against the
// fake Anthropic Messages API, served by massgen-hook's extension.
var piCLI = &CLI{
	Name:     "pi",
	Version:  "0.73.1",
	Packages: []string{"@mariozechner/pi-coding-agent@0.73.1"},
	Agent:    "pi",
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", ".bin", "pi")
	},
	// PI_OFFLINE: no version check and no download of the tools pi
	// fetches on first use (ripgrep, fd); PI_TELEMETRY=0: no install ping.
	Env:     func(string) []string { return []string{"PI_OFFLINE=1", "PI_TELEMETRY=0"} },
	NewWire: func() Wire { return anthropicWire{} },
	Setup:   piSetup,
	Command: func(s *Session, prompt string) ([]string, []string) {
		return []string{"-p", prompt, "--mode", "json", "--provider", piProvider, "--model", piModel}, nil
	},
	Final:   piFinal,
	Timeout: 3 * time.Minute,
	Adapter: Adapter{
		Shell:     func(id, command string) Reply { return Use(id, "bash", map[string]any{"command": command}) },
		BashInput: func(command string) map[string]any { return map[string]any{"command": command} },
		Read:      func(id, path string) Reply { return Use(id, "read", map[string]any{"path": path}) },
		// edit takes a list of replacements: hooks see Claude Code's
		// MultiEdit.
		Overwrite: func(s *Session, id, rel, old, new string) (Reply, string) {
			return piEdit(id, s.Path(rel), old, new), "MultiEdit"
		},
		WriteNew: func(s *Session, id, rel, content string) Reply {
			return Use(id, "write", map[string]any{"path": s.Path(rel), "content": content})
		},
		Append: func(s *Session, id, rel, before, lines string) Reply {
			last := lastLine(before)
			return piEdit(id, s.Path(rel), last, last+"\n"+strings.TrimSuffix(lines, "\n"))
		},
		Denial: denyMarked(piDeniedMark),
		// A command that exits non-zero is a failed call (isError), its
		// text ending "Command exited with code N".
		ShellFailed: func(res Block) bool { return res.IsError && strings.Contains(res.Text, "Command exited with code ") },
		// tool_result's content is what the model reads: the extension
		// puts a replacement there.
		ReplacesOutput: true,
		// In print and JSON mode the extension writes what the user is to
		// see on stderr.
		Shown: func(r *Run) string { return string(r.Stderr) },
		// Every call runs in a fresh bash in the session's folder.
		CarriesCwd:   false,
		HookSettings: piExtension,
		NA: map[string]string{
			"plugin/first-use":                     "massgen-hook ships as a plugin of Claude Code alone; here init wires it",
			"default-guards/apply-patch-add":       "pi has no apply_patch tool",
			"default-guards/apply-patch-protected": "pi has no apply_patch tool",
			"default-guards/grep-env":              piNoSearch,
			"default-guards/search-project":        piNoSearch,
			"permission-request/scratchpad-writes": "pi asks nothing before a write: there is no permission request to answer",
			"stop/block-and-cap":                   piNoSubagents,
			"subagent-stop/blocks-then-allows":     piNoSubagents,
			"subagent-stop/second-instance":        piNoSubagents,
			"subagent-stop/read-only-agent":        piNoSubagents,
			"subagent-stop/release-notice":         piNoSubagents,
			"rules/per-agent-in-subagent":          piNoSubagents,
		},
	},
}

const (
	piNoSubagents = "pi 0.73.1 has no subagents: no tool hands a task to another agent, and no event says one started or ended"
	piNoSearch    = "pi 0.73.1 offers its grep, find and ls tools only when the user names them (--tools), and fetches ripgrep and fd for them from the network on first use"
	// piExtension is the file init writes in the project.
	piExtension = ".pi/extensions/massgen-hook.ts"
)

// piDeniedMark opens the result pi hands the model for a call
// massgen-hook's extension blocked (pi marks it failed).
var piDeniedMark = regexp.MustCompile(`^Blocked by massgen-hook: `)

func init() { register(piCLI) }

func piEdit(id, path, old, new string) Reply {
	return Use(id, "edit", map[string]any{"path": path, "edits": []map[string]string{{"oldText": old, "newText": new}}})
}

// piSetup declares the fake Messages API as a provider in the user's
// models.json, with one model that does not reason.
func piSetup(s *Session) error {
	models := map[string]any{"providers": map[string]any{piProvider: map[string]any{
		"baseUrl": s.Model.URL(), "api": "anthropic-messages", "apiKey": "sk-realcli-fake-provider-key",
		"models": []map[string]any{{"id": piModel, "reasoning": false, "input": []string{"text"},
			"contextWindow": 200000, "maxTokens": 8192}},
	}}}
	b, err := json.MarshalIndent(models, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Join(s.Home, ".pi", "agent")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "models.json"), b, 0o644)
}

// piFinal reads --mode json's JSON lines: the answer is the last
// assistant message that ended (message_end); the run failed when it
// ended in an error or was aborted. Not agent_end's: pi 0.73.1 writes an
// event only once every extension's handler of it returned, and exits
// without waiting for agent_end's (massgen-hook's runs the stop hook).
func piFinal(stdout []byte) (Final, error) {
	var last json.RawMessage
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		var ev struct {
			Type    string          `json:"type"`
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(line, &ev) != nil || ev.Type != "message_end" {
			continue
		}
		var msg struct{ Role string }
		if json.Unmarshal(ev.Message, &msg) == nil && msg.Role == "assistant" {
			last = ev.Message
		}
	}
	if last == nil {
		return Final{}, errors.New("no assistant message ended: " + clip(string(stdout), 300))
	}
	var msg struct {
		StopReason string `json:"stopReason"`
		Content    []struct {
			Type, Text string
		} `json:"content"`
	}
	if err := json.Unmarshal(last, &msg); err != nil {
		return Final{}, err
	}
	var text []string
	for _, c := range msg.Content {
		if c.Type == "text" {
			text = append(text, c.Text)
		}
	}
	ok := msg.StopReason != "error" && msg.StopReason != "aborted"
	return Final{OK: ok, Text: strings.Join(text, "\n"), Raw: last}, nil
}
