//go:build realcli

package realcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// opencodeModel is the fake provider's model a run uses, as OpenCode names
// it (provider/model), unless a scenario picks opencodeGPT. OpenCode
// 1.18.33 offers apply_patch in place of edit and write to a model whose id
// has "gpt-" in it and neither "gpt-4" nor "oss" (its tool registry), of
// any provider: opencodeModel has none, opencodeGPT has.
const (
	opencodeProvider = "realcli"
	opencodeModel    = "claude-fake"
	opencodeGPT      = "gpt-fake"
)

// opencodeCLI is OpenCode, run headless (`opencode run`) against the fake
// Chat Completions API as a custom provider of its bundled
// @ai-sdk/openai-compatible package, so nothing is downloaded at run time.
var opencodeCLI = &CLI{
	Name:     "opencode",
	Version:  "1.18.33",
	Packages: []string{"opencode-ai@1.18.33"},
	Agent:    "opencode",
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", ".bin", "opencode")
	},
	// No models.dev catalogue fetch, update check, share link, default
	// plugins from npm or language server downloads: every run stays on
	// 127.0.0.1.
	Env: func(string) []string {
		return []string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_SHARE=1",
			"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1"}
	},
	NewWire: func() Wire { return opencodeWire{} },
	Setup:   opencodeSetup,
	// `run` allows every tool unless a permission rule says otherwise:
	// the headless user's default. The model is the config's (the user's
	// opencode.json, or a scenario's choice over it).
	Command: func(s *Session, prompt string) ([]string, []string) {
		return []string{"run", "--format", "json", prompt}, nil
	},
	Final:   opencodeFinal,
	Timeout: 4 * time.Minute,
	Adapter: Adapter{
		Shell:     ocBash,
		BashInput: shellInput,
		Read:      func(id, path string) Reply { return Use(id, "read", map[string]any{"filePath": path}) },
		Overwrite: func(s *Session, id, rel, old, new string) (Reply, string) {
			return ocEdit(id, s.Path(rel), old, new), "Edit"
		},
		Patch:      ocPatch,
		PatchReady: opencodeUseGPT,
		Search: func(id, pattern, dir string) Reply {
			return Use(id, "grep", map[string]any{"pattern": pattern, "path": dir})
		},
		Scribe: func(s *Session) { s.WriteFile(".opencode/agents/scribe.md", scribeOpenCodeAgent) },
		Delegate: func(s *Session, id, task string) (Reply, When) {
			return ocTask(id, "scribe", task), After(id)
		},
		ScribeFinishes: opencodeScribeWrites,
		// Its built-in explore agent reads and searches (and runs bash).
		Explore: func(s *Session, id, task string) (Reply, When) { return ocTask(id, "explore", task), After(id) },
		WriteTools: func(r *Request) []string {
			var out []string
			for _, t := range chatToolNames(r) {
				if t == "write" || t == "edit" || t == "apply_patch" {
					out = append(out, t)
				}
			}
			return out
		},
		WriteNew: func(s *Session, id, rel, content string) Reply { return ocWrite(id, s.Path(rel), content) },
		// edit replaces the last line with itself and the new lines.
		Append: func(s *Session, id, rel, before, lines string) Reply {
			last := lastLine(before)
			return ocEdit(id, s.Path(rel), last, last+"\n"+strings.TrimSuffix(lines, "\n"))
		},
		// The plugin's throw is the call's result, as it was thrown.
		Denial:         denySuffix(opencodeDenied),
		ReplacesOutput: true,
		// The plugin writes what massgen-hook tells the user on stderr,
		// which `opencode run` leaves on the terminal.
		Shown: func(r *Run) string { return string(r.Stderr) },

		// The user's own rule (opencode.json permission.bash), which
		// OpenCode asks about every command of the line the plugin handed
		// back.
		ShellDeny: func(s *Session, words string) {
			writeHome(s, ".config/opencode/opencode.json", opencodeConfig(s, map[string]any{
				"bash": map[string]any{words + "*": "deny"}}))
		},
		RuleDenied: func(res Block) bool {
			return strings.HasPrefix(res.Text, "The user has specified a rule which prevents you from using this specific tool call")
		},
		// The model reads a command's output alone; its exit code is in
		// the call's metadata, which --format json prints.
		ShellExit: opencodeShellExit,
		// Each call is a fresh shell in the session's folder (or its
		// workdir).
		CarriesCwd:   false,
		HookSettings: ".opencode/plugins/massgen-hook.js",

		NA: map[string]string{
			"plugin/first-use":                     "massgen-hook ships as a plugin of Claude Code alone; here init writes OpenCode's plugin",
			"permission-request/scratchpad-writes": "OpenCode 1.18.33 never runs a plugin's permission.ask hook, and writes under .claude/ without asking",
			"stop/block-and-cap":                   opencodeNoStop,
		},
		NoStopGate: opencodeNoStop,
		Also: map[string]func(*Session, *Run){
			"subagent-stop/blocks-then-allows": opencodeSentBack,
		},
	},
}

