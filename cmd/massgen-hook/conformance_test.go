package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// subcommands maps the events massgen-hook handles to their subcommands.
var subcommands = map[string]string{
	"PreToolUse":         "pre-tool-use",
	"PostToolUse":        "post-tool-use",
	"PostToolUseFailure": "post-tool-use-failure",
	"PermissionRequest":  "permission-request",
	"SessionStart":       "session-start",
	"SubagentStart":      "subagent-start",
	"SubagentStop":       "subagent-stop",
	"Stop":               "stop",
}

// TestConformanceEvents replays every real Claude Code event in
// ../shared/conformance/events through its subcommand, in a project that has
// some scratchpads, and requires exit 0, stdout empty or one JSON object, no
// stderr error line, and outputs that type-check against the SDK.
func TestConformanceEvents(t *testing.T) {
	t.Parallel() // hook processes of its own, in a project of its own
	events, err := filepath.Glob(filepath.Join(sharedDir(t), "conformance", "events", "*.json"))
	if err != nil || len(events) == 0 {
		t.Fatalf("no conformance events: %v", err)
	}
	project := t.TempDir()
	writeFile(t, project, ".claude/scratchpad/coordinator/2026-11-19.md", "# Coordinator\n## What I did\nDelegated the parser.\n")
	writeFile(t, project, ".claude/scratchpad/ego/2026-11-18.md", "Assessment: steady.\n")
	writeFile(t, project, ".claude/scratchpad/builder/2026-11-20.md", "## What I did\nx\n")
	bin, env := buildScriptHook(t), hookEnv(project)

	outDir := t.TempDir()
	var specs []string
	handled := 0
	for _, path := range events {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		event := gjson.GetBytes(raw, "hook_event_name").String()
		sub, ok := subcommands[event]
		if !ok {
			continue
		}
		handled++
		r := inboxRun(bin, env, project, string(raw), sub)
		name := filepath.Base(path)
		if r.err != nil || r.code != 0 {
			t.Errorf("%s → %s: err %v, exit %d, stderr: %s", name, sub, r.err, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "panic") {
			t.Errorf("%s → %s: panicked: %s", name, sub, r.stderr)
		}
		if out := bytes.TrimSpace([]byte(r.stdout)); len(out) > 0 {
			var obj map[string]any
			if err := json.Unmarshal(out, &obj); err != nil {
				t.Errorf("%s → %s: stdout is not one JSON object: %v\n%s", name, sub, err, out)
				continue
			}
			file := filepath.Join(outDir, fmt.Sprintf("%02d-%s", handled, name))
			if err := os.WriteFile(file, out, 0o644); err != nil {
				t.Fatal(err)
			}
			specs = append(specs, event+":"+file)
		}
	}
	if handled < 40 {
		t.Fatalf("only %d conformance events were for massgen-hook's subcommands; expected the full set", handled)
	}
	if len(specs) == 0 {
		t.Fatal("no conformance event produced an output to type-check")
	}
	runSDKTypecheck(t, specs)
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
