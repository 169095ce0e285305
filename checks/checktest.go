// Package checktest builds what the checks' tests work on: a project
// with its own state, the engine.Call of one hook call, options, files and
// git repositories. It is for tests only.
package checks

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

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

// fakeRepo makes dir a repository as currentBranch sees one: .git/HEAD.
func fakeRepo(t *testing.T, dir, head string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte(head+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitRun runs git in dir, failing the test on error.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// realRepo makes dir a git repository with files committed.
func realRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "init", "-q")
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "initial")
}
