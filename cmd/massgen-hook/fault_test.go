package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Faults of the runtime directory (.claude/massgen-hook) that a testscript
// script cannot make: a read-only one (a read-only bind mount: chmod means
// nothing to root) and a really full one (a tmpfs filled to ENOSPC; the
// EFBIG variant, with `ulimit -f 0`, is testdata/script/fault_runtime_dir_full).
// Both need a mount in a private mount namespace (`unshare -m`, or
// `unshare -rm` without root); where that is impossible they are skipped,
// saying so.
//
// In both, every write the hooks need fails. The documented outcome
// (docs/troubleshooting.md):
//   - guard state: the rule gives no opinion with a systemMessage naming
//     the record (fail open), exit 0;
//   - the audit trail: the decision stands, one stderr line;
//   - the stop counter: exit 1 (fail open), one stderr line naming it;
//   - send: exit 1, one stderr line;
//   - the inbox: the messages stay queued (the missing warning is
//     testdata/script/fault_BUG_inbox_unwritable_no_warning);
//
// and nothing already recorded is lost: the budget count, the stop counter
// and the messages are as they were, and work again once writes do.

const (
	faultSearch = `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebSearch","tool_input":{"query":"go"}}`
	faultStop   = `{"session_id":"s1","hook_event_name":"SubagentStop","agent_id":"a1","agent_type":"spec-writer"}`
	faultPost   = `{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a","stderr":""}}`
)

// faultStep is one massgen-hook run inside the namespace (args, stdin), or
// one shell line (sh).
type faultStep struct {
	name, stdin string
	args        []string
	sh          string
}

// faultSetup prepares a project whose budget allows two searches, and
// gives it state: one search counted, one stop blocked, two messages
// queued.
func faultSetup(t *testing.T, bin string) (project string, env []string) {
	t.Helper()
	project = t.TempDir()
	writeFile(t, project, ".claude/massgen-hook.yaml",
		"hooks:\n  PreToolUse:\n    - type: builtin\n      handler: budget\n      options:\n        limits: {\"WebSearch\": 2}\n")
	if err := os.MkdirAll(filepath.Join(project, ".home"), 0o755); err != nil {
		t.Fatal(err)
	}
	env = hookEnv(project)
	for _, s := range []struct {
		stdin string
		args  []string
	}{
		{faultSearch, []string{"pre-tool-use"}},
		{faultStop, []string{"subagent-stop"}},
		{"", []string{"send", "--to", "coordinator", "first message"}},
		{"", []string{"send", "--to", "coordinator", "second message"}},
	} {
		if r := inboxRun(bin, env, project, s.stdin, s.args...); r.code != 0 || r.err != nil {
			t.Fatalf("setup %v: exit %d, %v\n%s", s.args, r.code, r.err, r.stderr)
		}
	}
	return project, env
}

// unshareArgs is how to enter a private mount namespace here.
func unshareArgs(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("runtime-directory mount faults need Linux mount namespaces (GOOS=%s); the EFBIG case in testdata/script/fault_runtime_dir_full.txtar still runs", runtime.GOOS)
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare is not installed: cannot mount a read-only or full runtime directory; the EFBIG case in testdata/script/fault_runtime_dir_full.txtar still runs")
	}
	if os.Geteuid() == 0 {
		return []string{"unshare", "-m"}
	}
	return []string{"unshare", "-r", "-m"}
}

