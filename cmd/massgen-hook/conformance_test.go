package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/cli"
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
	events, err := filepath.Glob(filepath.Join(sharedDir(t), "conformance", "events", "*.json"))
	if err != nil || len(events) == 0 {
		t.Fatalf("no conformance events: %v", err)
	}
	project := t.TempDir()
	writeFile(t, project, ".claude/scratchpad/coordinator/2026-11-19.md", "# Coordinator\n## What I did\nDelegated the parser.\n")
	writeFile(t, project, ".claude/scratchpad/ego/2026-11-18.md", "Assessment: steady.\n")
	writeFile(t, project, ".claude/scratchpad/builder/2026-11-20.md", "## What I did\nx\n")
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	t.Setenv("MASSGEN_HOOK_NOW", "2026-11-20T10:00:00Z")
	t.Setenv("TZ", "UTC")

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
		var stdout, stderr bytes.Buffer
		code := cli.Main([]string{sub}, bytes.NewReader(raw), &stdout, &stderr)
		name := filepath.Base(path)
		if code != 0 {
			t.Errorf("%s → %s: exit %d, stderr: %s", name, sub, code, stderr.String())
		}
		if bytes.Contains(stderr.Bytes(), []byte("panic")) {
			t.Errorf("%s → %s: panicked: %s", name, sub, stderr.String())
		}
		if out := bytes.TrimSpace(stdout.Bytes()); len(out) > 0 {
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
