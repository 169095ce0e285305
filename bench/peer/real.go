package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// realCommand is a shell command a real agent CLI sent to a hook.
type realCommand struct {
	File    string // the payload's path under the conformance folder, with /
	Tool    string // the CLI's name for its shell tool
	Command string
}

// shellTools are the shell tools of the CLIs, by the name each gives it:
// Claude Code's and Codex's Bash, Codex's older shell, Gemini CLI's
// run_shell_command, Copilot CLI's bash.
var shellTools = []string{"Bash", "shell", "run_shell_command", "bash"}

// realPayloadGlobs are the payloads read, relative to the conformance folder.
var realPayloadGlobs = []string{"events/*.json", "real/*/*.json"}

// findRealCommands reads every payload under dir and returns the shell
// commands in them, in path order. A payload that is not a JSON object, or
// carries no shell command, is passed over: the conformance tests check that
// every payload is accepted; this only wants the commands.
func findRealCommands(dir string) ([]realCommand, error) {
	var files []string
	for _, g := range realPayloadGlobs {
		m, err := filepath.Glob(filepath.Join(dir, g))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no payloads (%s)", dir, strings.Join(realPayloadGlobs, ", "))
	}
	slices.Sort(files)
	var cmds []realCommand
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			return nil, err
		}
		if tool, command, ok := shellCommand(data); ok {
			cmds = append(cmds, realCommand{File: filepath.ToSlash(rel), Tool: tool, Command: command})
		}
	}
	return cmds, nil
}

// shellCommand finds the shell command in one payload: the tool's name in
// tool_name (Claude Code, Codex, Gemini CLI) or toolName (Copilot CLI), its
// arguments in tool_input, toolArgs (an object, or JSON text of one) or
// toolInput (Copilot's permissionRequest).
func shellCommand(data []byte) (tool, command string, ok bool) {
	var p struct {
		ToolName  string          `json:"tool_name"`
		ToolName2 string          `json:"toolName"`
		ToolInput json.RawMessage `json:"tool_input"`
		ToolArgs  json.RawMessage `json:"toolArgs"`
		ToolInp2  json.RawMessage `json:"toolInput"`
	}
	if json.Unmarshal(data, &p) != nil {
		return "", "", false
	}
	tool = p.ToolName
	if tool == "" {
		tool = p.ToolName2
	}
	if !slices.Contains(shellTools, tool) {
		return "", "", false
	}
	for _, raw := range []json.RawMessage{p.ToolInput, p.ToolArgs, p.ToolInp2} {
		var text string
		if json.Unmarshal(raw, &text) == nil {
			raw = json.RawMessage(text) // Copilot may send its arguments as JSON text
		}
		var args struct {
			Command json.RawMessage `json:"command"`
		}
		if json.Unmarshal(raw, &args) != nil {
			continue
		}
		if c, ok := commandText(args.Command); ok {
			return tool, c, true
		}
	}
	return "", "", false
}

// commandText is a command given as a string, or as an argv (Codex's shell
// tool): ["bash", "-lc", script] is the script; another argv is its words
// joined with spaces, quoted where they need it.
func commandText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, s != ""
	}
	var argv []string
	if json.Unmarshal(raw, &argv) != nil || len(argv) == 0 {
		return "", false
	}
	if len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc") {
		return argv[2], true
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shellQuote(a)
	}
	return strings.Join(words, " "), true
}

// shellQuote quotes a word for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// realVerdict is a real command with massgen-hook's answer to it.
type realVerdict struct {
	realCommand
	answer
}

// realReplay is the judged replay of the real commands.
type realReplay struct {
	total      int
	denied     []realVerdict // denied, asked or failed
	documented map[string]bool
	stale      []string
}

// judgeReal keeps every command that did not run through as denied (an ask
// or a failure too) and compares them with the page's list.
func judgeReal(verdicts []realVerdict, doc documented) realReplay {
	r := realReplay{total: len(verdicts), documented: map[string]bool{}}
	byFile := map[string]realVerdict{}
	for _, v := range verdicts {
		byFile[v.File] = v
		if v.Kind != allowed {
			r.denied = append(r.denied, v)
			if _, ok := doc.real[v.File]; ok && v.Kind != failed {
				r.documented[v.File] = true
			}
		}
	}
	files := make([]string, 0, len(doc.real))
	for f := range doc.real {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		row := doc.real[f]
		v, ok := byFile[f]
		switch {
		case !ok:
			r.stale = append(r.stale, fmt.Sprintf("line %d: %s holds no shell command (or is gone)", row.line, f))
		case v.Kind == allowed:
			r.stale = append(r.stale, fmt.Sprintf("line %d: %s is no longer denied: remove it from the page", row.line, f))
		}
	}
	return r
}

// ok tells whether every denied real command is documented and nothing the
// page lists is stale.
func (r realReplay) ok() bool {
	return len(r.denied) == len(r.documented) && len(r.stale) == 0
}

// render writes the replay's report.
func (r realReplay) render(w io.Writer, docPath string) {
	fmt.Fprintf(w, "Real agent commands: %d replayed, %d denied (%d listed in %s). Target: none denied, or each listed with its reason.\n",
		r.total, len(r.denied), len(r.documented), docPath)
	for _, v := range r.denied {
		mark := "UNDOCUMENTED"
		if r.documented[v.File] {
			mark = "documented"
		}
		fmt.Fprintf(w, "  %-12s %s (%s, %s): %s\n        ↳ %s\n", mark, v.File, v.Tool, v.Kind, showCommand(v.Command), clip(oneLine(v.Reason), 200))
	}
	if len(r.stale) > 0 {
		fmt.Fprintf(w, "\nStale in %s:\n", docPath)
		for _, s := range r.stale {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}
