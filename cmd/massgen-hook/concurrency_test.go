package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Parallel invocations on one session of the stateful guards other than
// the budget (parallel_test.go) and the inbox (inbox_concurrency_test.go):
// the stop loop guard's counters and smart_retry's streak, each a locked
// read-modify-write in the runtime directory, must come out exact; and
// `check` run while scratchpads are being written must never crash nor
// touch them. Real massgen-hook processes, all released at once.

// TestConcurrency builds massgen-hook once for its subtests.
func TestConcurrency(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	t.Run("StopCounters", func(t *testing.T) { testConcurrencyStopCounters(t, bin) })
	t.Run("SmartRetryStreak", func(t *testing.T) { testConcurrencySmartRetry(t, bin) })
	t.Run("CheckDuringWrites", func(t *testing.T) { testConcurrencyCheckDuringWrites(t, bin) })
}

// call is one massgen-hook invocation: its arguments and stdin.
type call struct {
	args  []string
	stdin string
}

// runTogether starts every call at once (all goroutines are ready before
// any starts its process) and returns what each did, in order.
func runTogether(bin string, env []string, project string, calls []call) []hookRun {
	runs := make([]hookRun, len(calls))
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for i, c := range calls {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			runs[i] = inboxRun(bin, env, project, c.stdin, c.args...)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return runs
}

// concurrencyProject makes a project with config (and a HOME for hookEnv).
func concurrencyProject(t *testing.T, config string) string {
	t.Helper()
	project := t.TempDir()
	writeFile(t, project, ".claude/massgen-hook.yaml", config)
	writeFile(t, project, ".home/.keep", "")
	return project
}

// readState decodes the runtime record rel of project into v; false when
// the record does not exist.
func readState(t *testing.T, project, rel string, v any) bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(project, ".claude", "massgen-hook", filepath.FromSlash(rel)))
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v\n%s", rel, err, data)
	}
	return true
}

// seq is 1, 2, ..., n.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

// stopCycle is what n consecutive blocked stops of one agent come to with
// block_cap capN: capN blocks, then one release that resets the count, and
// again. It returns the blocks, the releases and the count left.
func stopCycle(n, capN int) (blocks, releases, left int) {
	for range n {
		if left >= capN {
			releases, left = releases+1, 0
			continue
		}
		blocks, left = blocks+1, left+1
	}
	return blocks, releases, left
}

