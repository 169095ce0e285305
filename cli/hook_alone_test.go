package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestHookAloneRunsAsItsCommand: a hook named alone runs without the
// command tree (hookAlone), and must answer exactly as through cobra. The
// same events go both ways, each in its own copy of one project: stdout,
// stderr, the exit code and every file the hook leaves behind are equal.
// The cobra way is forced by a flag that changes nothing
// (--fail-closed=false).
func TestHookAloneRunsAsItsCommand(t *testing.T) {
	t.Parallel()
	events := map[string][]string{
		"session-start":         {`{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`},
		"subagent-start":        {`{"session_id":"s1","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"spec-writer"}`},
		"subagent-stop":         {`{"session_id":"s1","hook_event_name":"SubagentStop","agent_id":"a1","agent_type":"spec-writer","stop_hook_active":false}`},
		"stop":                  {`{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":false}`},
		"permission-request":    {`{"session_id":"s1","hook_event_name":"PermissionRequest","tool_name":"Write","tool_input":{"file_path":"x"}}`},
		"pre-tool-use":          {`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`, `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"t2"}`},
		"post-tool-use":         {`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a"},"tool_use_id":"t3"}`},
		"post-tool-use-failure": {`{"session_id":"s1","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"make"},"error":"Exit code 2","tool_use_id":"t4"}`},
	}
	hooks := 0
	for _, sc := range subcommands() {
		if sc.hook == nil {
			continue
		}
		hooks++
		cases, ok := events[sc.name]
		if !ok {
			t.Errorf("hook %s has no event here: add one", sc.name)
			continue
		}
		// Failures take the same way too: input that is not JSON, and none.
		for _, stdin := range append(cases, `{not json`, "") {
			alone := runHookWay(t, []string{sc.name}, stdin)
			viaCobra := runHookWay(t, []string{sc.name, "--fail-closed=false"}, stdin)
			if alone != viaCobra {
				t.Errorf("%s on %q:\nalone:\n%s\nthrough cobra:\n%s", sc.name, stdin, alone, viaCobra)
			}
		}
	}
	if hooks != len(events) {
		t.Errorf("%d hooks run alone, %d have events here", hooks, len(events))
	}
	if _, ok := hookAlone([]string{"pre-tool-use", "--agent", "x"}); ok {
		t.Error("a hook with flags must go through cobra, which parses them")
	}
	if _, ok := hookAlone([]string{"version"}); ok {
		t.Error("only hooks run alone")
	}
}

var durations = regexp.MustCompile(`"duration_ms":[0-9.e-]+`)

// runHookWay runs args on stdin in a fresh project holding a subagent's
// scratchpad, and returns all it did as text: exit code, stdout, stderr,
// then each file under the project with its contents.
func runHookWay(t *testing.T, args []string, stdin string) string {
	t.Helper()
	project := t.TempDir()
	sp := filepath.Join(project, ".claude", "scratchpad", "spec-writer")
	if err := os.MkdirAll(sp, 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	file := filepath.Join(sp, "2026-11-20.md")
	if err := os.WriteFile(file, []byte("## What I did\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The ledger records the file's time: the same in both projects.
	if err := os.Chtimes(file, now, now); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	a := &app{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string {
			if k == "CLAUDE_PROJECT_DIR" {
				return project
			}
			return ""
		},
		environ: func() []string { return nil }, now: func() time.Time { return now }}
	code := a.run(args)
	var b strings.Builder
	b.WriteString("exit " + string(rune('0'+code)) + "\nstdout: " + strings.ReplaceAll(stdout.String(), project, "<project>") +
		"\nstderr: " + strings.ReplaceAll(stderr.String(), project, "<project>") + "\n")
	err := filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(project, p)
		// A rule's duration is the one thing that differs run to run.
		text := durations.ReplaceAllString(strings.ReplaceAll(string(data), project, "<project>"), `"duration_ms":_`)
		b.WriteString(rel + ": " + text + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
