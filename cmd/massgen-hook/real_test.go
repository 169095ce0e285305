package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/cli"
)

// realDir holds the payloads Claude Code 2.1.328 sent in headless runs, with
// its project at realProject and its day realDay.
const (
	realDir     = "conformance/real/claude-code-2.1.328"
	realProject = "/tmp/real-claude/proj"
	realDay     = "2026-11-24"
)

// realEvent reads one real payload, moved into project.
func realEvent(t *testing.T, name, project string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(sharedDir(t), realDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(raw), realProject, project))
}

// TestRealPermissionRequest answers the PermissionRequest payloads Claude
// Code sent when a subagent wrote its scratchpad: allow, in a shape the SDK
// types accept. The same request on another day is not that day's file:
// no opinion.
func TestRealPermissionRequest(t *testing.T) {
	project := t.TempDir()
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	t.Setenv("TZ", "UTC")
	outDir := t.TempDir()
	var specs []string
	for _, name := range []string{"PermissionRequest.json", "PermissionRequest.Write.json", "PermissionRequest.Write.in_subagent.json"} {
		ev := realEvent(t, name, project)
		for _, day := range []string{realDay, "2026-11-25"} {
			t.Setenv("MASSGEN_HOOK_NOW", day+"T10:00:00Z")
			var stdout, stderr bytes.Buffer
			if code := cli.Main([]string{"permission-request"}, bytes.NewReader(ev), &stdout, &stderr); code != 0 || stderr.Len() > 0 {
				t.Fatalf("%s on %s: exit %d, stderr %q", name, day, code, stderr.String())
			}
			want := ""
			if day == realDay {
				want = `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n"
			}
			if stdout.String() != want {
				t.Errorf("%s on %s: stdout %q, want %q", name, day, stdout.String(), want)
			}
			if want != "" {
				file := filepath.Join(outDir, name)
				if err := os.WriteFile(file, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				specs = append(specs, "PermissionRequest:"+file)
			}
		}
	}
	runSDKTypecheck(t, specs)
}
