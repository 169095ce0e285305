package aftertool

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

var observeNow = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

func newObserveCheck(t *testing.T, options string) *observe {
	t.Helper()
	b, err := NewObserve(checktest.OptionsNode(t, options))
	if err != nil {
		t.Fatalf("newObserve(%q): %v", options, err)
	}
	return b.(*observe)
}

// postCall is a PostToolUse call of tool in g's project.
func postCall(t *testing.T, g *checktest.GuardEnv, tool, input, output string) *engine.Call {
	t.Helper()
	call := g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUse, Tool: tool, Input: input, Output: output, Scope: "global", Now: observeNow})
	call.Event.ToolUseID = "toolu_1"
	return call
}

// detachRecorder records the observe-run starts of a check, without running them.
type detachRecorder struct{ runs [][]string }

func (d *detachRecorder) detach(args ...string) error {
	d.runs = append(d.runs, args)
	return nil
}

func TestObserveOptions(t *testing.T) {
	o := newObserveCheck(t, "")
	if o.folder != ".claude/observed" || !reflect.DeepEqual(o.workProducts, []string{"**"}) || !o.saveSearch || o.searchTools.String() != defaultSearchTools {
		t.Errorf("defaults: got %+v", o)
	}
	o = newObserveCheck(t, `{folder: "out//reports/", work_products: ["reports/**"], search_tools: "mcp__exa__*", save_search_results: false}`)
	if o.folder != "out/reports" || !reflect.DeepEqual(o.workProducts, []string{"reports/**"}) || o.saveSearch {
		t.Errorf("options: got %+v", o)
	}
	if o := newObserveCheck(t, `save_work_products: false`); o.workProducts != nil || !o.saveSearch {
		t.Errorf("save_work_products: false: got %+v", o)
	}
}

