package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkHook runs whole hook invocations in process, over the project
// scripts/bench.sh measures as processes: what each costs once the process
// has started (parsing, config, state, checks, output), with allocations.
// It is the loop to profile: go test ./cli -run '^$' -bench Hook
// -benchtime 2000x -cpuprofile cpu.out -memprofile mem.out.
func BenchmarkHook(b *testing.B) {
	project := b.TempDir()
	sp := filepath.Join(project, ".claude", "scratchpad")
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	run := func(b *testing.B, stdin string, args ...string) string {
		var out strings.Builder
		a := &app{stdin: strings.NewReader(stdin), stdout: &out, stderr: io.Discard,
			getenv: func(k string) string {
				if k == "CLAUDE_PROJECT_DIR" {
					return project
				}
				return ""
			},
			environ: os.Environ, now: func() time.Time { return now }}
		if code := a.run(args); code != 0 {
			b.Fatalf("%v: exit %d", args, code)
		}
		return out.String()
	}
	run(b, `{"session_id":"b1","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"spec-writer"}`, "subagent-start")
	for dir, text := range map[string]string{
		"spec-writer/2026-11-20.md": "## What I did\nWrote the spec.\n## Cross-agent observations\nNone.\n## Unresolved\nNone.\n",
		"coordinator/2026-11-20.md": "## What I did\nDelegated the spec.\n",
		"ego/2026-11-19.md":         "Assessment: fine.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(sp, dir)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sp, dir), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	bash := `git status --short && go test ./... 2>&1 | tail -20 && grep -rn \"TODO\" internal/ cmd/ | head -50 && git log --oneline -10 && ls -la bin/ && make build`
	cases := []struct{ name, sub, event string }{
		{"subagent-stop", "subagent-stop", `{"session_id":"b1","hook_event_name":"SubagentStop","agent_id":"a1","agent_type":"spec-writer","stop_hook_active":false}`},
		{"stop", "stop", `{"session_id":"b1","hook_event_name":"Stop","stop_hook_active":false}`},
		{"subagent-start", "subagent-start", `{"session_id":"b2","hook_event_name":"SubagentStart","agent_id":"a2","agent_type":"spec-writer"}`},
		{"session-start", "session-start", `{"session_id":"b3","hook_event_name":"SessionStart","source":"startup"}`},
		{"pre-tool-use-bash", "pre-tool-use", `{"session_id":"b1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + bash + `"},"tool_use_id":"t1"}`},
		{"pre-tool-use-read", "pre-tool-use", `{"session_id":"b1","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"` + project + `/README.md"},"tool_use_id":"t2"}`},
		{"post-tool-use", "post-tool-use", `{"session_id":"b1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a","stderr":""},"tool_use_id":"t3"}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run(b, c.event, c.sub)
			}
		})
	}
}
