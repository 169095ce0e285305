package cli

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/install/wiring"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// gitRoot is how the hooks of CLIs that set no project variable find the
// project: the top of its git repository.
const gitRoot = `"$(git rev-parse --show-toplevel)"`

// target is one agent CLI's hook file, as init wires it.
type target struct {
	name string
	// projectFile and localFile are relative to the project, userFile to
	// $HOME; "" where the CLI has no such file.
	projectFile, localFile, userFile string
	// userDirVar names a variable that moves the user scope's folder, and
	// userDirFile is the file's path below it (CLAUDE_CONFIG_DIR,
	// settings.json); "" where nothing moves it.
	userDirVar, userDirFile string
	// plugin: the CLI runs no command hooks; init writes massgen-hook's
	// plugin (package integrations) as its hook file, and wires are the
	// events the plugin hands over, by the names its dialect reads.
	plugin bool
	// projectVar is how a hook command names the project root, quoted.
	projectVar string
	spec       wiring.Spec
	wires      []wire
	// handler is the handler object of w running command.
	handler func(w wire, command string) any
}

// wire is one massgen-hook subcommand wired to one of the CLI's events.
type wire struct {
	event, matcher, sub string
	// timeout is in the CLI's unit: seconds, or milliseconds for Gemini.
	timeout int
}

// key is the hook command's arguments after the binary: the subcommand,
// and the dialect for CLIs other than Claude Code.
func (t target) key(w wire) string {
	if t.name == "claude" {
		return w.sub
	}
	return w.sub + " --dialect " + t.name
}

// parts are what init --only wires, by the subcommands that serve each.
// permission-request is the scratchpad's: it lets an agent write its own
// scratchpad without a prompt. session-start shows the scratchpads (and
// messages left undelivered); the inbox hands messages over after tool calls.
var parts = &lazy.Value[map[string][]string]{New: func() map[string][]string {
	return map[string][]string{
		"guards":     {"pre-tool-use"},
		"scratchpad": {"session-start", "subagent-start", "subagent-stop", "stop", "permission-request"},
		"inbox":      {"post-tool-use", "post-tool-use-failure"},
	}
}}

func partNames() []string { return slices.Sorted(maps.Keys(parts.Get())) }

// partOf is the part sub serves.
func partOf(sub string) string {
	for name, subs := range parts.Get() {
		if slices.Contains(subs, sub) {
			return name
		}
	}
	return ""
}

// partSet is a set of parts; nil is every part.
type partSet map[string]bool

func (ps partSet) has(sub string) bool { return ps == nil || ps[partOf(sub)] }

func (ps partSet) String() string {
	if ps == nil {
		return strings.Join(partNames(), ",")
	}
	return strings.Join(slices.Sorted(maps.Keys(ps)), ",")
}

// entries are the handlers init writes for the parts in ps.
func (t target) entries(bin string, ps partSet) []wiring.Entry {
	out := make([]wiring.Entry, 0, len(t.wires))
	for _, w := range t.wires {
		if !ps.has(w.sub) {
			continue
		}
		out = append(out, wiring.Entry{Event: w.event, Key: t.key(w), Matcher: w.matcher,
			Handler: t.handler(w, bin+" "+t.key(w))})
	}
	return out
}

// commandHandler is a Claude-style handler object (Claude Code, Codex).
type commandHandler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

func claudeHandler(w wire, command string) any {
	return commandHandler{Type: "command", Command: command, Timeout: w.timeout}
}

// claudeWires are Claude Code's: the tool hooks' timeouts sit above the sum
// of typical rule timeouts (docs/rules.md, "Timeouts add up").
var claudeWires = []wire{
	{"SessionStart", "", "session-start", 15},
	{"SubagentStart", "", "subagent-start", 10},
	{"SubagentStop", "", "subagent-stop", 10},
	{"Stop", "", "stop", 10},
	{"PermissionRequest", "Write|Edit|MultiEdit", "permission-request", 10},
	{"PreToolUse", "*", "pre-tool-use", 60},
	{"PostToolUse", "*", "post-tool-use", 60},
	{"PostToolUseFailure", "*", "post-tool-use-failure", 60},
}

