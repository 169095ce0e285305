package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	t.Parallel() // hook processes of its own, in a project of its own
	project := t.TempDir()
	bin := buildScriptHook(t)
	outDir := t.TempDir()
	var specs []string
	for _, name := range []string{"PermissionRequest.json", "PermissionRequest.Write.json", "PermissionRequest.Write.in_subagent.json"} {
		ev := realEvent(t, name, project)
		for _, day := range []string{realDay, "2026-11-25"} {
			env := append(hookEnv(project), "MASSGEN_HOOK_NOW="+day+"T10:00:00Z") // the last one counts
			r := inboxRun(bin, env, project, string(ev), "permission-request")
			if r.err != nil || r.code != 0 || r.stderr != "" {
				t.Fatalf("%s on %s: err %v, exit %d, stderr %q", name, day, r.err, r.code, r.stderr)
			}
			stdout := bytes.NewBufferString(r.stdout)
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
