package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Claude Code runs the hooks of parallel tool calls (and of subagents) at the
// same time, each in its own process. These tests start 64 real massgen-hook
// processes at once, all for one session, and check that the budget's
// locked read-modify-write loses no update and lets no call past its limit.

const parallelCalls = 64

// buildHook returns the massgen-hook binary, built once per test run into a
// temporary directory that TestMain removes.
func buildHook(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds massgen-hook and starts 64 processes at once; skipped in -short mode")
	}
	buildBinaries(t)
	return built.bin
}

// buildScriptHook returns massgen-hook as the testscripts run it
// (internal/scripthook), named massgen-hook in a folder of its own, built
// once per test run beside buildHook's.
func buildScriptHook(t *testing.T) string {
	t.Helper()
	buildBinaries(t)
	return built.scriptBin
}

// buildBinaries builds both binaries, one after the other so that the
// second finds the first's packages compiled.
func buildBinaries(t *testing.T) {
	t.Helper()
	built.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			built.skip = "the go tool is not on PATH; cannot build massgen-hook"
			return
		}
		if built.dir, built.err = os.MkdirTemp("", "massgen-hook-test-bin-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "massgen-hook")
		if built.out, built.err = exec.Command(goTool, "build", "-o", built.bin, ".").CombinedOutput(); built.err != nil {
			return
		}
		// Without a VCS stamp, as a test binary has none (version_print).
		built.scriptBin = filepath.Join(built.dir, "scripts", "massgen-hook")
		built.out, built.err = exec.Command(goTool, "build", "-buildvcs=false", "-o", built.scriptBin, "./internal/scripthook").CombinedOutput()
	})
	switch {
	case built.skip != "":
		t.Skip(built.skip)
	case built.err != nil:
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
}

// built is the binary buildHook built, shared by every test of the run.
var built struct {
	once                sync.Once
	dir, bin, scriptBin string
	skip                string
	out                 []byte
	err                 error
}

// budgetProject makes a project whose configuration limits Bash to limit
// calls per session.
func budgetProject(t *testing.T, limit int) string {
	t.Helper()
	project := t.TempDir()
	writeFile(t, project, ".claude/massgen-hook.yaml",
		"hooks:\n  PreToolUse:\n    - type: builtin\n      handler: budget\n      options:\n        limits: {\"Bash\": "+itoa(limit)+"}\n")
	if err := os.MkdirAll(filepath.Join(project, ".home"), 0o755); err != nil {
		t.Fatal(err)
	}
	return project
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// hookEnv is the environment of a hook process in project: the test's own,
// without anything that would pick another project, config or agent.
func hookEnv(project string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "CLAUDE_PROJECT_DIR", "MASSGEN_HOOK_CONFIG", "MASSGEN_AGENT_ID", "MASSGEN_ORCHESTRATOR_ID",
			"MASSGEN_HOOK_NOW", "HOME", "TZ", statusFileEnv:
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"CLAUDE_PROJECT_DIR="+project,
		"MASSGEN_HOOK_NOW=2026-11-20T10:00:00Z",
		"HOME="+filepath.Join(project, ".home"),
		"TZ=UTC",
	)
}

type hookRun struct {
	stdout, stderr string
	code           int
	err            error
}

// runParallel starts n pre-tool-use processes for one session at once (all
// are created first, then released together) and returns what each did.
func runParallel(t *testing.T, bin, project string, n int) []hookRun {
	t.Helper()
	const event = `{"session_id":"parallel-session","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"toolu_p"}`
	env := hookEnv(project)
	runs := make([]hookRun, n)
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(bin, "pre-tool-use")
			cmd.Dir = project
			cmd.Env = env
			cmd.Stdin = strings.NewReader(event)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			ready.Done()
			<-start
			runs[i] = finish(cmd.Run(), &stdout, &stderr)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return runs
}

// budgetCount reads the session's count for the global Bash limit.
func budgetCount(t *testing.T, project string) int {
	t.Helper()
	path := filepath.Join(project, ".claude", "massgen-hook", "sessions", "parallel-session", "budget.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the budget record: %v", err)
	}
	var rec struct {
		Counts map[string]int `json:"counts"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("budget record %q: %v", data, err)
	}
	if len(rec.Counts) != 1 {
		t.Errorf("budget record %s: want one count, for \"global Bash\"", data)
	}
	return rec.Counts["global Bash"]
}

// auditLines checks the audit trail holds exactly want whole JSON lines:
// concurrent appends never interleave or get lost.
func auditLines(t *testing.T, project string, want int) {
	t.Helper()
	f, err := os.Open(filepath.Join(project, ".claude", "massgen-hook", "audit.jsonl"))
	if err != nil {
		t.Fatalf("audit trail: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Errorf("audit line %d is not one JSON object: %v\n%s", n, err, sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("audit trail has %d lines, want %d (one per call)", n, want)
	}
}

const budgetDenied = `"permissionDecision":"deny","permissionDecisionReason":"budget exhausted: proceed with the best information you have. (Bash: all 40 calls allowed this session are used; do not call these tools again.)"`

// TestParallelBudgetLimit: with a limit of 40, 64 simultaneous calls of one
// session are exactly 40 let through (no output) and 24 denied, all exit 0,
// and the record counts 40.
func TestParallelBudgetLimit(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	project := budgetProject(t, 40)
	runs := runParallel(t, bin, project, parallelCalls)
	allowed, denied := 0, 0
	for i, r := range runs {
		switch {
		case r.err != nil:
			t.Errorf("call %d: did not run: %v", i, r.err)
			continue
		case r.code != 0:
			t.Errorf("call %d: exit %d, want 0; stderr: %s", i, r.code, r.stderr)
		}
		if r.stderr != "" {
			t.Errorf("call %d: stderr: %s", i, r.stderr)
		}
		switch {
		case r.stdout == "":
			allowed++
		case strings.Contains(r.stdout, budgetDenied):
			denied++
		default:
			t.Errorf("call %d: unexpected stdout: %s", i, r.stdout)
		}
	}
	if allowed != 40 || denied != 24 {
		t.Errorf("%d calls let through and %d denied, want 40 and 24", allowed, denied)
	}
	if got := budgetCount(t, project); got != 40 {
		t.Errorf("budget.json counts %d calls, want 40", got)
	}
	auditLines(t, project, parallelCalls)
}

// TestParallelBudgetCount: with a limit far above, 64 simultaneous calls are
// all let through and counted: the record says exactly 64.
func TestParallelBudgetCount(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	project := budgetProject(t, 1000)
	runs := runParallel(t, bin, project, parallelCalls)
	for i, r := range runs {
		if r.err != nil || r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Errorf("call %d: err %v, exit %d, stdout %q, stderr %q; want exit 0 and no output", i, r.err, r.code, r.stdout, r.stderr)
		}
	}
	if got := budgetCount(t, project); got != parallelCalls {
		t.Errorf("budget.json counts %d calls, want %d: updates were lost", got, parallelCalls)
	}
	auditLines(t, project, parallelCalls)
}

// finish is what a massgen-hook process did, from cmd.Run's error and its
// captured output: exit 0, another exit code, or a failure to run at all.
func finish(err error, stdout, stderr *bytes.Buffer) hookRun {
	r := hookRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		r.err = err
	}
	return r
}