// codexWires are Claude Code's without PostToolUseFailure, which Codex
// lacks, and PermissionRequest, which answers Claude Code's own prompt for
// files under .claude/; its matchers are regexes, so "match all" is no
// matcher.
func codexWires() []wire {
	var out []wire
	for _, w := range claudeWires {
		if w.event != "PostToolUseFailure" && w.event != "PermissionRequest" {
			w.matcher = ""
			out = append(out, w)
		}
	}
	return out
}

var targets = &lazy.Value[map[string]target]{New: func() map[string]target {
	return map[string]target{
		"claude": {
			name: "claude", projectFile: ".claude/settings.json", localFile: ".claude/settings.local.json",
			userFile: ".claude/settings.json", userDirVar: "CLAUDE_CONFIG_DIR", userDirFile: "settings.json",
			projectVar: `"$CLAUDE_PROJECT_DIR"`,
			spec:       wiring.Spec{Shape: wiring.Grouped},
			wires:      claudeWires,
			handler:    claudeHandler,
		},
		// Codex sets no project variable and runs hooks in the session's
		// directory: git finds the root.
		"codex": {
			name: "codex", projectFile: ".codex/hooks.json", userFile: ".codex/hooks.json",
			projectVar: gitRoot,
			spec:       wiring.Spec{Shape: wiring.Grouped},
			wires:      codexWires(),
			handler:    claudeHandler,
		},
		// Gemini CLI: its own event names; timeouts in MILLISECONDS. It pastes
		// a shell-quoted project path over every "$GEMINI_PROJECT_DIR" in a
		// command before bash runs it, which breaks the quotes around one
		// (gemini_command_test.go); "${GEMINI_PROJECT_DIR}" is left to bash,
		// which expands it from the environment, whatever the path holds.
		"gemini": {
			name: "gemini", projectFile: ".gemini/settings.json", userFile: ".gemini/settings.json",
			projectVar: `"${GEMINI_PROJECT_DIR}"`,
			spec:       wiring.Spec{Shape: wiring.Grouped},
			wires: []wire{
				{"SessionStart", "", "session-start", 15000},
				{"BeforeTool", "*", "pre-tool-use", 60000},
				{"AfterTool", "*", "post-tool-use", 60000},
				{"AfterAgent", "", "stop", 10000},
			},
			handler: func(w wire, command string) any {
				return struct {
					Name    string `json:"name"`
					Type    string `json:"type"`
					Command string `json:"command"`
					Timeout int    `json:"timeout"`
				}{"massgen-hook " + w.sub, "command", command, w.timeout}
			},
		},
		// Cursor: flat lists, lowerCamel events. Its subagentStart cannot add
		// context and postToolUseFailure answers nothing, so neither is wired.
		"cursor": {
			name: "cursor", projectFile: ".cursor/hooks.json", userFile: ".cursor/hooks.json",
			projectVar: `"$CURSOR_PROJECT_DIR"`,
			spec:       wiring.Spec{Shape: wiring.Flat, Skeleton: versionOne{1}},
			wires: []wire{
				{"sessionStart", "", "session-start", 15},
				{"preToolUse", "", "pre-tool-use", 60},
				{"postToolUse", "", "post-tool-use", 60},
				{"subagentStop", "", "subagent-stop", 10},
				{"stop", "", "stop", 10},
			},
			handler: func(w wire, command string) any {
				return struct {
					Command string `json:"command"`
					Timeout int    `json:"timeout"`
				}{command, w.timeout}
			},
		},
		// Copilot CLI: a file of our own in .github/hooks/, camelCase events,
		// "bash" commands, timeoutSec. It loads the project's hooks from the
		// directory it starts in, and sets COPILOT_PROJECT_DIR to it (1.0.102);
		// versions that do not fall back on git.
		"copilot": {
			name: "copilot", projectFile: ".github/hooks/massgen-hook.json", userFile: ".copilot/hooks/massgen-hook.json",
			projectVar: `"${COPILOT_PROJECT_DIR:-$(git rev-parse --show-toplevel)}"`,
			spec:       wiring.Spec{Shape: wiring.Flat, Skeleton: versionOne{1}, CommandField: "bash"},
			wires: []wire{
				{"sessionStart", "", "session-start", 15},
				{"subagentStart", "", "subagent-start", 10},
				{"preToolUse", "", "pre-tool-use", 60},
				{"postToolUse", "", "post-tool-use", 60},
				{"postToolUseFailure", "", "post-tool-use-failure", 60},
				{"subagentStop", "", "subagent-stop", 10},
				{"agentStop", "", "stop", 10},
			},
			handler: func(w wire, command string) any {
				return struct {
					Type       string `json:"type"`
					Bash       string `json:"bash"`
					TimeoutSec int    `json:"timeoutSec"`
				}{"command", command, w.timeout}
			},
		},
		// OpenCode: a plugin in its plugin folder, which hands the events of
		// its plugin API to the binary (integrations/opencode). The plugin
		// sets OPENCODE_PROJECT_DIR for the hooks it runs.
		"opencode": {
			name: "opencode", projectFile: ".opencode/plugins/massgen-hook.js", userFile: ".config/opencode/plugins/massgen-hook.js",
			userDirVar: "XDG_CONFIG_HOME", userDirFile: "opencode/plugins/massgen-hook.js",
			projectVar: `"$OPENCODE_PROJECT_DIR"`,
			plugin:     true,
			// The plugin's own event names (dialect/opencode.go): the
			// starts are its first model request of a main session and of a
			// child (subagent) session; a subagent's stop is the task
			// tool's result; a failure is a tool part that ended in error.
			wires: []wire{
				{"session.start", "", "session-start", 15},
				{"subagent.start", "", "subagent-start", 15},
				{"tool.execute.before", "", "pre-tool-use", 60},
				{"tool.execute.after", "", "post-tool-use", 60},
				{"tool.execute.error", "", "post-tool-use-failure", 10},
				{"subagent.stop", "", "subagent-stop", 10},
				{"session.idle", "", "stop", 10},
			},
		},
		// pi: an extension in its extensions folder (integrations/pi); the
		// user's folder moves with PI_CODING_AGENT_DIR.
		"pi": {
			name: "pi", projectFile: ".pi/extensions/massgen-hook.ts", userFile: ".pi/agent/extensions/massgen-hook.ts",
			userDirVar: "PI_CODING_AGENT_DIR", userDirFile: "extensions/massgen-hook.ts",
			projectVar: `"$PI_PROJECT_DIR"`,
			plugin:     true,
			wires: []wire{
				{"session_start", "", "session-start", 15},
				{"tool_call", "", "pre-tool-use", 60},
				{"tool_result", "", "post-tool-use", 60},
				// A failed call (isError): a command that exited non-zero.
				{"tool_result", "", "post-tool-use-failure", 60},
				{"agent_end", "", "stop", 10},
			},
		},
	}
}}

