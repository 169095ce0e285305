package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShellCommand(t *testing.T) {
	for _, tc := range []struct {
		name, payload, tool, command string
	}{
		{"Claude Code", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test","description":"d"}}`, "Bash", "npm test"},
		{"Gemini CLI", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo hi"}}`, "run_shell_command", "echo hi"},
		{"Codex shell argv", `{"tool_name":"shell","tool_input":{"command":["bash","-lc","git status && ls"]}}`, "shell", "git status && ls"},
		{"Codex plain argv", `{"tool_name":"shell","tool_input":{"command":["ls","-la","my dir"]}}`, "shell", "ls -la 'my dir'"},
		{"Copilot toolArgs", `{"toolName":"bash","toolArgs":{"command":"cat x; touch y"}}`, "bash", "cat x; touch y"},
		{"Copilot toolArgs as text", `{"toolName":"bash","toolArgs":"{\"command\":\"make\"}"}`, "bash", "make"},
		{"Copilot permissionRequest", `{"hookName":"permissionRequest","toolName":"bash","toolInput":{"command":"echo hello > notes.txt"}}`, "bash", "echo hello > notes.txt"},
	} {
		tool, command, ok := shellCommand([]byte(tc.payload))
		if !ok || tool != tc.tool || command != tc.command {
			t.Errorf("%s: %q %q %v, want %q %q", tc.name, tool, command, ok, tc.tool, tc.command)
		}
	}
	for name, payload := range map[string]string{
		"Read":            `{"tool_name":"Read","tool_input":{"file_path":"/x"}}`,
		"apply_patch":     `{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"}}`,
		"no command":      `{"tool_name":"Bash","tool_input":{"description":"x"}}`,
		"empty command":   `{"tool_name":"Bash","tool_input":{"command":""}}`,
		"toolArgs null":   `{"toolName":"bash","toolArgs":null}`,
		"not an object":   `[1]`,
		"no tool":         `{"hook_event_name":"Stop"}`,
		"lowercase shell": `{"tool_name":"Shell","tool_input":{"command":"ls"}}`,
	} {
		if tool, command, ok := shellCommand([]byte(payload)); ok {
			t.Errorf("%s: found %q %q", name, tool, command)
		}
	}
}

func TestFindRealCommands(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("events/b.json", `{"tool_name":"Bash","tool_input":{"command":"b"}}`)
	write("events/a.json", `{"tool_name":"Bash","tool_input":{"command":"a"}}`)
	write("events/read.json", `{"tool_name":"Read","tool_input":{"file_path":"x"}}`)
	write("events/MANIFEST.tsv", "not json")
	write("real/cli-1/PreToolUse.json", `{"tool_name":"run_shell_command","tool_input":{"command":"c"}}`)
	write("real/cli-1/_hook_environment.json", `{"HOME":"/x"}`)
	write("real/cli-1/deeper/x.json", `{"tool_name":"Bash","tool_input":{"command":"not read"}}`)
	write("other/x.json", `{"tool_name":"Bash","tool_input":{"command":"not read"}}`)
	got, err := findRealCommands(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []realCommand{
		{"events/a.json", "Bash", "a"},
		{"events/b.json", "Bash", "b"},
		{"real/cli-1/PreToolUse.json", "run_shell_command", "c"},
	}
	if len(got) != len(want) {
		t.Fatalf("found %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := findRealCommands(t.TempDir()); err == nil {
		t.Error("an empty folder gave no error")
	}
}

func TestJudgeReal(t *testing.T) {
	vs := []realVerdict{
		{realCommand{File: "a.json", Command: "cat .env"}, answer{denied, "protected"}},
		{realCommand{File: "b.json", Command: "npm test"}, answer{denied, "oops"}},
		{realCommand{File: "c.json", Command: "ls"}, answer{Kind: allowed}},
		{realCommand{File: "d.json", Command: "make"}, answer{failed, "exit 1"}},
	}
	r := judgeReal(vs, documented{real: map[string]docRow{
		"a.json": {line: 5}, // documented and denied
		"c.json": {line: 6}, // documented, no longer denied
		"d.json": {line: 7}, // documented, but a failure is never excused
		"z.json": {line: 8}, // no such payload
	}})
	if r.total != 4 || len(r.denied) != 3 {
		t.Errorf("total %d, denied %d", r.total, len(r.denied))
	}
	if !r.documented["a.json"] || r.documented["b.json"] || r.documented["d.json"] {
		t.Errorf("documented %v", r.documented)
	}
	want := "line 6: c.json is no longer denied: remove it from the page\nline 8: z.json holds no shell command (or is gone)"
	if got := strings.Join(r.stale, "\n"); got != want {
		t.Errorf("stale:\n%s\nwant:\n%s", got, want)
	}
	if r.ok() {
		t.Error("ok with an undocumented denial")
	}
	ok := judgeReal(vs[:1], documented{real: map[string]docRow{"a.json": {line: 5}}})
	if !ok.ok() {
		t.Errorf("a documented denial is not ok: %+v", ok)
	}
}
