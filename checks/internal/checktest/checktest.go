// Package checktest builds what the checks' tests work on: a project
// with its own state, the engine.Call of one hook call, options, files and
// git repositories. It is for tests only.
package checktest

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

// TestHome is the HOME the guard tests give their calls: outside /tmp, so
// that "under /tmp" never explains away a result about the home directory.
const TestHome = "/home/massgen-hook-test-user"

// GuardEnv is a project and what a call made in it sees.
type GuardEnv struct {
	Project string
	State   *state.Dir
	Environ []string
}

// NewGuardEnv makes a fresh project (symlinks of the temp root resolved, so
// paths compare as written) with its own state directory.
func NewGuardEnv(t *testing.T) *GuardEnv {
	t.Helper()
	project, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &GuardEnv{Project: project, State: state.Open(t.TempDir()),
		Environ: []string{"HOME=" + TestHome, "PATH=" + os.Getenv("PATH")}}
}

// CallSpec describes one hook call; zero fields take defaults.
type CallSpec struct {
	Hook    string // PreToolUse unless set
	Session string // "s1" unless set
	Tool    string
	Input   string // raw JSON tool_input; "" leaves it out
	Output  string // raw JSON tool_response; "" leaves it out
	ErrText string // PostToolUseFailure's error
	Cwd     string // the project unless set; "-" leaves it out
	Agent   string
	Scope   string // "default" unless set
	Now     time.Time
}

// MakeCall builds the engine.Call of s, its event parsed by
// protocol.ParseEvent as the hook would read it.
func (g *GuardEnv) MakeCall(t *testing.T, s CallSpec) *engine.Call {
	t.Helper()
	if s.Hook == "" {
		s.Hook = protocol.PreToolUse
	}
	if s.Session == "" {
		s.Session = "s1"
	}
	if s.Cwd == "" {
		s.Cwd = g.Project
	}
	if s.Scope == "" {
		s.Scope = "default"
	}
	ev := map[string]any{"hook_event_name": s.Hook, "session_id": s.Session, "tool_name": s.Tool}
	if s.Cwd != "-" {
		ev["cwd"] = s.Cwd
	}
	if s.Input != "" {
		ev["tool_input"] = json.RawMessage(s.Input)
	}
	if s.Output != "" {
		ev["tool_response"] = json.RawMessage(s.Output)
	}
	if s.ErrText != "" {
		ev["error"] = s.ErrText
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatalf("event for %+v: %v", s, err)
	}
	parsed, err := protocol.ParseEvent(raw, s.Hook)
	if err != nil {
		t.Fatalf("ParseEvent(%s): %v", raw, err)
	}
	return &engine.Call{Event: parsed, HookType: s.Hook, Agent: s.Agent, Now: s.Now, Project: g.Project,
		ToolInput: parsed.ToolInput, ToolOutput: parsed.ToolResponse, Environ: g.Environ,
		State: g.State, Scope: s.Scope}
}

// JsonInput is the tool_input of one string field.
func JsonInput(field, value string) string {
	b, err := json.Marshal(map[string]string{field: value})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// BashInput is Bash's tool_input for command.
func BashInput(command string) string { return JsonInput("command", command) }

// OptionsNode parses text as a built-in check's options ("" is no options).
func OptionsNode(t *testing.T, text string) *yaml.Node {
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

// WriteFiles creates each file (with parents) under root.
func WriteFiles(t *testing.T, root string, files ...string) {
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

func Symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// RealTempDir is t.TempDir with its symlinks resolved.
func RealTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// FakeRepo makes dir a repository as currentBranch sees one: .git/HEAD.
func FakeRepo(t *testing.T, dir, head string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte(head+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// GitRun runs git in dir, failing the test on error.
func GitRun(t *testing.T, dir string, args ...string) string {
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

// RealRepo makes dir a git repository with files committed.
func RealRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	GitRun(t, dir, "init", "-q")
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	GitRun(t, dir, "add", "-A")
	GitRun(t, dir, "commit", "-q", "-m", "initial")
}