// inNamespace runs setup (shell that makes $R, the runtime directory,
// read-only or full; it exits 97 when it cannot), then steps, in one
// private mount namespace, and returns each massgen-hook step's result and
// the folder ($out) the steps could copy things to. The mount ends with
// the namespace.
func inNamespace(t *testing.T, bin, project string, env []string, setup string, steps []faultStep) (map[string]hookRun, string) {
	t.Helper()
	out := t.TempDir()
	var script strings.Builder
	script.WriteString("bin=$1 out=$2 R=$3\n")
	script.WriteString("step() { name=$1; shift; \"$bin\" \"$@\" <\"$out/$name.in\" >\"$out/$name.out\" 2>\"$out/$name.err\"; echo $? >\"$out/$name.rc\"; }\n")
	script.WriteString(setup + "\n")
	for _, s := range steps {
		if s.sh != "" {
			script.WriteString(s.sh + "\n")
			continue
		}
		if err := os.WriteFile(filepath.Join(out, s.name+".in"), []byte(s.stdin), 0o644); err != nil {
			t.Fatal(err)
		}
		script.WriteString("step " + s.name)
		for _, a := range s.args {
			script.WriteString(" " + strconv.Quote(a)) // plain ASCII args: sh reads Go's quoting
		}
		script.WriteString("\n")
	}
	scriptPath := filepath.Join(out, "fault.sh")
	if err := os.WriteFile(scriptPath, []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	runtimeDir := filepath.Join(project, ".claude", "massgen-hook")
	args := append(unshareArgs(t), "sh", scriptPath, bin, out, runtimeDir)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = project, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 97 || strings.Contains(stderr.String(), "unshare") {
			t.Skipf("cannot mount in a private mount namespace here (%v: %s); the EFBIG case in testdata/script/fault_runtime_dir_full.txtar still runs",
				err, strings.TrimSpace(stderr.String()))
		}
		t.Fatalf("fault script: %v\n%s", err, stderr.String())
	}
	runs := map[string]hookRun{}
	for _, s := range steps {
		if s.sh != "" {
			continue
		}
		read := func(ext string) string {
			b, err := os.ReadFile(filepath.Join(out, s.name+ext))
			if err != nil {
				t.Fatalf("step %s: %v", s.name, err)
			}
			return string(b)
		}
		code, err := strconv.Atoi(strings.TrimSpace(read(".rc")))
		if err != nil {
			t.Fatalf("step %s: exit status %q", s.name, read(".rc"))
		}
		runs[s.name] = hookRun{stdout: read(".out"), stderr: read(".err"), code: code}
	}
	return runs, out
}

// snapshot maps every path under dir to its content ("dir" for folders).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			files[rel] = "dir"
			return nil
		}
		b, err := os.ReadFile(path)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// checkOneObject fails unless out is exactly one JSON object and a newline.
func checkOneObject(t *testing.T, step, out string) map[string]any {
	t.Helper()
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&obj); err != nil || !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 || dec.More() {
		t.Errorf("%s: stdout is not exactly one JSON object on one line: %q", step, out)
	}
	return obj
}

// checkOneLine fails unless stderr is exactly one line holding each of want.
func checkOneLine(t *testing.T, step, stderr string, want ...string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") || !strings.HasPrefix(stderr, "massgen-hook: ") {
		t.Errorf("%s: stderr is not one massgen-hook line: %q", step, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: stderr %q does not name %q", step, stderr, w)
		}
	}
}

// faultSteps are the hooks run while nothing can be written.
var faultSteps = []faultStep{
	{name: "pre", stdin: faultSearch, args: []string{"pre-tool-use"}},
	{name: "stop", stdin: faultStop, args: []string{"subagent-stop"}},
	{name: "stop-closed", stdin: faultStop, args: []string{"subagent-stop", "--fail-closed"}},
	{name: "post", stdin: faultPost, args: []string{"post-tool-use"}},
	{name: "send", args: []string{"send", "--to", "coordinator", "third message"}},
	{name: "inbox", args: []string{"inbox"}},
}