type versionOne struct {
	Version int `json:"version"`
}

// specFor is the target's wiring spec for hooks that run bin (as init
// names it in commands). Its handlers are recognised by arguments and by
// a program named massgen-hook, or exactly bin: a user-scope binary may
// have another name (massgen-hook-v2, massgen-hook.exe).
func (t target) specFor(bin string) wiring.Spec {
	keys := map[string]bool{}
	for _, w := range t.wires {
		keys[t.key(w)] = true
	}
	spec := t.spec
	program, _ := commandWords(bin)
	spec.Ours = func(command string) (string, bool) {
		name, args := commandWords(command)
		if name == "" || (path.Base(name) != "massgen-hook" && name != program) {
			return "", false
		}
		key := strings.Join(args, " ")
		return key, keys[key]
	}
	return spec
}

func targetNames() []string { return slices.Sorted(maps.Keys(targets.Get())) }

// commandWords reads a hook command as the shell would: its program and
// arguments, when it is one command (the commands of substitutions in the
// program's path, like Codex's "$(git rev-parse --show-toplevel)", do not
// count); "" otherwise. A massgen-hook command the user wrote with other
// arguments than init's is theirs, and init leaves it alone.
func commandWords(command string) (string, []string) {
	script, err := shellcmd.Parse(command, shellcmd.Options{})
	if err != nil {
		return "", nil
	}
	var top []*shellcmd.Command
	for _, c := range script.Commands {
		if len(c.Wrappers) == 0 {
			top = append(top, c)
		}
	}
	if len(top) != 1 {
		return "", nil
	}
	args := make([]string, len(top[0].Args))
	for i, w := range top[0].Args {
		args[i] = w.Value
	}
	return top[0].Name.Value, args
}
