package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/protocol"
)

// realSubcommands maps every CLI's event names to the subcommand init
// wires to them; the other events have no hook.
var realSubcommands = map[string]string{
	"PreToolUse": "pre-tool-use", "BeforeTool": "pre-tool-use", "preToolUse": "pre-tool-use",
	"PostToolUse": "post-tool-use", "AfterTool": "post-tool-use", "postToolUse": "post-tool-use",
	"SessionStart": "session-start", "sessionStart": "session-start",
	"SubagentStart": "subagent-start", "subagentStart": "subagent-start",
	"SubagentStop": "subagent-stop", "subagentStop": "subagent-stop",
	"Stop": "stop", "AfterAgent": "stop", "agentStop": "stop",
}

// claudeTopLevel are the top-level fields of Claude Code's answers, which
// Gemini CLI and Codex read too.
var claudeTopLevel = []string{"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"}

// copilotFields are the fields Copilot CLI 1.0.102 reads from each answer.
var copilotFields = map[string][]string{
	"preToolUse":    {"permissionDecision", "permissionDecisionReason", "modifiedArgs", "additionalContext"},
	"postToolUse":   {"modifiedResult", "additionalContext"},
	"agentStop":     {"decision", "reason"},
	"subagentStop":  {"decision", "reason"},
	"sessionStart":  {"additionalContext"},
	"subagentStart": {"additionalContext"},
}

// TestConformanceRealPayloads replays every payload the real CLIs sent
// (../shared/conformance/real/<cli-version>/) through the subcommand init
// wires to its event, without --dialect, as the hook runs: each is told
// as its own CLI's, exits 0, and answers one JSON object in that CLI's
// shape, or nothing.
func TestConformanceRealPayloads(t *testing.T) {
	t.Parallel() // hook processes of its own, in a project of its own
	dirs, err := filepath.Glob(filepath.Join(sharedDir(t), "conformance", "real", "*-*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no real payloads: %v", err)
	}
	project := t.TempDir()
	writeFile(t, project, ".claude/scratchpad/coordinator/2026-11-19.md", "# Coordinator\n## What I did\nDelegated the parser.\n")
	writeFile(t, project, ".claude/scratchpad/builder/2026-11-20.md", "## What I did\nx\n")
	bin, env := buildScriptHook(t), hookEnv(project)
	replayed := map[string]int{}
	for _, dir := range dirs {
		cliName := realCLI(filepath.Base(dir))
		if cliName == "" {
			t.Errorf("%s: no dialect for this folder", dir)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "[A-Za-z]*.json"))
		for _, path := range files {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			native := gjson.GetBytes(raw, "hook_event_name").String()
			if native == "" {
				native = strings.SplitN(filepath.Base(path), ".", 2)[0] // Copilot names no event: the file does
			}
			sub, ok := realSubcommands[native]
			if !ok {
				continue
			}
			replayed[cliName]++
			name := filepath.Base(dir) + "/" + filepath.Base(path)
			d := dialect.Detect(raw)
			if ev, err := protocol.ParseEvent(raw, ""); err == nil {
				d = d.Refine(ev)
			}
			// Gemini CLI's and Codex's SessionStart are Claude Code's, name,
			// fields and answer: without --dialect they pass as Claude's.
			if d.Name != cliName && !(d == dialect.Claude && native == "SessionStart") {
				t.Errorf("%s: told as %s, want %s", name, d.Name, cliName)
			}
			// As the hooks run it without --dialect, and as init wires it.
			for _, args := range [][]string{{sub}, {sub, "--dialect", cliName}} {
				r := inboxRun(bin, env, project, string(raw), args...)
				if r.err != nil || r.code != 0 {
					t.Errorf("%s → %v: err %v, exit %d, stderr: %s", name, args, r.err, r.code, r.stderr)
				}
				if strings.Contains(r.stderr, "panic") {
					t.Errorf("%s → %v: panicked: %s", name, args, r.stderr)
				}
				if out := bytes.TrimSpace([]byte(r.stdout)); len(out) > 0 {
					checkRealAnswer(t, name, cliName, native, out)
				}
			}
		}
	}
	for _, c := range []string{"claude", "gemini", "codex", "copilot"} {
		if replayed[c] == 0 {
			t.Errorf("no %s payload replayed: %v", c, replayed)
		}
	}
}

// realCLI is the dialect of a payload folder, by its name's CLI.
func realCLI(folder string) string {
	for prefix, name := range map[string]string{"claude-code-": "claude", "gemini-cli-": "gemini", "codex-": "codex", "copilot-": "copilot"} {
		if strings.HasPrefix(folder, prefix) {
			return name
		}
	}
	return ""
}

// checkRealAnswer holds an answer to the fields its CLI reads.
func checkRealAnswer(t *testing.T, name, cliName, native string, out []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		t.Errorf("%s: stdout is not one JSON object: %v\n%s", name, err, out)
		return
	}
	allowed := claudeTopLevel
	if cliName == "copilot" {
		allowed = copilotFields[native]
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			t.Errorf("%s: %s does not read %q: %s", name, cliName, k, out)
		}
	}
	h := gjson.GetBytes(out, "hookSpecificOutput")
	switch cliName {
	case "gemini":
		if h.Exists() && h.Get("hookEventName").String() != native {
			t.Errorf("%s: hookSpecificOutput names another event than %s: %s", name, native, out)
		}
		if strings.Contains(h.Get("additionalContext").String(), "<system-reminder>") {
			t.Errorf("%s: markup Gemini would escape: %s", name, out)
		}
	case "codex":
		if d := h.Get("permissionDecision").String(); d == "ask" || (d == "allow" && !h.Get("updatedInput").Exists()) {
			t.Errorf("%s: Codex rejects permissionDecision %q here: %s", name, d, out)
		}
		if h.Get("updatedToolOutput").Exists() {
			t.Errorf("%s: Codex ignores updatedToolOutput: %s", name, out)
		}
	}
}
