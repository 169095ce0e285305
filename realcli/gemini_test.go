//go:build realcli

package realcli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// geminiModel is the model named on the command line: a fixed model, so
// Gemini CLI does not route each turn through a classifier call first.
const geminiModel = "gemini-2.5-pro"

// geminiCLI is Gemini CLI, run headless (-p) with --yolo as a headless user
// runs it, against the fake Gemini API.
var geminiCLI = &CLI{
	Name:     "gemini-cli",
	Version:  "0.61.0",
	Packages: []string{"@google/gemini-cli@0.61.0"},
	Agent:    "gemini",
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", ".bin", "gemini")
	},
	NewWire: func() Wire { return geminiWire{} },
	Setup:   geminiSetup,
	Command: func(s *Session, prompt string) ([]string, []string) {
		args := []string{"-p", prompt, "-m", geminiModel, "--output-format", "json"}
		if !s.DefaultApproval {
			args = append(args, "--yolo")
		}
		env := []string{
			"GOOGLE_GEMINI_BASE_URL=" + s.Model.URL(),
			"GEMINI_API_KEY=realcli-fake-key",
			// Gemini CLI otherwise starts itself a second time only to
			// raise node's heap limit: a second node start-up per run.
			"GEMINI_CLI_NO_RELAUNCH=true",
		}
		return args, env
	},
	Final:   geminiFinal,
	Timeout: 3 * time.Minute,
	Adapter: Adapter{
		Shell:     gShell,
		BashInput: shellInput,
		Read:      gRead,
		Search:    gGrep,
		Scribe:    geminiScribe,
		Delegate: func(s *Session, id, task string) (Reply, When) {
			return Use(id, "invoke_agent", map[string]any{"agent_name": "scribe", "prompt": task}), After(id)
		},
		// Its subagent's end runs no hook, so the scribe owes no
		// scratchpad: it completes its task at once.
		ScribeFinishes: func(s *Session, step, task string, when When) {
			s.Model.On(step+"-done", All(Subagent(task), when), Use("call_"+step+"_complete", geminiCompleteTask,
				map[string]any{"result": "wrote a note"}))
		},
		Overwrite: func(s *Session, id, rel, _, new string) (Reply, string) {
			return gWrite(id, rel, new+"\n"), "Write"
		},
		WriteNew: func(s *Session, id, rel, content string) Reply { return gWrite(id, s.Path(rel), content) },
		// is_background: the call returns once the command has run a
		// moment, and the job runs on as Gemini CLI's own.
		Background: func(id, command string) Reply {
			return Use(id, "run_shell_command", map[string]any{"command": command, "description": "run in the background", "is_background": true})
		},
		// The user's policy rule (~/.gemini/policies), which Gemini CLI
		// matches after the BeforeTool hooks, on the command they rewrote.
		ShellDeny: func(s *Session, words string) {
			writeHome(s, ".gemini/policies/realcli.toml", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \""+words+"\"\ndecision = \"deny\"\npriority = 500\n")
		},
		// Each call starts in the project, or its dir_path: a cd does not
		// carry over.
		CarriesCwd:   false,
		HookSettings: ".gemini/settings.json",
		// A BeforeTool deny is {"error": "Tool execution blocked: <reason>"}.
		Denial: denyMarked(regexp.MustCompile(`^Tool execution blocked: `)),
		// Its file tools refuse .env ("Path not in workspace").
		RefusesEnvItself: true,
		NoCallID:         "Gemini CLI gives hooks no call id: BeforeTool and AfterTool carry the tool's name and input only",
		// It shows a hook's context in the tool's result and may repeat
		// it in later turns' history.
		RepeatsContext: true,
		// An AfterTool deny's reason takes the tool result's place: a
		// replacement goes that way.
		ReplacesOutput: true,
		// A systemMessage is printed on stderr ("Hook system message").
		Shown: func(r *Run) string { return string(r.Stderr) },
		Prepare: map[string]func(*Session){
			"stop/block-and-cap": func(s *Session) { geminiCapture(s, "AfterAgent") },
			"rules/per-agent-in-subagent": func(s *Session) {
				geminiCapture(s, "BeforeTool")
				geminiCapture(s, "AfterAgent")
			},
		},
		Also: map[string]func(*Session, *Run){
			"stop/block-and-cap":            geminiStopRuns,
			"default-guards/search-project": geminiSearchRefused,
			"rules/per-agent-in-subagent":   geminiWhoseCall,
		},
		NA: map[string]string{
			"plugin/first-use":                     "massgen-hook ships as a plugin of Claude Code alone; here init wires it",
			"default-guards/apply-patch-add":       "Gemini CLI has no apply_patch tool",
			"default-guards/apply-patch-protected": "Gemini CLI has no apply_patch tool",
			"permission-request/scratchpad-writes": "only Claude Code asks before a write under .claude/; Gemini CLI writes there without a permission request to answer",
			"subagent-stop/blocks-then-allows":     geminiNoSubagentEvents,
			"subagent-stop/second-instance":        geminiNoSubagentEvents,
			"subagent-stop/read-only-agent":        geminiNoSubagentEvents,
			"subagent-stop/release-notice":         geminiNoSubagentEvents,
		},
	},
}