// opencodeNoStop is why OpenCode's stop cannot be held.
const opencodeNoStop = "OpenCode 1.18.33 has no hook before an agent stops: session.idle is an event after the turn ended, " +
	"which a plugin cannot refuse, so a stop block is only told to the user"

// opencodeDenied ends a call's result the plugin blocked: the thrown
// reason is the result, and the dialect names massgen-hook after it.
const opencodeDenied = "\n\n(denied by massgen-hook)"

// denySuffix is the Denial of a CLI that hands the model a block's reason
// as the call's result, with suffix after it.
func denySuffix(suffix string) func(Block) (string, bool) {
	return func(res Block) (string, bool) { return strings.CutSuffix(res.Text, suffix) }
}

func init() {
	opencodeCLI.Scenarios = []Scenario{
		{Name: "plugin/binary-gone", Run: opencodeBinaryGone},
	}
	register(opencodeCLI)
}

// scribeOpenCodeAgent is an OpenCode subagent (.opencode/agents) with
// OpenCode's default tools.
const scribeOpenCodeAgent = `---
description: Writes short notes when asked to.
mode: subagent
---
You write short notes.
`

// opencodeScribeWrites scripts the scribe on task writing its scratchpad
// with the write tool, then stopping.
func opencodeScribeWrites(s *Session, id, task string, w When) {
	m := s.Model
	m.On(id+"-writes", All(Subagent(task), w), ocWrite("call_"+id+"_pad", s.Path(Scratchpad("scribe", s.Today())), scratchpadBody("wrote a note")))
	m.On(id+"-stops", All(Subagent(task), After("call_"+id+"_pad")), Say("note written"))
}

// opencodeConfig is the user's opencode.json: the fake provider, its model,
// no update or share, and the permission rules given (nil: none).
func opencodeConfig(s *Session, permission map[string]any) string {
	cfg := map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{opencodeProvider: map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "realcli",
			"options": map[string]any{"baseURL": s.Model.URL() + "/v1", "apiKey": "sk-realcli-fake"},
			"models": map[string]any{
				opencodeModel: map[string]any{"name": opencodeModel, "tool_call": true},
				opencodeGPT:   map[string]any{"name": opencodeGPT, "tool_call": true},
			},
		}},
		"model":       opencodeProvider + "/" + opencodeModel,
		"small_model": opencodeProvider + "/" + opencodeModel,
		"autoupdate":  false,
		"share":       "disabled",
	}
	if permission != nil {
		cfg["permission"] = permission
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	return string(b)
}

// opencodeUseGPT makes the scenario's runs use opencodeGPT, offered
// apply_patch in place of edit and write: OPENCODE_CONFIG_CONTENT is
// merged over every config file.
func opencodeUseGPT(s *Session) {
	s.Env = append(s.Env, `OPENCODE_CONFIG_CONTENT={"model":"`+opencodeProvider+"/"+opencodeGPT+`"}`)
}

// opencodeSetup writes the user's config, marks OpenCode's plugin package
// installed in its config folders, and keeps OpenCode's own log for a
// failed scenario.
func opencodeSetup(s *Session) error {
	writeHome(s, ".config/opencode/opencode.json", opencodeConfig(s, nil))
	for _, dir := range []string{filepath.Join(s.Home, ".config", "opencode"), s.Path(".opencode")} {
		if err := opencodePluginPackage(dir); err != nil {
			return err
		}
	}
	s.Logs = append(s.Logs, filepath.Join(s.Home, ".local", "share", "opencode", "log", "opencode.log"))
	return nil
}