// checkFaultRuns asserts the documented outcome of faultSteps; errno is
// the error text the failed writes carry.
func checkFaultRuns(t *testing.T, runs map[string]hookRun, errno string) {
	t.Helper()
	pre := runs["pre"]
	if pre.code != 0 {
		t.Errorf("pre-tool-use: exit %d, want 0 (fail open)", pre.code)
	}
	obj := checkOneObject(t, "pre-tool-use", pre.stdout)
	msg, _ := obj["systemMessage"].(string)
	if len(obj) != 1 || !strings.Contains(msg, `hook "budget" failed`) || !strings.Contains(msg, "budget.json") ||
		!strings.Contains(msg, errno) || !strings.Contains(msg, "(fail open)") || strings.ContainsAny(msg, "\r\n") {
		t.Errorf("pre-tool-use: want only a one-line systemMessage naming the budget rule, its record and %q; got %q", errno, pre.stdout)
	}
	checkOneLine(t, "pre-tool-use", pre.stderr, "could not append to the audit trail", "audit.jsonl", errno)

	for name, code := range map[string]int{"stop": 1, "stop-closed": 2} {
		r := runs[name]
		if r.code != code || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want exit %d and no output", name, r.code, r.stdout, code)
		}
		checkOneLine(t, name, r.stderr, "stop loop guard", "stop-a1.json", errno)
	}

	if r := runs["post"]; r.code != 0 {
		t.Errorf("post-tool-use: exit %d, want 0 (the inbox fails open)", r.code)
	}
	if r := runs["send"]; r.code != 1 || r.stdout != "" {
		t.Errorf("send: exit %d, stdout %q; want exit 1 and no id", r.code, r.stdout)
	} else {
		checkOneLine(t, "send", r.stderr, "sending: writing message", errno)
	}
	if r := runs["inbox"]; r.code != 0 || !strings.Contains(r.stdout, "PENDING (2)") ||
		!strings.Contains(r.stdout, `"first message"`) || !strings.Contains(r.stdout, `"second message"`) {
		t.Errorf("inbox during the fault: exit %d, %q; want both messages pending", r.code, r.stdout)
	}
}

