// Package python holds the Python baseline of the benchmarks: seed 004's four
// lifecycle hook scripts as a user would write them (see docs/performance.md). This
// test checks that they decide as massgen-hook does on the same events and
// projects, so that the benchmark compares like with like.
package python

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const (
	now   = "2026-11-20T10:00:00Z"
	today = "2026-11-20"
)

// answer is what a hook said, reduced to what must agree.
type answer struct {
	kind    string // "pass", "block" or "context"
	context string
	stdout  string
}

func TestSameDecisions(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the Python baseline cannot be run, so it is not compared with massgen-hook")
	}
	_, gitErr := exec.LookPath("git")
	bin := buildHook(t)

	// proj: a subagent that wrote a complete scratchpad today, one whose
	// last heading is only inside a code fence, the coordinator's log for
	// today (30 lines) and an older ego assessment (25 lines). A git
	// repository with one commit, when git is there.
	proj := t.TempDir()
	write(t, proj, "spec-writer/"+today+".md", "## What I did\nWrote it.\n## Cross-agent observations\nNone.\n## Unresolved\nNone.\n")
	write(t, proj, "fenced/"+today+".md", "## What I did\nx\n## Cross-agent observations\ny\n```\n## Unresolved\n```\n")
	write(t, proj, "coordinator/"+today+".md", numbered("coordinator line", 30))
	write(t, proj, "coordinator/2026-11-19.md", "older coordinator log\n")
	write(t, proj, "ego/2026-11-19.md", numbered("ego line", 25))
	write(t, proj, "ego/notes.txt", "not a dated file\n")
	if gitErr == nil {
		git(t, proj, "init", "-q")
		git(t, proj, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgsign=false",
			"commit", "-q", "--allow-empty", "-m", "fixture commit for the baseline test")
	}
	// undocumented: a subagent wrote today, the coordinator only yesterday.
	undocumented := t.TempDir()
	write(t, undocumented, "spec-writer/"+today+".md", "## What I did\nx\n## Cross-agent observations\ny\n## Unresolved\nz\n")
	write(t, undocumented, "coordinator/2026-11-19.md", "yesterday\n")
	// empty: no scratchpad at all.
	empty := t.TempDir()
	// massgen-hook judges THIS subagent (its file changed since its start)
	// and THIS session (its own subagents), which it learns from their
	// start and stop events; seed 004's scripts go by the date alone. So
	// the projects of those checks are prepared with the events first,
	// and both judge the same situation. fresh: a subagent that wrote its
	// scratchpad after it started. delegated: a session whose subagent
	// wrote its scratchpad, then the coordinator its log.
	fresh, delegated := t.TempDir(), t.TempDir()
	prepare := func(t *testing.T, project, event, sub string) {
		t.Helper()
		cmd := exec.Command(bin, sub)
		cmd.Stdin = strings.NewReader(event)
		cmd.Env = append(cleanEnv(), "CLAUDE_PROJECT_DIR="+project, "MASSGEN_HOOK_NOW="+now, "TZ=UTC")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("preparing %s with %s: %v\n%s", project, sub, err, out)
		}
	}
	complete := "## What I did\nWrote it.\n## Cross-agent observations\nNone.\n## Unresolved\nNone.\n"

	type check struct {
		name, script, sub, project, event string
		want                              string
		contains, lacks                   []string
		// setup prepares the project (massgen-hook's side of it).
		setup func(t *testing.T)
	}
	startup := []string{"coordinator line 30", "coordinator line 06", "ego line 25", "ego line 06"}
	if gitErr == nil {
		startup = append(startup, "fixture commit for the baseline test")
	}
	checks := []check{
		{name: "subagent-stop, complete scratchpad", script: "subagent-stop.py", sub: "subagent-stop", project: fresh,
			event: `{"session_id":"t1","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a1","agent_type":"spec-writer"}`, want: "pass",
			setup: func(t *testing.T) {
				prepare(t, fresh, `{"session_id":"t1","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"spec-writer"}`, "subagent-start")
				write(t, fresh, "spec-writer/"+today+".md", complete)
			}},
		{name: "subagent-stop, no scratchpad", script: "subagent-stop.py", sub: "subagent-stop", project: proj,
			event: `{"session_id":"t1","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a2","agent_type":"missing-writer"}`, want: "block"},
		{name: "subagent-stop, heading only in a code fence", script: "subagent-stop.py", sub: "subagent-stop", project: proj,
			event: `{"session_id":"t1","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a3","agent_type":"fenced"}`, want: "block"},
		{name: "subagent-stop, empty agent_type is general-purpose", script: "subagent-stop.py", sub: "subagent-stop", project: proj,
			event: `{"session_id":"t1","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a4","agent_type":""}`, want: "block"},
		{name: "stop, delegation and coordinator log", script: "stop.py", sub: "stop", project: delegated,
			event: `{"session_id":"t2","hook_event_name":"Stop","stop_hook_active":false}`, want: "pass",
			setup: func(t *testing.T) {
				prepare(t, delegated, `{"session_id":"t2","hook_event_name":"SubagentStart","agent_id":"a5","agent_type":"spec-writer"}`, "subagent-start")
				write(t, delegated, "spec-writer/"+today+".md", complete)
				prepare(t, delegated, `{"session_id":"t2","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a5","agent_type":"spec-writer"}`, "subagent-stop")
				write(t, delegated, "coordinator/"+today+".md", "Delegated the spec to spec-writer.\n")
			}},
		{name: "stop, delegation without coordinator log", script: "stop.py", sub: "stop", project: undocumented,
			event: `{"session_id":"t3","hook_event_name":"Stop","stop_hook_active":false}`, want: "block",
			setup: func(t *testing.T) {
				prepare(t, undocumented, `{"session_id":"t3","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a6","agent_type":"spec-writer"}`, "subagent-stop")
			}},
		{name: "stop, no delegation", script: "stop.py", sub: "stop", project: empty,
			event: `{"session_id":"t1","hook_event_name":"Stop","stop_hook_active":false}`, want: "pass"},
		{name: "session-start, startup", script: "session-start.py", sub: "session-start", project: proj,
			event: `{"session_id":"t1","hook_event_name":"SessionStart","source":"startup"}`, want: "context",
			contains: startup, lacks: []string{"coordinator line 05", "ego line 05", "older coordinator log"}},
		{name: "session-start, resume", script: "session-start.py", sub: "session-start", project: proj,
			event: `{"session_id":"t1","hook_event_name":"SessionStart","source":"resume"}`, want: "pass"},
		{name: "session-start, startup, nothing to tell", script: "session-start.py", sub: "session-start", project: empty,
			event: `{"session_id":"t1","hook_event_name":"SessionStart","source":"startup"}`, want: "pass"},
		{name: "subagent-start", script: "subagent-context.py", sub: "subagent-start", project: proj,
			event: `{"session_id":"t1","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"spec-writer"}`, want: "context",
			contains: []string{".claude/scratchpad/spec-writer/" + today + ".md", today, "## What I did", "## Cross-agent observations",
				"## Unresolved", "ego line 25", "ego line 23", "coordinator line 30", "coordinator line 28"},
			lacks: []string{"ego line 22", "coordinator line 27"}},
		{name: "subagent-start, empty project", script: "subagent-context.py", sub: "subagent-start", project: empty,
			event: `{"session_id":"t1","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"spec-writer"}`, want: "context",
			contains: []string{".claude/scratchpad/spec-writer/" + today + ".md", "## Unresolved"}},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup(t)
			}
			script, err := filepath.Abs(c.script)
			if err != nil {
				t.Fatal(err)
			}
			pyAns := run(t, c.project, c.event, py, script)
			goAns := run(t, c.project, c.event, bin, c.sub)
			for _, side := range []struct {
				who string
				a   answer
			}{{"python", pyAns}, {"massgen-hook", goAns}} {
				if side.a.kind != c.want {
					t.Errorf("%s answered %s, want %s; stdout: %s", side.who, side.a.kind, c.want, side.a.stdout)
				}
				for _, s := range c.contains {
					if !strings.Contains(side.a.context, s) {
						t.Errorf("%s's context lacks %q:\n%s", side.who, s, side.a.context)
					}
				}
				for _, s := range c.lacks {
					if strings.Contains(side.a.context, s) {
						t.Errorf("%s's context has %q:\n%s", side.who, s, side.a.context)
					}
				}
			}
		})
	}
}

