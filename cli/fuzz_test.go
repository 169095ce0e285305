package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/fixtures"
	"github.com/massgen/massgen-hook/internal/testrace"

	"github.com/massgen/massgen-hook/cli"
)

// hookSubcommands are every hook subcommand of `massgen-hook --help`: each
// reads one event on stdin and answers on stdout.
var hookSubcommands = []string{
	"session-start", "subagent-start", "subagent-stop", "stop",
	"pre-tool-use", "post-tool-use", "post-tool-use-failure",
}

// fuzzConfig switches on every built-in check that keeps state or reads
// the event deeply, and recording (which redacts the event into the
// corpus). It names no command handler and no observe rule: those start
// processes, and observe detaches one into the background, which in
// process would re-run this test binary. git_log_entries: 0 keeps
// session-start from running git.
const fuzzConfig = `scratchpad:
  block_cap: 2
  session_start:
    git_log_entries: 0
record: true
hooks:
  PreToolUse:
    - type: builtin
      handler: budget
      options:
        limits: {"Bash": 2}
    - type: builtin
      handler: smart_retry
      options: {max_failures: 1}
    - type: builtin
      handler: round_timeout
      options: {initial_timeout: 600}
  PostToolUse:
    - type: builtin
      handler: high_priority_task_reminder
    - type: builtin
      handler: output_validation
    - type: builtin
      handler: injection_shield
agents:
  - id: reviewer
    hooks:
      PreToolUse:
        - type: builtin
          handler: budget
          matcher: "Write|Edit"
          options: {limits: {"*": 1}}
`

// fuzzProject makes a project for one fuzz input: the config above, an
// incomplete subagent scratchpad for today (so the stop hooks block) and
// older coordinator and ego scratchpads (so the start hooks quote them).
func fuzzProject(t *testing.T) string {
	project := t.TempDir()
	for name, content := range map[string]string{
		".claude/massgen-hook.yaml":                    fuzzConfig,
		".claude/scratchpad/reviewer/2026-11-20.md":    "## What I did\nReviewed.\n",
		".claude/scratchpad/coordinator/2026-11-19.md": "Delegated the review.\n",
		".claude/scratchpad/ego/2026-11-19.md":         "Ego assessment.\n",
		".home/.keep":                                  "",
	} {
		path := filepath.Join(project, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return project
}

// FuzzHook runs every hook subcommand in process (cli.Main, as the binary
// does) on any stdin, in a fresh temporary project, and checks the
// protocol's promises to Claude Code: no panic, an exit code of 0, 1 or 2,
// stdout empty or exactly one JSON object, and every stderr line one of
// massgen-hook's own.
//
// Main builds a new cobra tree and app per call and keeps no package
// state but read-only tables and sync.Once caches, so repeated in-process
// calls are safe. The only things that would reach outside the temporary
// project are configured, not driven by the event: command handlers,
// observe's detached worker (a.detach re-executes os.Args[0], here the
// test binary; nothing but replay's sandbox switches it off) and git;
// fuzzConfig has none of them, and the variables that could point at
// another config or recording directory are cleared.
//
// Without them a hook starts no goroutine (massgen-hook's only one is
// `check`'s file walk, not a hook's), so the race detector has nothing to
// find here: it skips itself under -race (23 s there, 5 s without), and
// `make test` runs it without. The package's other tests drive hooks with
// handlers, git and NATS under the detector.
func FuzzHook(f *testing.F) {
	testrace.Skip(f)
	for _, seed := range []string{
		``,
		`{}`,
		`null`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`,
		`{"session_id":"s1","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"make"},"error":"Exit code 2"}`,
		`{"hook_event_name":"SubagentStop","agent_type":"reviewer","agent_id":"a1","stop_hook_active":true}`,
		`{"hook_event_name":"beforeShellExecution","command":"ls","conversation_id":"c"}`,
		`{"sessionId":"s","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
		`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"PreToolUse","turn_id":"t1","tool_name":"Bash","tool_input":{"command":"ls"}}`,
	} {
		f.Add([]byte(seed), false)
	}
	// The fixtures' events, one of each shape (its fields, event and
	// tool): each seed costs seven hook runs, and the baseline is part of
	// the fuzz time. Their contents are the other targets' seeds.
	shapes := map[string]bool{}
	for _, ev := range fixtures.Files(f, ".json") {
		var fields map[string]json.RawMessage
		if json.Unmarshal(ev, &fields) != nil || fields["hook_event_name"] == nil && fields["sessionId"] == nil {
			continue // an expected answer, a settings file
		}
		shape := strings.Join(slices.Sorted(maps.Keys(fields)), ",") + string(fields["hook_event_name"]) + string(fields["tool_name"])
		if !shapes[shape] {
			shapes[shape] = true
			f.Add(ev, false)
		}
	}
	f.Fuzz(func(t *testing.T, stdin []byte, failClosed bool) {
		project := fuzzProject(t)
		for k, v := range map[string]string{
			"CLAUDE_PROJECT_DIR":      project,
			"HOME":                    filepath.Join(project, ".home"),
			"MASSGEN_HOOK_NOW":        "2026-11-20T10:00:00Z",
			"TZ":                      "UTC",
			"MASSGEN_HOOK_CONFIG":     "",
			"MASSGEN_HOOK_RECORD":     "",
			"MASSGEN_AGENT_ID":        "",
			"MASSGEN_ORCHESTRATOR_ID": "",
		} {
			t.Setenv(k, v)
		}
		for _, sub := range hookSubcommands {
			args := []string{sub}
			if failClosed {
				args = append(args, "--fail-closed")
			}
			var stdout, stderr bytes.Buffer
			code := runMain(t, args, stdin, &stdout, &stderr)
			if code < 0 || code > 2 {
				t.Fatalf("%s: exit %d, want 0, 1 or 2\nstdin %q\nstderr %s", sub, code, stdin, stderr.Bytes())
			}
			if err := oneObjectOrNothing(stdout.Bytes()); err != nil {
				t.Fatalf("%s (exit %d): stdout %q: %v\nstdin %q", sub, code, stdout.Bytes(), err, stdin)
			}
			for _, line := range strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n") {
				if line != "" && !strings.HasPrefix(line, "massgen-hook: ") {
					t.Fatalf("%s (exit %d): stderr line %q is not massgen-hook's\nstdin %q", sub, code, line, stdin)
				}
			}
		}
	})
}

// runMain is cli.Main with a panic turned into a test failure that names
// the subcommand and the input.
func runMain(t *testing.T, args []string, stdin []byte, stdout, stderr io.Writer) (code int) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panicked: %v\nstdin %q", args, r, stdin)
		}
	}()
	return cli.Main(args, bytes.NewReader(stdin), stdout, stderr)
}

// oneObjectOrNothing says what is wrong with out as a hook's stdout: it
// must be empty, or exactly one JSON object (whitespace around it aside).
func oneObjectOrNothing(out []byte) error {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 {
		if len(out) > 0 {
			return fmt.Errorf("whitespace only")
		}
		return nil
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		return fmt.Errorf("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}