func TestFaultReadOnlyRuntimeDir(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	project, env := faultSetup(t, bin)
	runtimeDir := filepath.Join(project, ".claude", "massgen-hook")
	before := snapshot(t, runtimeDir)

	setup := `mount --bind "$R" "$R" && mount -o remount,ro,bind "$R" "$R" || exit 97
if touch "$R/.probe" 2>/dev/null; then exit 97; fi`
	runs, _ := inNamespace(t, bin, project, env, setup, faultSteps)
	checkFaultRuns(t, runs, "read-only file system")

	// Nothing in the runtime directory changed: no record, no temporary
	// file, no receipt, no lost or added file.
	after := snapshot(t, runtimeDir)
	for p, b := range before {
		if a, ok := after[p]; !ok || a != b {
			t.Errorf("%s changed or vanished under a read-only runtime directory", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared under a read-only runtime directory", p)
		}
	}

	// Writable again: the state goes on from where it was.
	faultAfterwards(t, bin, env, project)
}

// faultAfterwards checks, with the runtime directory writable again, that
// nothing was lost: both messages arrive once, the budget's second search
// is allowed and its third denied, the stop counter blocks twice more
// before the cap (3) lets the agent go.
func faultAfterwards(t *testing.T, bin string, env []string, project string) {
	t.Helper()
	run := func(stdin string, args ...string) hookRun {
		r := inboxRun(bin, env, project, stdin, args...)
		if r.err != nil || r.code != 0 {
			t.Fatalf("%v afterwards: exit %d, %v\n%s", args, r.code, r.err, r.stderr)
		}
		return r
	}
	post := run(faultPost, "post-tool-use")
	for _, m := range []string{"first message", "second message"} {
		if strings.Count(post.stdout, m) != 1 {
			t.Errorf("afterwards, post-tool-use delivers %q %d times, want once: %q", m, strings.Count(post.stdout, m), post.stdout)
		}
	}
	if strings.Contains(post.stdout, "third message") {
		t.Errorf("the message send refused was queued after all: %q", post.stdout)
	}
	if again := run(faultPost, "post-tool-use"); again.stdout != "" {
		t.Errorf("a second post-tool-use delivers again: %q", again.stdout)
	}
	if r := run(faultSearch, "pre-tool-use"); r.stdout != "" {
		t.Errorf("second search (count 1 kept): %q, want no opinion", r.stdout)
	}
	if r := run(faultSearch, "pre-tool-use"); !strings.Contains(r.stdout, "budget exhausted") {
		t.Errorf("third search: %q, want the budget's deny", r.stdout)
	}
	for i := 2; i <= 3; i++ {
		if r := run(faultStop, "subagent-stop"); !strings.Contains(r.stdout, `"decision":"block"`) {
			t.Errorf("stop %d afterwards: %q, want a block (the counter was 1)", i, r.stdout)
		}
	}
	if r := run(faultStop, "subagent-stop"); !strings.Contains(r.stdout, "after 3 blocked attempts") {
		t.Errorf("fourth stop: %q, want the cap's release after 3 blocks", r.stdout)
	}
}

func TestFaultFullRuntimeDir(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	project, env := faultSetup(t, bin)
	runtimeDir := filepath.Join(project, ".claude", "massgen-hook")
	// An append that fits in a file's last, partly used page needs no new
	// space and succeeds even on a full tmpfs: pad the audit trail and the
	// stop counter (a line per block) with a whole line to a page
	// boundary, so that their next line cannot fit. The counter's line
	// keeps its count (1).
	padToPage(t, filepath.Join(runtimeDir, "audit.jsonl"), os.Getpagesize(), `{"pad":"`, `"}`)
	padToPage(t, filepath.Join(runtimeDir, "sessions", "s1", "stop-a1.json"), os.Getpagesize(), `{"blocks":1,"last_reason":"`, `"}`)
	before := snapshot(t, runtimeDir)

	// A small tmpfs over the runtime directory, holding a copy of its
	// state, then filled up to ENOSPC.
	setup := `mkdir "$out/seed" && cp -a "$R/." "$out/seed/" || exit 97
mount -t tmpfs -o size=512k,mode=0700 tmpfs "$R" || exit 97
cp -a "$out/seed/." "$R/" || exit 97
dd if=/dev/zero of="$R/filler" bs=4096 2>/dev/null
[ -s "$R/filler" ] || exit 97
if printf x > "$R/.probe" 2>/dev/null; then exit 97; fi`
	steps := append([]faultStep{}, faultSteps...)
	// Then the state as the fault left it, copied out before the mount
	// goes away.
	steps = append(steps, faultStep{sh: `rm -f "$R/filler" "$R/.probe"; mkdir "$out/after" && cp -a "$R/." "$out/after/"`})
	runs, out := inNamespace(t, bin, project, env, setup, steps)
	checkFaultRuns(t, runs, "no space left on device")

	// Every record is as it was; only the claim folders of the receipts
	// that could not be written may have appeared (empty).
	after := snapshot(t, filepath.Join(out, "after"))
	for p, b := range before {
		if a, ok := after[p]; !ok || a != b {
			t.Errorf("%s changed or vanished on a full disk", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && !(after[p] == "dir" && strings.HasPrefix(p, filepath.Join("inbox", "receipts"))) {
			t.Errorf("%s appeared on a full disk", p)
		}
	}

	// Room again (the real directory, which the tmpfs hid, holds the same
	// state): nothing was lost.
	faultAfterwards(t, bin, env, project)
}

// padToPage appends one JSON line, head + x... + tail, to the file of
// lines at path so that its size is a multiple of page.
func padToPage(t *testing.T, path string, page int, head, tail string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	frame := len(head + tail + "\n")
	n := page - int(info.Size())%page
	if n < frame {
		n += page
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(head + strings.Repeat("x", n-frame) + tail + "\n"); err != nil {
		t.Fatal(err)
	}
}