// geminiSetup writes the user's settings and trusts the project:
//   - the API key auth type, which -p needs with a base URL of its own
//     ("Invalid auth method selected." otherwise);
//   - no usage statistics, which Gemini CLI sends to play.googleapis.com;
//   - the project trusted (trustedFolders.json): in an untrusted folder
//     Gemini CLI drops --yolo and the project's settings, hooks included.
func geminiSetup(s *Session) error {
	dir := filepath.Join(s.Home, ".gemini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
	}
	trusted := map[string]string{s.Project: "TRUST_FOLDER"}
	for name, v := range map[string]any{"settings.json": settings, "trustedFolders.json": trusted} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// geminiFinal reads --output-format json's object: the answer in
// `response`, a failure in `error`.
func geminiFinal(stdout []byte) (Final, error) {
	raw := bytes.TrimSpace(stdout)
	var res struct {
		Response string          `json:"response"`
		Error    json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return Final{}, err
	}
	return Final{OK: len(res.Error) == 0, Text: res.Response, Raw: raw}, nil
}

// geminiNoSubagentEvents is why no subagent of Gemini CLI can be held to
// its scratchpad.
const geminiNoSubagentEvents = "Gemini CLI runs no hook when a subagent starts or ends, and its subagent's calls carry no agent id"

func init() {
	geminiCLI.Scenarios = []Scenario{
		{Name: "default-guards/dir-path", Run: geminiDirPath},
		{Name: "confine/user-rules", Run: geminiConfineUserRules},
		{Name: "confine/default-approval", Run: geminiConfineDefaultApproval},
		{Name: "mcp/filesystem-server-confined", Run: geminiMCPConfined},
	}
	register(geminiCLI)
}

// Gemini CLI's tool calls, as the model makes them.

func gShell(id, command string) Reply {
	return Use(id, "run_shell_command", map[string]any{"command": command, "description": "run a command"})
}

func gShellIn(id, dir, command string) Reply {
	return Use(id, "run_shell_command", map[string]any{"command": command, "dir_path": dir, "description": "run a command"})
}

func gRead(id, path string) Reply {
	return Use(id, "read_file", map[string]any{"file_path": path})
}

func gWrite(id, path, content string) Reply {
	return Use(id, "write_file", map[string]any{"file_path": path, "content": content})
}

func gGrep(id, pattern, dir string) Reply {
	return Use(id, "grep_search", map[string]any{"pattern": pattern, "dir_path": dir})
}

// geminiCapture adds a hook on event to the project's Gemini settings that
// keeps each payload Gemini CLI sends, one line each, for geminiCaptured:
// what the hooks were told, and how many times they ran. It answers
// nothing, so Gemini CLI goes by massgen-hook's answers alone.
func geminiCapture(s *Session, event string) {
	s.t.Helper()
	file := filepath.Join(s.Root, "captured-"+event+".jsonl")
	path := s.Path(".gemini/settings.json")
	data, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(data, &settings); err != nil {
		s.t.Fatal(err)
	}
	hooks, _ := settings["hooks"].(map[string]any)
	groups, _ := hooks[event].([]any)
	hooks[event] = append(groups, map[string]any{"matcher": "*", "hooks": []any{map[string]any{
		"name": "realcli capture", "type": "command", "timeout": 10000,
		// s.Root has no quote or space (os.MkdirTemp under TMPDIR).
		"command": "{ cat; echo; } >> '" + file + "'",
	}}})
	out, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// geminiCaptured is every payload of event the capture hook kept.
func geminiCaptured(s *Session, event string) []map[string]any {
	s.t.Helper()
	data, _ := os.ReadFile(filepath.Join(s.Root, "captured-"+event+".jsonl"))
	var out []map[string]any
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			s.Errorf("captured %s payload %q: %v", event, clip(string(line), 200), err)
			continue
		}
		out = append(out, ev)
	}
	return out
}
