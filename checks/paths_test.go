package checks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// testHome is the HOME the guard tests give their calls: outside /tmp, so
// that "under /tmp" never explains away a result about the home directory.
const testHome = "/home/massgen-hook-test-user"

// guardEnv is a project and what a call made in it sees.
type guardEnv struct {
	project string
	state   *state.Dir
	environ []string
}

// newGuardEnv makes a fresh project (symlinks of the temp root resolved, so
// paths compare as written) with its own state directory.
func newGuardEnv(t *testing.T) *guardEnv {
	t.Helper()
	project, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &guardEnv{project: project, state: state.Open(t.TempDir()),
		environ: []string{"HOME=" + testHome, "PATH=" + os.Getenv("PATH")}}
}

// callSpec describes one hook call; zero fields take defaults.
type callSpec struct {
	hook    string // PreToolUse unless set
	session string // "s1" unless set
	tool    string
	input   string // raw JSON tool_input; "" leaves it out
	output  string // raw JSON tool_response; "" leaves it out
	errText string // PostToolUseFailure's error
	cwd     string // the project unless set; "-" leaves it out
	agent   string
	scope   string // "default" unless set
	now     time.Time
}

// makeCall builds the engine.Call of s, its event parsed by
// protocol.ParseEvent as the hook would read it.
func (g *guardEnv) makeCall(t *testing.T, s callSpec) *engine.Call {
	t.Helper()
	if s.hook == "" {
		s.hook = protocol.PreToolUse
	}
	if s.session == "" {
		s.session = "s1"
	}
	if s.cwd == "" {
		s.cwd = g.project
	}
	if s.scope == "" {
		s.scope = "default"
	}
	ev := map[string]any{"hook_event_name": s.hook, "session_id": s.session, "tool_name": s.tool}
	if s.cwd != "-" {
		ev["cwd"] = s.cwd
	}
	if s.input != "" {
		ev["tool_input"] = json.RawMessage(s.input)
	}
	if s.output != "" {
		ev["tool_response"] = json.RawMessage(s.output)
	}
	if s.errText != "" {
		ev["error"] = s.errText
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatalf("event for %+v: %v", s, err)
	}
	parsed, err := protocol.ParseEvent(raw, s.hook)
	if err != nil {
		t.Fatalf("ParseEvent(%s): %v", raw, err)
	}
	return &engine.Call{Event: parsed, HookType: s.hook, Agent: s.agent, Now: s.now, Project: g.project,
		ToolInput: parsed.ToolInput, ToolOutput: parsed.ToolResponse, Environ: g.environ,
		State: g.state, Scope: s.scope}
}

// jsonInput is the tool_input of one string field.
func jsonInput(field, value string) string {
	b, err := json.Marshal(map[string]string{field: value})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// bashInput is Bash's tool_input for command.
func bashInput(command string) string { return jsonInput("command", command) }

// optionsNode parses text as a built-in check's options ("" is no options).
func optionsNode(t *testing.T, text string) *yaml.Node {
	t.Helper()
	if text == "" {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("options %q: %v", text, err)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// writeFiles creates each file (with parents) under root.
func writeFiles(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// realTempDir is t.TempDir with its symlinks resolved.
func realTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestNewProject(t *testing.T) {
	root := realTempDir(t)
	writeFiles(t, root, "real/x")
	symlink(t, filepath.Join(root, "real"), filepath.Join(root, "link"))
	for _, tc := range []struct{ given, root, real string }{
		{root + "/real/", root + "/real", root + "/real"},
		{root + "/link", root + "/link", root + "/real"},
		{root + "/link/../real", root + "/real", root + "/real"},
		{"/nonexistent-massgen-test/p", "/nonexistent-massgen-test/p", "/nonexistent-massgen-test/p"},
	} {
		if got := newProject(tc.given); got.root != tc.root || got.real != tc.real {
			t.Errorf("newProject(%q) = %+v, want {%q %q}", tc.given, got, tc.root, tc.real)
		}
	}
}

func TestProjectInsideFormsDisplay(t *testing.T) {
	base := realTempDir(t)
	proj := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	writeFiles(t, base, "proj/.env", "proj/sub/a.txt", "outside/secret.txt")
	symlink(t, outside, filepath.Join(proj, "escape"))
	symlink(t, ".env", filepath.Join(proj, "harmless"))
	symlink(t, proj, filepath.Join(base, "projlink"))
	symlink(t, filepath.Join(proj, "sub"), filepath.Join(outside, "back"))

	pr := newProject(proj)
	for _, tc := range []struct {
		p       string
		inside  bool
		forms   []string
		display string
	}{
		{".env", true, []string{".env"}, ".env"},
		{"sub/a.txt", true, []string{"sub/a.txt"}, "sub/a.txt"},
		{"sub/../.env", true, []string{".env"}, ".env"},
		{".", true, []string{"."}, "."},
		{"new/file.go", true, []string{"new/file.go"}, "new/file.go"},
		// A link named harmlessly is matched as what it points at too.
		{"harmless", true, []string{"harmless", ".env"}, "harmless"},
		// A link in the project that points out of it leads out of it.
		{"escape", false, []string{"escape", outside}, "escape"},
		{"escape/secret.txt", false, []string{"escape/secret.txt", outside + "/secret.txt"}, "escape/secret.txt"},
		{"escape/new.txt", false, []string{"escape/new.txt", outside + "/new.txt"}, "escape/new.txt"},
		// Outside: absolute; a link outside into the project leads in.
		{"/etc/passwd", false, []string{"/etc/passwd"}, "/etc/passwd"},
		{outside + "/back/a.txt", true, []string{outside + "/back/a.txt", "sub/a.txt"}, outside + "/back/a.txt"},
		{"..", false, []string{base}, base},
		// /a vs /ab: a sibling whose name starts with the project's is outside.
		{proj + "x/file", false, []string{proj + "x/file"}, proj + "x/file"},
	} {
		rp := fspath.Resolve(tc.p, proj)
		if got := pr.inside(rp); got != tc.inside {
			t.Errorf("inside(%q) = %v, want %v", tc.p, got, tc.inside)
		}
		if got := pr.forms(rp); !reflect.DeepEqual(got, tc.forms) {
			t.Errorf("forms(%q) = %q, want %q", tc.p, got, tc.forms)
		}
		if got := pr.display(rp); got != tc.display {
			t.Errorf("display(%q) = %q, want %q", tc.p, got, tc.display)
		}
	}

	// A project given through a link: paths written through the link and
	// through the real directory are both inside, and relative forms.
	linked := newProject(filepath.Join(base, "projlink"))
	for _, tc := range []struct {
		p     string
		forms []string
	}{
		{filepath.Join(base, "projlink", ".env"), []string{".env"}},
		{filepath.Join(proj, ".env"), []string{proj + "/.env", ".env"}},
	} {
		rp := fspath.Resolve(tc.p, "/")
		if !linked.inside(rp) {
			t.Errorf("linked project: inside(%q) = false", tc.p)
		}
		if got := linked.forms(rp); !reflect.DeepEqual(got, tc.forms) {
			t.Errorf("linked project: forms(%q) = %q, want %q", tc.p, got, tc.forms)
		}
	}
	if got := linked.display(fspath.Resolve(filepath.Join(base, "projlink", "sub/a.txt"), "/")); got != "sub/a.txt" {
		t.Errorf("linked project: display = %q, want sub/a.txt", got)
	}
}