func TestObserveOptionErrors(t *testing.T) {
	for _, tc := range []struct{ options, want string }{
		{`{folders: x}`, `unknown option "folders"`},
		{`folder: /srv/observed`, `folder: "/srv/observed" must be relative to the project`},
		{`folder: ~/observed`, `must be relative to the project`},
		{`folder: ..`, `folder: ".." leaves the project`},
		{`folder: a/../../x`, `leaves the project`},
		{`folder: ./`, `is the project root`},
		{`folder: .claude/massgen-hook/obs`, `inside massgen-hook's runtime directory`},
		{`folder: .git/obs`, `inside .git`},
		{`work_products: []`, `set save_work_products: false`},
		{`work_products: ["/etc/**"]`, `"/etc/**" is not a valid glob relative to the project`},
		{`work_products: ["../x/**"]`, `is not a valid glob relative to the project`},
		{`work_products: ["reports/[a"]`, `"reports/[a" is not a valid glob`},
		{`search_tools: ""`, `search_tools: empty`},
		{`search_tools: "WebSearch|"`, `search_tools: matcher "WebSearch|": empty alternative`},
		{`{save_work_products: false, save_search_results: false}`, `nothing to observe`},
		{`[folder]`, `options must be a mapping`},
	} {
		t.Run(tc.options, func(t *testing.T) {
			_, err := NewObserve(checktest.OptionsNode(t, tc.options))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestObserveWorkProducts: which writes are queued, under which names.
func TestObserveWorkProducts(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	outside := checktest.RealTempDir(t)
	checktest.WriteFiles(t, g.Project, "reports/a.md", "notes/b.txt", "nb.ipynb", ".env", ".env.example")
	checktest.WriteFiles(t, outside, "secret.txt")
	checktest.Symlink(t, "reports/a.md", filepath.Join(g.Project, "link.md"))
	checktest.Symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(g.Project, "out-link.md"))
	checktest.Symlink(t, outside, filepath.Join(g.Project, "out-dir"))
	for _, tc := range []struct {
		name, options, tool, input string
		source, saveAs, note       string // source "": not queued
	}{
		{name: "Write", tool: "Write", input: checktest.JsonInput("file_path", filepath.Join(g.Project, "reports/a.md")), source: "reports/a.md", saveAs: "reports/a.md"},
		{name: "Edit relative to cwd", tool: "Edit", input: checktest.JsonInput("file_path", "notes/b.txt"), source: "notes/b.txt", saveAs: "notes/b.txt"},
		{name: "MultiEdit", tool: "MultiEdit", input: checktest.JsonInput("file_path", "reports/a.md"), source: "reports/a.md", saveAs: "reports/a.md"},
		{name: "NotebookEdit", tool: "NotebookEdit", input: checktest.JsonInput("notebook_path", "nb.ipynb"), source: "nb.ipynb", saveAs: "nb.ipynb"},
		{name: "dot-dot inside", tool: "Write", input: checktest.JsonInput("file_path", "notes/../reports/a.md"), source: "reports/a.md", saveAs: "reports/a.md"},
		{name: "link inside: read the target, named as written", tool: "Write", input: checktest.JsonInput("file_path", "link.md"), source: "reports/a.md", saveAs: "link.md"},
		{name: "glob hit", options: `work_products: ["reports/**"]`, tool: "Write", input: checktest.JsonInput("file_path", "reports/a.md"), source: "reports/a.md", saveAs: "reports/a.md"},
		{name: "glob near miss", options: `work_products: ["reports/**"]`, tool: "Write", input: checktest.JsonInput("file_path", "notes/b.txt")},
		{name: "glob by the link's target", options: `work_products: ["reports/**"]`, tool: "Write", input: checktest.JsonInput("file_path", "link.md"), source: "reports/a.md", saveAs: "link.md"},
		{name: "dot-dot escape", tool: "Write", input: checktest.JsonInput("file_path", "../escape.txt"),
			note: "observe: " + filepath.Join(filepath.Dir(g.Project), "escape.txt") + " is outside the project; not saved"},
		{name: "absolute outside", tool: "Write", input: checktest.JsonInput("file_path", "/etc/hosts"), note: "observe: /etc/hosts is outside the project; not saved"},
		{name: "link out", tool: "Write", input: checktest.JsonInput("file_path", "out-link.md"),
			note: "observe: out-link.md leads outside the project through a symlink (to " + filepath.Join(outside, "secret.txt") + "); not saved"},
		{name: "directory link out", tool: "Write", input: checktest.JsonInput("file_path", "out-dir/new.md"),
			note: "observe: out-dir/new.md leads outside the project through a symlink (to " + filepath.Join(outside, "new.md") + "); not saved"},
		{name: "secret", tool: "Write", input: checktest.JsonInput("file_path", ".env")},
		{name: "template is no secret", tool: "Write", input: checktest.JsonInput("file_path", ".env.example"), source: ".env.example", saveAs: ".env.example"},
		{name: "git internals", tool: "Write", input: checktest.JsonInput("file_path", ".git/config")},
		{name: "the observed folder", tool: "Write", input: checktest.JsonInput("file_path", ".claude/observed/work_products/x.md")},
		{name: "the runtime directory", tool: "Write", input: checktest.JsonInput("file_path", ".claude/massgen-hook/audit.jsonl")},
		{name: "the project itself", tool: "Write", input: checktest.JsonInput("file_path", g.Project)},
		{name: "work products off", options: `save_work_products: false`, tool: "Write", input: checktest.JsonInput("file_path", "reports/a.md")},
		{name: "a read is no work product", tool: "Read", input: checktest.JsonInput("file_path", "reports/a.md")},
		{name: "no path", tool: "Write", input: `{"content":"x"}`},
		{name: "path not a string", tool: "Write", input: `{"file_path":7}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newObserveCheck(t, tc.options)
			job, note := o.job(postCall(t, g, tc.tool, tc.input, `{"type":"update"}`))
			if note != tc.note {
				t.Errorf("note %q, want %q", note, tc.note)
			}
			if tc.source == "" {
				if job != nil {
					t.Errorf("got job %+v, want none", job)
				}
				return
			}
			if job == nil || job.Kind != kindWorkProduct || job.Source != tc.source || job.Name != tc.saveAs {
				t.Errorf("got job %+v, want a work product from %s saved as %s", job, tc.source, tc.saveAs)
			}
		})
	}
}

// TestObserveSearchTools: which outputs are queued as search results.
func TestObserveSearchTools(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	const response = `{"results":[{"url":"https://go.dev"}]}`
	for _, tc := range []struct {
		options, tool, output string
		want                  bool
	}{
		{tool: "WebSearch", output: response, want: true},
		{tool: "WebFetch", output: `"page text"`, want: true},
		{tool: "mcp__brave__brave_web_search", output: `[{"type":"text","text":"x"}]`, want: true},
		{tool: "mcp__exa__webSearch", output: response, want: true},
		{tool: "mcp__composio__COMPOSIO_SEARCH_WEB", output: response, want: true},
		{tool: "WebSearchAgain", output: response},            // near miss: matchers are anchored
		{tool: "mcp__github__create_issue", output: response}, // an MCP tool that does not search
		{tool: "Bash", output: response},
		{tool: "Write", output: response}, // a writing tool is only ever a work product
		{tool: "WebSearch", output: `null`},
		{tool: "WebSearch"},
		{options: `search_tools: "mcp__exa__*"`, tool: "mcp__exa__find", output: response, want: true},
		{options: `search_tools: "mcp__exa__*"`, tool: "WebSearch", output: response},
		{options: `save_search_results: false`, tool: "WebSearch", output: response},
	} {
		t.Run(tc.options+" "+tc.tool, func(t *testing.T) {
			o := newObserveCheck(t, tc.options)
			job, note := o.job(postCall(t, g, tc.tool, `{"query":"go"}`, tc.output))
			if note != "" {
				t.Errorf("unexpected note %q", note)
			}
			if !tc.want {
				if job != nil {
					t.Errorf("got job %+v, want none", job)
				}
				return
			}
			if job == nil || job.Kind != kindSearchResult || string(job.ToolResponse) != tc.output || string(job.ToolInput) != `{"query":"go"}` {
				t.Errorf("got job %+v, want the search result %s", job, tc.output)
			}
		})
	}
}

// observerJobsIn lists the job files of st.
func observerJobsIn(t *testing.T, st *state.Dir) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(st.Path, "observers", "jobs", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestObserveQueuesJob: the hook writes one owner-only job file, whole,
// and starts observe-run on it with the project; it says nothing.
func TestObserveQueuesJob(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "reports/a.md")
	var d detachRecorder
	// The response is spliced in byte for byte, spaces and all.
	const response = `{"results": [ {"url": "https://go.dev"} ]}`
	search := postCall(t, g, "WebSearch", `{"query":"go"}`, response)
	search.ToolOutput = json.RawMessage(response) // as the hook reads it: a slice of the event
	for _, call := range []*engine.Call{
		postCall(t, g, "Write", checktest.JsonInput("file_path", "reports/a.md"), `{"type":"create"}`),
		search,
	} {
		call.Detach, call.Agent = d.detach, "researcher"
		v, err := newObserveCheck(t, "").Check(context.Background(), call)
		if err != nil || !reflect.DeepEqual(v, engine.Verdict{}) {
			t.Fatalf("%s: got %+v, %v; want no opinion", call.Event.ToolName, v, err)
		}
	}
	if len(d.runs) != 2 {
		t.Fatalf("started %d workers, want 2: %q", len(d.runs), d.runs)
	}
	want := []string{
		`{"kind":"work_product","folder":".claude/observed","time":"2026-11-20T10:00:00Z","session_id":"s1","agent":"researcher","tool":"Write","tool_use_id":"toolu_1","source":"reports/a.md","name":"reports/a.md"}`,
		`{"kind":"search_result","folder":".claude/observed","time":"2026-11-20T10:00:00Z","session_id":"s1","agent":"researcher","tool":"WebSearch","tool_use_id":"toolu_1","tool_input":{"query":"go"},"tool_response":` + response + `}`,
	}
	jobsDir := filepath.Join(g.State.Path, "observers", "jobs")
	for i, args := range d.runs {
		if len(args) != 4 || args[0] != "--project-dir" || args[1] != g.Project || args[2] != "observe-run" || filepath.Dir(args[3]) != jobsDir {
			t.Fatalf("worker %d started with %q", i, args)
		}
		body, err := os.ReadFile(args[3])
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != want[i] {
			t.Errorf("job %d:\n got %s\nwant %s", i, body, want[i])
		}
		assertObservedMode(t, args[3], 0o600)
	}
	assertObservedMode(t, jobsDir, 0o700|os.ModeDir)
	if files := observerJobsIn(t, g.State); len(files) != 2 {
		t.Errorf("job folder holds %q, want the two jobs and no temporary file", files)
	}
}

func assertObservedMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode() != want {
		t.Errorf("%s: mode %v, want %v", path, info.Mode(), want)
	}
}

// TestObserveDryRun: explain has no Detach; nothing is written.
func TestObserveDryRun(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "reports/a.md")
	call := postCall(t, g, "Write", checktest.JsonInput("file_path", "reports/a.md"), `{}`)
	v, err := newObserveCheck(t, "").Check(context.Background(), call)
	if err != nil || !reflect.DeepEqual(v, engine.Verdict{}) {
		t.Errorf("got %+v, %v; want no opinion", v, err)
	}
	if _, err := os.Stat(g.State.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dry run created %s (%v)", g.State.Path, err)
	}
}

// TestObserveDetachFails: a worker that cannot start is a stderr note, not
// a warning, and its job does not linger.
func TestObserveDetachFails(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "reports/a.md")
	call := postCall(t, g, "Write", checktest.JsonInput("file_path", "reports/a.md"), `{}`)
	call.Detach = func(...string) error { return errors.New("fork: out of processes") }
	v, err := newObserveCheck(t, "").Check(context.Background(), call)
	want := engine.Verdict{Notes: []string{"observe: could not start observe-run: fork: out of processes; the work product of Write is not saved"}}
	if err != nil || !reflect.DeepEqual(v, want) {
		t.Errorf("got %+v, %v; want %+v", v, err, want)
	}
	if files := observerJobsIn(t, g.State); len(files) != 0 {
		t.Errorf("left %q behind", files)
	}
}

// TestObserveStateUnwritable: a job folder that cannot be made is a note.
func TestObserveStateUnwritable(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "reports/a.md")
	blocker := filepath.Join(t.TempDir(), "file")
	checktest.WriteFiles(t, filepath.Dir(blocker), "file")
	call := postCall(t, g, "Write", checktest.JsonInput("file_path", "reports/a.md"), `{}`)
	call.State = state.Open(blocker) // its runtime directory would be inside a file
	var d detachRecorder
	call.Detach = d.detach
	v, err := newObserveCheck(t, "").Check(context.Background(), call)
	if err != nil || len(v.Notes) != 1 || !strings.HasPrefix(v.Notes[0], "observe: creating the job folder: ") || v.SystemMessage != "" || len(d.runs) != 0 {
		t.Errorf("got %+v, %v, %d runs; want one note", v, err, len(d.runs))
	}
}

// runObserved queues call's job with the check of options and runs the
// worker on it at once, as the detachRecorder process would.
func runObserved(t *testing.T, g *checktest.GuardEnv, options string, call *engine.Call) error {
	t.Helper()
	var runErr error
	ran := false
	call.Detach = func(args ...string) error {
		ran = true
		runErr = RunObserverJob(g.State, args[1], args[3], observeNow.Add(time.Second))
		return nil
	}
	v, err := newObserveCheck(t, options).Check(context.Background(), call)
	if err != nil || !reflect.DeepEqual(v, engine.Verdict{}) {
		t.Fatalf("check: got %+v, %v", v, err)
	}
	if !ran {
		t.Fatal("no worker was started")
	}
	return runErr
}

// observerAuditLines reads st's audit trail.
func observerAuditLines(t *testing.T, st *state.Dir) []map[string]any {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(st.Path, state.AuditFile))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(body)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line %s: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func lastObserverAudit(t *testing.T, st *state.Dir) map[string]any {
	t.Helper()
	lines := observerAuditLines(t, st)
	return lines[len(lines)-1]
}

func readObserved(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestObserveRunCopiesWorkProduct(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "reports/a.md")
	checktest.Symlink(t, "reports/a.md", filepath.Join(g.Project, "link.md"))
	if err := runObserved(t, g, "", postCall(t, g, "Write", checktest.JsonInput("file_path", "link.md"), `{}`)); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(g.Project, ".claude/observed/work_products/link.md")
	if got := readObserved(t, copied); got != "x\n" {
		t.Errorf("copy holds %q", got)
	}
	assertObservedMode(t, copied, 0o600)
	if got := readObserved(t, filepath.Join(g.Project, ".claude/observed/.gitignore")); !strings.HasSuffix(got, "\n*\n") {
		t.Errorf(".gitignore: %q", got)
	}
	want := map[string]any{"time": "2026-11-20T10:00:01Z", "event": "observer", "session_id": "s1", "tool": "Write",
		"tool_use_id": "toolu_1", "kind": "work_product", "source": "link.md", "outcome": "saved",
		"saved": ".claude/observed/work_products/link.md"}
	if got := lastObserverAudit(t, g.State); !reflect.DeepEqual(got, want) {
		t.Errorf("audit:\n got %v\nwant %v", got, want)
	}
	if files := observerJobsIn(t, g.State); len(files) != 0 {
		t.Errorf("job not removed: %q", files)
	}

	// A later write replaces the copy.
	if err := os.WriteFile(filepath.Join(g.Project, "reports/a.md"), []byte("v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runObserved(t, g, "", postCall(t, g, "Edit", checktest.JsonInput("file_path", "link.md"), `{}`)); err != nil {
		t.Fatal(err)
	}
	if got := readObserved(t, copied); got != "v2\n" {
		t.Errorf("copy holds %q after the edit", got)
	}
}

// TestObserveRunKeepsNewerCopy: a worker holding older content than the
// copy already saved (two workers racing) leaves the newer copy alone.
func TestObserveRunKeepsNewerCopy(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "a.md", ".claude/observed/work_products/a.md")
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(g.Project, ".claude/observed/work_products/a.md"), future, future); err != nil {
		t.Fatal(err)
	}
	if err := runObserved(t, g, "", postCall(t, g, "Write", checktest.JsonInput("file_path", "a.md"), `{}`)); err != nil {
		t.Fatal(err)
	}
	if got := lastObserverAudit(t, g.State); got["outcome"] != "skipped" || got["reason"] != "a newer copy is already saved" {
		t.Errorf("audit: %v", got)
	}
	if files, _ := filepath.Glob(filepath.Join(g.Project, ".claude/observed/work_products/.*.tmp")); len(files) != 0 {
		t.Errorf("temporary files left: %q", files)
	}
}

func TestObserveRunSavesSearchResults(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	call := func() *engine.Call {
		return postCall(t, g, "mcp__brave__brave_web_search", `{"query":"go"}`, `[{"type":"text","text":"Go: https://go.dev"}]`)
	}
	for range 2 {
		if err := runObserved(t, g, `folder: research`, call()); err != nil {
			t.Fatal(err)
		}
	}
	want := `{
  "time": "2026-11-20T10:00:00Z",
  "session_id": "s1",
  "tool": "mcp__brave__brave_web_search",
  "tool_use_id": "toolu_1",
  "tool_input": {
    "query": "go"
  },
  "tool_response": [
    {
      "type": "text",
      "text": "Go: https://go.dev"
    }
  ]
}
`
	// The second search at the same moment does not replace the first.
	for _, name := range []string{"20261120T100000.000Z-mcp__brave__brave_web_search.json", "20261120T100000.000Z-mcp__brave__brave_web_search-2.json"} {
		p := filepath.Join(g.Project, "research/search_results", name)
		if got := readObserved(t, p); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
		assertObservedMode(t, p, 0o600)
	}
	if got := lastObserverAudit(t, g.State); got["outcome"] != "saved" || got["kind"] != "search_result" ||
		got["saved"] != "research/search_results/20261120T100000.000Z-mcp__brave__brave_web_search-2.json" {
		t.Errorf("audit: %v", got)
	}
	if files, _ := filepath.Glob(filepath.Join(g.Project, "research/search_results/.*")); len(files) != 0 {
		t.Errorf("temporary files left: %q", files)
	}
}

// TestObserveRunSkipsVanished: a file deleted before the worker ran is
// skipped, and recorded as such.
func TestObserveRunSkipsVanished(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "a.md")
	call := postCall(t, g, "Write", checktest.JsonInput("file_path", "a.md"), `{}`)
	var jobFile string
	call.Detach = func(args ...string) error { jobFile = args[3]; return nil }
	if _, err := newObserveCheck(t, "").Check(context.Background(), call); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(g.Project, "a.md")); err != nil {
		t.Fatal(err)
	}
	if err := RunObserverJob(g.State, g.Project, jobFile, observeNow); err != nil {
		t.Fatal(err)
	}
	if got := lastObserverAudit(t, g.State); got["outcome"] != "skipped" || got["reason"] != "the file no longer exists" {
		t.Errorf("audit: %v", got)
	}
	if _, err := os.Stat(jobFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("job kept: %v", err)
	}
}

// writeObserverJob puts a job file in st's job folder, as the hook would.
func writeObserverJob(t *testing.T, st *state.Dir, name, body string) string {
	t.Helper()
	dir := filepath.Join(st.Path, "observers", "jobs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestObserveRunRefuses: a worker does only what the hook could have asked:
// jobs from the job folder, paths inside the project, folders that do not
// lead out of it. Every refusal is an audit line.
func TestObserveRunRefuses(t *testing.T) {
	outside := checktest.RealTempDir(t)
	checktest.WriteFiles(t, outside, "secret.txt")
	const wp = `{"kind":"work_product","folder":".claude/observed","time":"2026-11-20T10:00:00Z","tool":"Write",`
	for _, tc := range []struct {
		name, job string
		setup     func(t *testing.T, g *checktest.GuardEnv) string // the job file to run
		wantErr   string
		kept      bool // the job file is not the worker's to delete
	}{
		{name: "job outside the job folder", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			checktest.WriteFiles(t, g.Project, "job-1.json")
			return filepath.Join(g.Project, "job-1.json")
		}, wantErr: "is not a job-*.json in", kept: true},
		{name: "job path with dot-dot", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			checktest.WriteFiles(t, g.State.Path, "job-1.json")
			return filepath.Join(g.State.Path, "observers", "jobs", "..", "..", "job-1.json")
		}, wantErr: "is not a job-*.json in", kept: true},
		{name: "job symlink out", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			p := filepath.Join(g.State.Path, "observers", "jobs", "job-1.json")
			writeObserverJob(t, g.State, "job-0.json", "{}")
			checktest.Symlink(t, filepath.Join(outside, "secret.txt"), p)
			return p
		}, wantErr: "is not a regular file", kept: true},
		{name: "not a job", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			return writeObserverJob(t, g.State, "job-1.json", `not json`)
		}, wantErr: "is not a job"},
		{name: "source escapes", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			return writeObserverJob(t, g.State, "job-1.json", wp+`"source":"../secret.txt","name":"a.md"}`)
		}, wantErr: `job: path "../secret.txt" is not inside the project; refused`},
		{name: "absolute source", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			return writeObserverJob(t, g.State, "job-1.json", wp+`"source":"`+filepath.Join(outside, "secret.txt")+`","name":"a.md"}`)
		}, wantErr: `is not inside the project; refused`},
		{name: "name escapes", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			return writeObserverJob(t, g.State, "job-1.json", wp+`"source":"a.md","name":"../../../x.md"}`)
		}, wantErr: `job: path "../../../x.md" is not inside the project; refused`},
		{name: "folder escapes", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			return writeObserverJob(t, g.State, "job-1.json", strings.Replace(wp, ".claude/observed", "../x", 1)+`"source":"a.md","name":"a.md"}`)
		}, wantErr: `job: bad folder "../x"`},
		{name: "unknown kind", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			return writeObserverJob(t, g.State, "job-1.json", `{"kind":"shell","folder":"x","tool":"Bash"}`)
		}, wantErr: `job: unknown kind "shell"`},
		{name: "source became a link out", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			checktest.Symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(g.Project, "a.md"))
			return writeObserverJob(t, g.State, "job-1.json", wp+`"source":"a.md","name":"a.md"}`)
		}, wantErr: "opening a.md: "},
		{name: "folder links out", setup: func(t *testing.T, g *checktest.GuardEnv) string {
			checktest.WriteFiles(t, g.Project, "a.md")
			if err := os.MkdirAll(filepath.Join(g.Project, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			checktest.Symlink(t, outside, filepath.Join(g.Project, ".claude/observed"))
			return writeObserverJob(t, g.State, "job-1.json", wp+`"source":"a.md","name":"a.md"}`)
		}, wantErr: "creating the folder .claude/observed: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := checktest.NewGuardEnv(t)
			job := tc.setup(t, g)
			err := RunObserverJob(g.State, g.Project, job, observeNow)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
			}
			if got := lastObserverAudit(t, g.State); got["event"] != "observer" || got["outcome"] != "failed" || !strings.Contains(got["error"].(string), tc.wantErr) {
				t.Errorf("audit: %v", got)
			}
			if _, err := os.Lstat(job); errors.Is(err, os.ErrNotExist) == tc.kept {
				t.Errorf("job file kept: %v, want %v", err == nil, tc.kept)
			}
			if got := readObserved(t, filepath.Join(outside, "secret.txt")); got != "x\n" {
				t.Errorf("the file outside changed: %q", got)
			}
			if files, _ := filepath.Glob(filepath.Join(outside, "*")); len(files) != 1 {
				t.Errorf("written outside the project: %q", files)
			}
		})
	}
}

// A folder the copy would go to that is a link (to .git/hooks, say) is
// refused: nothing is written where it points.
func TestObserveRunRefusesLinkedFolder(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "pre-commit", ".git/hooks/keep", ".claude/observed/keep")
	checktest.Symlink(t, "../../.git/hooks", filepath.Join(g.Project, ".claude/observed/work_products"))
	err := runObserved(t, g, "", postCall(t, g, "Write", checktest.JsonInput("file_path", "pre-commit"), `{}`))
	if err == nil || !strings.Contains(err.Error(), "work_products is a symbolic link") {
		t.Errorf("run = %v, want the link refused", err)
	}
	if _, err := os.Lstat(filepath.Join(g.Project, ".git/hooks/pre-commit")); !os.IsNotExist(err) {
		t.Errorf("copied through the link: %v", err)
	}
	if got := lastObserverAudit(t, g.State); got["outcome"] != "failed" {
		t.Errorf("audit: %v", got)
	}
}

// TestObserveRunFIFO: a FIFO in the written file's place is skipped, not
// waited on forever.
func TestObserveRunFIFO(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	if err := syscall.Mkfifo(filepath.Join(g.Project, "a.md"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		done <- runObserved(t, g, "", postCall(t, g, "Write", checktest.JsonInput("file_path", "a.md"), `{}`))
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the worker hangs on a FIFO")
	}
	if got := lastObserverAudit(t, g.State); got["outcome"] != "skipped" || got["reason"] != "a.md is no longer a regular file" {
		t.Errorf("audit: %v", got)
	}
}

func TestObserveFileSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"WebSearch":               "WebSearch",
		"mcp__a__b-c.d":           "mcp__a__b-c.d",
		"../../etc/passwd":        ".._.._etc_passwd",
		"tool name/with\x00bytes": "tool_name_with_bytes",
		"":                        "tool",
		strings.Repeat("x", 300):  strings.Repeat("x", 100),
	} {
		if got := fileSafeName(in); got != want {
			t.Errorf("fileSafeName(%q) = %q, want %q", in, got, want)
		}
	}
}