// opencodePluginPackage makes dir look as if @opencode-ai/plugin were
// installed there. At every start OpenCode 1.18.33 runs an npm install of
// that package (the plugin API's types) in each of its config folders
// (~/.config/opencode, the project's .opencode) that lacks it, in the
// background, its failure only logged; massgen-hook's plugin imports
// nothing from it. Marked installed (a node_modules folder, and the
// package in both package.json and package-lock.json), the runs stay on
// 127.0.0.1.
func opencodePluginPackage(dir string) error {
	const pkg = "@opencode-ai/plugin"
	deps := map[string]any{"dependencies": map[string]string{pkg: "1.18.33"}}
	lock := map[string]any{"lockfileVersion": 3, "packages": map[string]any{"": deps}}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		return err
	}
	for name, v := range map[string]any{"package.json": deps, "package-lock.json": lock} {
		b, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// opencodeWire is the Chat Completions API as OpenCode calls it. Its
// title request (the session's small model, offered no tools) is answered
// here, outside the script; a subagent's turns are those not offered the
// task tool (a child session may not start another).
type opencodeWire struct{ chatWire }

func (w opencodeWire) Parse(rw http.ResponseWriter, r *http.Request, body []byte) (*Request, bool, error) {
	req, handled, err := w.chatWire.Parse(rw, r, body)
	if err != nil || handled {
		return req, handled, err
	}
	tools := chatToolNames(req)
	if len(tools) == 0 {
		return req, true, w.chatWire.Write(rw, req, Say("realcli session"))
	}
	req.Subagent = !strings.Contains(","+strings.Join(tools, ",")+",", ",task,")
	req.System = opencodeHookSystem(body)
	return req, false, nil
}

// opencodeHookSystem is the system prompt without OpenCode's own, its
// first system message: what the plugin added after it (a session's or
// subagent's start context), each its own system message. OpenCode's own
// quotes its skills' locations HTML-escaped (&lt;built-in&gt;), which the
// checks would take for escaped hook context.
func opencodeHookSystem(body []byte) string {
	var in struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(body, &in)
	var parts []string
	for i, m := range in.Messages {
		if m.Role != "system" {
			break
		}
		if text, err := openaiText(m.Content); err == nil && i > 0 {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "\n")
}

// opencodeFinal reads --format json's lines: the answer is the main
// session's last text part; an error event fails the run.
func opencodeFinal(stdout []byte) (Final, error) {
	var main, text string
	ok, seen := true, false
	var last json.RawMessage
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		var ev struct {
			Type      string `json:"type"`
			SessionID string `json:"sessionID"`
			Part      struct {
				Text string `json:"text"`
			} `json:"part"`
		}
		if json.Unmarshal(line, &ev) != nil || ev.Type == "" {
			continue
		}
		seen, last = true, append(json.RawMessage(nil), line...)
		if main == "" {
			main = ev.SessionID
		}
		switch {
		case ev.Type == "error":
			ok = false
		case ev.Type == "text" && ev.SessionID == main:
			text = ev.Part.Text
		}
	}
	if !seen {
		return Final{}, errors.New("no JSON event on stdout")
	}
	return Final{OK: ok, Text: text, Raw: last}, nil
}

// opencodeShellExit is the exit code of shell call id in the run's
// --format json output (the tool_use event's state.metadata.exit).
func opencodeShellExit(r *Run, id string) (int, bool) {
	for _, line := range bytes.Split(r.Stdout, []byte("\n")) {
		var ev struct {
			Type string `json:"type"`
			Part struct {
				CallID string `json:"callID"`
				State  struct {
					Metadata struct {
						Exit *int `json:"exit"`
					} `json:"metadata"`
				} `json:"state"`
			} `json:"part"`
		}
		if json.Unmarshal(line, &ev) == nil && ev.Type == "tool_use" && ev.Part.CallID == id && ev.Part.State.Metadata.Exit != nil {
			return *ev.Part.State.Metadata.Exit, true
		}
	}
	return 0, false
}

// OpenCode's tool calls, as the model makes them.

func ocBash(id, command string) Reply {
	return Use(id, "bash", map[string]any{"command": command, "description": "run a command"})
}

func ocWrite(id, path, content string) Reply {
	return Use(id, "write", map[string]any{"filePath": path, "content": content})
}

func ocEdit(id, path, old, new string) Reply {
	return Use(id, "edit", map[string]any{"filePath": path, "oldString": old, "newString": new})
}

// ocPatch is apply_patch, offered to GPT models: a function tool whose
// one argument, patchText, is the patch.
func ocPatch(id, patch string) Reply {
	return Use(id, "apply_patch", map[string]any{"patchText": patch})
}

func ocTask(id, agent, task string) Reply {
	return Use(id, "task", map[string]any{"description": "delegate " + clip(task, 20), "prompt": task, "subagent_type": agent})
}