// buildHook builds massgen-hook into a temporary directory.
func buildHook(t *testing.T) string {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to build massgen-hook with")
		}
	}
	bin := filepath.Join(t.TempDir(), "massgen-hook")
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/massgen/massgen-hook/cmd/massgen-hook")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building massgen-hook: %v\n%s", err, out)
	}
	return bin
}

// run runs one hook on event in project, with the clock pinned, and reduces
// its answer. Both hooks fail open with exit 0 on their own errors, so any
// other exit is a test failure.
func run(t *testing.T, project, event string, argv ...string) answer {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(event)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(cleanEnv(), "CLAUDE_PROJECT_DIR="+project, "MASSGEN_HOOK_NOW="+now, "TZ=UTC")
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v; stderr: %s", strings.Join(argv, " "), err, stderr.String())
	}
	if strings.TrimSpace(stderr.String()) != "" {
		t.Errorf("%s wrote to stderr: %s", strings.Join(argv, " "), stderr.String())
	}
	a := answer{kind: "pass", stdout: stdout.String()}
	if strings.TrimSpace(a.stdout) == "" {
		return a // no output: no opinion
	}
	var out struct {
		Decision           string `json:"decision"`
		Reason             string `json:"reason"`
		HookSpecificOutput *struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%s: stdout is not one JSON object: %v: %s", strings.Join(argv, " "), err, a.stdout)
	}
	switch {
	case out.Decision == "block":
		if out.Reason == "" {
			t.Errorf("%s: block without a reason", strings.Join(argv, " "))
		}
		a.kind = "block"
	case out.Decision != "":
		t.Errorf("%s: unexpected decision %q", strings.Join(argv, " "), out.Decision)
	case out.HookSpecificOutput != nil && out.HookSpecificOutput.AdditionalContext != "":
		a.kind, a.context = "context", out.HookSpecificOutput.AdditionalContext
		var ev struct {
			Name string `json:"hook_event_name"`
		}
		_ = json.Unmarshal([]byte(event), &ev)
		if got := out.HookSpecificOutput.HookEventName; got != ev.Name {
			t.Errorf("%s: hookEventName %q, want %q", strings.Join(argv, " "), got, ev.Name)
		}
	}
	return a
}

// cleanEnv is the test's environment without the variables either hook
// reads, so that the caller's settings do not leak in.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CLAUDE_") || strings.HasPrefix(kv, "MASSGEN_") || strings.HasPrefix(kv, "TZ=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// write writes a file under project's scratchpad root.
func write(t *testing.T, project, rel, content string) {
	t.Helper()
	path := filepath.Join(project, ".claude", "scratchpad", filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// numbered is n lines "prefix 01" ... "prefix n".
func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %02d\n", prefix, i)
	}
	return b.String()
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