// testConcurrencyStopCounters: 32 stop, 32 subagent-stop of agent a1 and
// 32 of agent a2, all of one session at once, each blocked (the session's
// tester wrote today, the coordinator did not; a1 and a2 wrote nothing). With
// block_cap 10, each of the three counters sees 32 calls in some order,
// so each must come to exactly 10+10 blocks, 2 releases and 10 left:
// one lost update and a count, a release or an audit line is off.
func testConcurrencyStopCounters(t *testing.T, bin string) {
	const perAgent, capN = 32, 10
	project := concurrencyProject(t, "scratchpad:\n  block_cap: "+itoa(capN)+"\n")
	writeFile(t, project, ".claude/scratchpad/tester/2026-11-20.md", "## What I did\n## Cross-agent observations\n## Unresolved\n")
	const session = "stop-concurrency"
	// The session delegated to tester, which wrote today's file.
	if r := inboxRun(bin, hookEnv(project), project, `{"session_id":"`+session+`","hook_event_name":"SubagentStop","agent_id":"t0","agent_type":"tester"}`, "subagent-stop"); r.code != 0 || r.stdout != "" {
		t.Fatalf("tester's stop: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	var calls []call
	for range perAgent {
		calls = append(calls,
			call{[]string{"stop"}, `{"session_id":"` + session + `","hook_event_name":"Stop","stop_hook_active":false}`},
			call{[]string{"subagent-stop"}, `{"session_id":"` + session + `","hook_event_name":"SubagentStop","agent_id":"a1","agent_type":"reviewer"}`},
			call{[]string{"subagent-stop"}, `{"session_id":"` + session + `","hook_event_name":"SubagentStop","agent_id":"a2","agent_type":"reviewer"}`},
		)
	}
	runs := runTogether(bin, hookEnv(project), project, calls)

	type tally struct{ blocks, releases int }
	got := map[string]*tally{"main": {}, "a1": {}, "a2": {}}
	for i, r := range runs {
		who := []string{"main", "a1", "a2"}[i%3]
		if r.err != nil || r.code != 0 || r.stderr != "" {
			t.Errorf("call %d (%s): err %v, exit %d, stderr %q; want exit 0 and no stderr", i, who, r.err, r.code, r.stderr)
			continue
		}
		var out struct {
			Decision      string `json:"decision"`
			SystemMessage string `json:"systemMessage"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Errorf("call %d (%s): stdout %q: %v", i, who, r.stdout, err)
			continue
		}
		switch {
		case out.Decision == "block":
			got[who].blocks++
		case strings.Contains(out.SystemMessage, fmt.Sprintf("stop after %d blocked attempts", capN)):
			got[who].releases++
		default:
			t.Errorf("call %d (%s): stdout %q: neither a block nor a release after %d", i, who, r.stdout, capN)
		}
	}
	blocks, releases, left := stopCycle(perAgent, capN)
	for _, who := range []string{"main", "a1", "a2"} {
		if g := got[who]; g.blocks != blocks || g.releases != releases {
			t.Errorf("%s: %d blocks and %d releases, want %d and %d", who, g.blocks, g.releases, blocks, releases)
		}
		// A line per block since the last release, each whole, counting
		// 1, 2, ...: no append lost or interleaved with another.
		var counts []int
		data, err := os.ReadFile(filepath.Join(project, ".claude", "massgen-hook", "sessions", session, "stop-"+who+".json"))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			var rec struct {
				Blocks int `json:"blocks"`
			}
			if !strings.HasSuffix(line, "\n") || json.Unmarshal([]byte(line), &rec) != nil {
				t.Errorf("%s: the stop counter holds a line that is not whole: %q", who, line)
			}
			counts = append(counts, rec.Blocks)
		}
		if want := seq(left); !slices.Equal(counts, want) {
			t.Errorf("%s: the stop counter's lines count %v, want %v", who, counts, want)
		}
	}
	// Each release, and nothing else, is audited, one whole line each.
	auditLines(t, project, 3*releases)
}

// testConcurrencySmartRetry: 64 failures of one exact call, at once, with
// max_failures 64: the streak holds all 64 errors, each once, and the
// next identical call is denied for 64 failures. Then 64 successes at
// once end the streak, and the call is allowed again. Every process exits
// 0 silently: a session's first record prunes old sessions in each of
// them at the same time, which must not show either.
func testConcurrencySmartRetry(t *testing.T, bin string) {
	const n = 64
	project := concurrencyProject(t, "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: smart_retry\n      options: {max_failures: "+itoa(n)+"}\n")
	env := hookEnv(project)
	const session = "retry-concurrency"
	const input = `"tool_name":"Bash","tool_input":{"command":"make test"}`
	pre := `{"session_id":"` + session + `","hook_event_name":"PreToolUse",` + input + `}`
	quiet := func(what string, runs []hookRun) {
		t.Helper()
		for i, r := range runs {
			if r.err != nil || r.code != 0 || r.stdout != "" || r.stderr != "" {
				t.Errorf("%s %d: err %v, exit %d, stdout %q, stderr %q; want exit 0 and no output", what, i, r.err, r.code, r.stdout, r.stderr)
			}
		}
	}

	var failures []call
	for i := range n {
		failures = append(failures, call{[]string{"post-tool-use-failure"},
			fmt.Sprintf(`{"session_id":%q,"hook_event_name":"PostToolUseFailure",%s,"error":"failure %02d"}`, session, input, i)})
	}
	quiet("failure", runTogether(bin, env, project, failures))
	var rec struct {
		Tool   string   `json:"tool"`
		Errors []string `json:"errors"`
	}
	if !readState(t, project, "sessions/"+session+"/retry-main.json", &rec) {
		t.Fatal("no retry record after 64 failures")
	}
	seen := map[string]int{}
	for _, e := range rec.Errors {
		seen[e]++
	}
	for i := range n {
		if e := fmt.Sprintf("failure %02d", i); seen[e] != 1 {
			t.Errorf("the streak holds %q %d times, want once", e, seen[e])
		}
	}
	if len(rec.Errors) != n || rec.Tool != "Bash" {
		t.Errorf("the streak is %d errors of %q, want %d of Bash", len(rec.Errors), rec.Tool, n)
	}
	r := inboxRun(bin, env, project, pre, "pre-tool-use")
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf(`"permissionDecision":"deny","permissionDecisionReason":"STOP AND THINK: this exact Bash call already failed %d times in a row.`, n)) {
		t.Errorf("the call after %d failures: exit %d, stdout %q, stderr %q; want a deny for %d failures", n, r.code, r.stdout, r.stderr, n)
	}

	var successes []call
	for range n {
		successes = append(successes, call{[]string{"post-tool-use"},
			`{"session_id":"` + session + `","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"Makefile"},"tool_response":{"type":"text"}}`})
	}
	quiet("success", runTogether(bin, env, project, successes))
	rec.Errors = nil
	if readState(t, project, "sessions/"+session+"/retry-main.json", &rec) && len(rec.Errors) > 0 {
		t.Errorf("the streak survived %d successes: %d errors", n, len(rec.Errors))
	}
	quiet("the call after the successes", []hookRun{inboxRun(bin, env, project, pre, "pre-tool-use")})
}

// What `check` must report for a scratchpad being written while it runs:
//
//   - written atomically (a temporary file in the same directory, then a
//     rename over the scratchpad), the file check reads is always a whole
//     one, old or new: never a violation. The temporary file is not named
//     YYYY-MM-DD.md and is not a scratchpad.
//   - written in place (truncated, then written in two halves), check may
//     read it empty or half written. That is what is on disk, so check
//     reports it like any incomplete file: exit 1 with one missing_sections
//     violation for that file, naming some of the required headings in
//     their order, and nothing else: never unreadable, never another file,
//     never a missing coordinator. Usually the headings named are those
//     after the cut, but not always: a read that spans a rewrite sees the
//     old file's start and the new one's end, and when the two differ in
//     length the heading at the seam can be lost while the later ones are
//     seen (CI saw Missing: [Cross-agent observations]).
//
// Either way check exits 0 or 1 with a whole JSON report, counts the same
// files every time, and changes nothing: afterwards every file is as its
// writer last wrote it, and check left no file of its own.
func testConcurrencyCheckDuringWrites(t *testing.T, bin string) {
	project := concurrencyProject(t, "")
	const day = "2026-11-20"
	full := func(n int) string {
		return fmt.Sprintf("# Notes %d\n\n## What I did\n%s\n\n## Cross-agent observations\n%s\n\n## Unresolved\n%s\n",
			n, strings.Repeat("did things. ", 40+n%7), strings.Repeat("saw things. ", 30), strings.Repeat("open. ", 20))
	}
	writeFile(t, project, ".claude/scratchpad/coordinator/"+day+".md", "Delegated.\n")
	writeFile(t, project, ".claude/scratchpad/tester/"+day+".md", full(0))
	atomicFile := filepath.Join(project, ".claude", "scratchpad", "atomic-writer", day+".md")
	inPlaceFile := filepath.Join(project, ".claude", "scratchpad", "inplace-writer", day+".md")
	writeFile(t, project, ".claude/scratchpad/atomic-writer/"+day+".md", full(0))
	writeFile(t, project, ".claude/scratchpad/inplace-writer/"+day+".md", full(0))

	var stop atomic.Bool
	var writers sync.WaitGroup
	var lastAtomic, lastInPlace atomic.Value
	lastAtomic.Store(full(0))
	lastInPlace.Store(full(0))
	var writeErrs []error
	var errMu sync.Mutex
	fail := func(err error) {
		errMu.Lock()
		defer errMu.Unlock()
		writeErrs = append(writeErrs, err)
	}
	writers.Add(2)
	go func() { // atomic: temporary file and rename
		defer writers.Done()
		for i := 1; !stop.Load(); i++ {
			content := full(i)
			tmp := filepath.Join(filepath.Dir(atomicFile), fmt.Sprintf(".%s.tmp-%d", day, i))
			if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
				fail(err)
				return
			}
			if err := os.Rename(tmp, atomicFile); err != nil {
				fail(err)
				return
			}
			lastAtomic.Store(content)
		}
	}()
	go func() { // in place: truncate, then two halves
		defer writers.Done()
		for i := 1; !stop.Load(); i++ {
			content := full(i)
			f, err := os.OpenFile(inPlaceFile, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				fail(err)
				return
			}
			half := len(content) / 2
			_, err1 := f.WriteString(content[:half])
			time.Sleep(200 * time.Microsecond)
			_, err2 := f.WriteString(content[half:])
			if err := f.Close(); err1 != nil || err2 != nil || err != nil {
				fail(fmt.Errorf("writing %s: %v %v %v", inPlaceFile, err1, err2, err))
				return
			}
			lastInPlace.Store(content)
			time.Sleep(200 * time.Microsecond) // whole for a while too
		}
	}()

	env := hookEnv(project)
	const checkers, runsEach = 2, 60
	var halfSeen atomic.Int64
	var problems sync.Map
	var cwg sync.WaitGroup
	for c := range checkers {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for i := range runsEach {
				r := inboxRun(bin, env, project, "", "check", "--format", "json")
				if msg := checkProblem(r, day); msg != "" {
					problems.Store(fmt.Sprintf("checker %d run %d", c, i), msg)
				} else if r.code == 1 {
					halfSeen.Add(1)
				}
			}
		}()
	}
	cwg.Wait()
	stop.Store(true)
	writers.Wait()
	for _, err := range writeErrs {
		t.Errorf("writer: %v", err)
	}
	problems.Range(func(k, v any) bool {
		t.Errorf("%s: %s", k, v)
		return true
	})
	t.Logf("%d of %d checks caught the in-place file half written", halfSeen.Load(), checkers*runsEach)

	// Check touched nothing: every file is the writer's last, and no other
	// file appeared (no runtime directory, no temporary file left).
	for path, want := range map[string]string{atomicFile: lastAtomic.Load().(string), inPlaceFile: lastInPlace.Load().(string)} {
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("%s is not what its writer last wrote (%v)", path, err)
		}
	}
	var files []string
	err := filepath.WalkDir(project, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(project, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".claude/massgen-hook.yaml", ".claude/scratchpad/atomic-writer/" + day + ".md", ".claude/scratchpad/coordinator/" + day + ".md",
		".claude/scratchpad/inplace-writer/" + day + ".md", ".claude/scratchpad/tester/" + day + ".md", ".home/.keep"}
	if !slices.Equal(files, want) {
		t.Errorf("files after the checks:\n%q\nwant\n%q", files, want)
	}
}

// checkProblem says what is wrong with one `check --format json` run made
// while the scratchpads were being written, or "" when it is what the
// comment above testConcurrencyCheckDuringWrites allows.
func checkProblem(r hookRun, day string) string {
	if r.err != nil || r.code < 0 || r.code > 1 || r.stderr != "" {
		return fmt.Sprintf("err %v, exit %d, stderr %q; want exit 0 or 1 and no stderr", r.err, r.code, r.stderr)
	}
	var rep struct {
		FilesChecked int `json:"files_checked"`
		Violations   []struct {
			Kind    string   `json:"kind"`
			Path    string   `json:"path"`
			Missing []string `json:"missing"`
		} `json:"violations"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		return fmt.Sprintf("stdout is not a JSON report (%v): %q", err, r.stdout)
	}
	if rep.FilesChecked != 4 {
		return fmt.Sprintf("%d files checked, want 4", rep.FilesChecked)
	}
	if (r.code == 1) != (len(rep.Violations) > 0) {
		return fmt.Sprintf("exit %d with %d violations", r.code, len(rep.Violations))
	}
	if len(rep.Violations) == 0 {
		return ""
	}
	v := rep.Violations[0]
	sections := []string{"What I did", "Cross-agent observations", "Unresolved"}
	if len(rep.Violations) != 1 || v.Kind != "missing_sections" || v.Path != ".claude/scratchpad/inplace-writer/"+day+".md" ||
		len(v.Missing) == 0 || !inOrderWithin(v.Missing, sections) {
		return fmt.Sprintf("violations %+v: want at most one missing_sections, for the in-place file, naming some of %q in order", rep.Violations, sections)
	}
	return ""
}

// inOrderWithin reports whether every name in got is in want, each once,
// in want's order.
func inOrderWithin(got, want []string) bool {
	i := 0
	for _, g := range got {
		for i < len(want) && want[i] != g {
			i++
		}
		if i == len(want) {
			return false
		}
		i++
	}
	return true
}
