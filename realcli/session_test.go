//go:build realcli

package realcli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Session is one scenario's world: a temporary git project wired by the
// freshly built massgen-hook, a HOME and temp folder of its own, the fake
// model API, and a trap for any traffic that is not for 127.0.0.1.
type Session struct {
	t       *testing.T
	CLI     *CLI
	Install Install
	Root    string // the scenario's temporary folder
	Project string // the git project the CLI runs in
	Home    string
	Tmp     string
	Model   *Model // nil when the CLI has no fake model API yet
	// Logs are files worth reading when the scenario fails (a CLI's debug
	// log); their lines about hooks are printed then.
	Logs []string
	// Env is added to the CLI's own environment in every run: a scenario's
	// choice among the CLI's settings (the model, for a tool only some
	// models are offered).
	Env []string
	// Args are added to the CLI's own arguments in every run (a plugin
	// folder to load).
	Args []string
	// DefaultApproval runs the CLI in its default approval mode, where
	// the user's own rules decide which calls run without asking (Gemini
	// CLI without --yolo), for a check of those rules.
	DefaultApproval bool

	trap       *trap
	mu         sync.Mutex
	reasons    []string // the scenario's own checks that failed
	runReasons []string // how the run ended, when it went wrong
	observed   []string
	cannot     string // why the CLI cannot do what the scenario checks
	initOut    string // what the last Wire's init printed
}

// start installs the CLI (or skips) and builds the scenario's world.
func (s *Session) start(sc Scenario) {
	t, c := s.t, s.CLI
	t.Helper()
	inst, err := install(c)
	if err != nil {
		s.need(fmt.Sprintf("%s %s cannot be installed: %v", c.Name, c.Version, err))
	}
	s.Install = inst

	root, err := os.MkdirTemp(sc.rootParent(t), "realcli-"+c.Name+"-")
	if err != nil {
		t.Fatal(err)
	}
	// The CLIs resolve their project's real path; so do the assertions.
	if root, err = filepath.EvalSymlinks(root); err != nil {
		t.Fatal(err)
	}
	s.Root = root
	t.Cleanup(func() {
		if os.Getenv("MASSGEN_REALCLI_KEEP") != "" || t.Failed() && os.Getenv("CI") == "" {
			s.dumpRequests()
			t.Logf("kept %s (the model's requests are in model-requests/)", root)
			return
		}
		_ = os.RemoveAll(root)
	})
	name := sc.Project
	if name == "" {
		name = "project"
	}
	s.Project = filepath.Join(root, name)
	s.Home = filepath.Join(root, "home")
	s.Tmp = filepath.Join(root, "tmp")
	for _, d := range []string{s.Project, s.Home, s.Tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.git("init", "-q", "-b", "main")

	s.trap = newTrap()
	t.Cleanup(s.trap.close)
	if c.NewWire != nil {
		s.Model = newModel(c.NewWire())
		t.Cleanup(s.Model.Close)
	}
	if c.Setup != nil {
		if err := c.Setup(s); err != nil {
			t.Fatalf("setting up %s: %v", c.Name, err)
		}
	}
	t.Cleanup(s.diagnose)
}

// need skips the scenario because something it needs is missing, or fails
// it when MASSGEN_REALCLI_REQUIRED=1 (CI), where every CLI must run.
func (s *Session) need(why string) {
	s.t.Helper()
	s.note(why)
	if required() {
		s.t.Fatal(why)
	}
	s.t.Skip("SKIP (set MASSGEN_REALCLI_REQUIRED=1 to make this a failure): " + why)
}

func required() bool { return os.Getenv("MASSGEN_REALCLI_REQUIRED") == "1" }

// note keeps a reason for the results table.
func (s *Session) note(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reasons = append(s.reasons, why)
}

// Observe records what the CLI did where the scenario has nothing to
// assert (what the user is shown, say): it is logged and listed under the
// results table, pass or fail.
func (s *Session) Observe(format string, args ...any) {
	s.t.Helper()
	msg := fmt.Sprintf(format, args...)
	s.t.Log("observed: " + msg)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observed = append(s.observed, msg)
}

func (s *Session) observations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.observed...)
}

// Cannot ends the scenario as n/a: the CLI cannot do what it checks (it has
// no such event, or tells hooks too little), which the scenario has shown
// from what the CLI did or sent. The reason is the table's; unlike a skip,
// MASSGEN_REALCLI_REQUIRED=1 does not make it a failure, since installing
// the CLI would not change it.
func (s *Session) Cannot(format string, args ...any) {
	s.t.Helper()
	s.mu.Lock()
	s.cannot = fmt.Sprintf(format, args...)
	s.mu.Unlock()
	s.t.Skip("n/a: " + s.cannot)
}

func (s *Session) cannotReason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cannot
}

// Errorf fails the scenario and keeps the reason for the results table.
func (s *Session) Errorf(format string, args ...any) {
	s.t.Helper()
	s.note(fmt.Sprintf(format, args...))
	s.t.Errorf(format, args...)
}

// Fatalf fails and ends the scenario, keeping the reason.
func (s *Session) Fatalf(format string, args ...any) {
	s.t.Helper()
	s.note(fmt.Sprintf(format, args...))
	s.t.Fatalf(format, args...)
}

// runFailed fails the scenario for how the run ended; the reason is shown
// only when no check of the scenario failed.
func (s *Session) runFailed(format string, args ...any) {
	s.t.Helper()
	msg := fmt.Sprintf(format, args...)
	s.t.Error(msg)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runReasons = append(s.runReasons, msg)
}

func (s *Session) firstReason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if all := append(append([]string(nil), s.reasons...), s.runReasons...); len(all) > 0 {
		return all[0]
	}
	return ""
}

// Turn is the first request step answered; the scenario ends when the step
// never came.
func (s *Session) Turn(step string) *Request {
	s.t.Helper()
	got := s.Model.Answered(step)
	if len(got) == 0 {
		s.Fatalf("the model never got the turn %q", step)
	}
	return got[0]
}

// Path is rel inside the project.
func (s *Session) Path(rel string) string { return filepath.Join(s.Project, filepath.FromSlash(rel)) }

// WriteFile writes a project file, making its folders.
func (s *Session) WriteFile(rel, content string) {
	s.t.Helper()
	p := s.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// ReadFile is a project file's content; ok is false when it is missing.
func (s *Session) ReadFile(rel string) (string, bool) {
	b, err := os.ReadFile(s.Path(rel))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Today is the local date, as the hooks name today's scratchpad.
func (s *Session) Today() string { return time.Now().Format("2006-01-02") }

// Scratchpad is an agent's scratchpad for day, relative to the project.
func Scratchpad(agent, day string) string {
	return ".claude/scratchpad/" + agent + "/" + day + ".md"
}

// git runs git in the project.
func (s *Session) git(args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Real CLI", "-c", "user.email=realcli@example.invalid",
		"-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = s.Project
	cmd.Env = append(os.Environ(), "HOME="+s.Home, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Commit commits everything in the project with message.
func (s *Session) Commit(message string) {
	s.t.Helper()
	s.git("add", "-A")
	s.git("commit", "-q", "--allow-empty", "-m", message)
}

// Hook runs the freshly built massgen-hook in the project, as a user would.
func (s *Session) Hook(args ...string) (string, error) {
	cmd := exec.Command(hookBinary, args...)
	cmd.Dir = s.Project
	cmd.Env = s.baseEnv()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("massgen-hook %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), err
}

// Init runs `massgen-hook init` for the CLI in the project, exactly as
// docs/install.md tells a user to, plus extra arguments, and returns what
// it printed.
func (s *Session) Init(extra ...string) string {
	s.t.Helper()
	args := []string{"init"}
	if s.CLI.Agent != "claude" {
		args = append(args, "--agent", s.CLI.Agent)
	}
	out, err := s.Hook(append(args, extra...)...)
	if err != nil {
		s.Fatalf("wiring the project: %v", err)
	}
	return out
}

// Wire wires the project as the CLI's user does: init, then whatever the
// CLI asks of its user before it runs a project's hooks (its adapter's
// Trust).
func (s *Session) Wire(extra ...string) {
	s.t.Helper()
	s.initOut = s.Init(extra...)
	if s.CLI.Trust != nil {
		s.CLI.Trust(s)
	}
}

// Audit is massgen-hook's audit trail, one record per line.
func (s *Session) Audit() []map[string]any {
	s.t.Helper()
	data, err := os.ReadFile(s.Path(".claude/massgen-hook/audit.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		s.t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			s.Errorf("audit trail line %q: %v", sc.Text(), err)
			continue
		}
		out = append(out, rec)
	}
	return out
}

// baseEnv is the environment of everything the scenario starts: nothing of
// the caller's besides PATH, locale and time zone, so no outer agent's
// variables leak in, and every proxy points at the trap.
func (s *Session) baseEnv() []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.Home,
		"TMPDIR=" + s.Tmp,
		"LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
		"HTTP_PROXY=" + s.trap.url(), "HTTPS_PROXY=" + s.trap.url(), "ALL_PROXY=" + s.trap.url(),
		"http_proxy=" + s.trap.url(), "https_proxy=" + s.trap.url(), "all_proxy=" + s.trap.url(),
		"NO_PROXY=127.0.0.1,localhost,::1", "no_proxy=127.0.0.1,localhost,::1",
	}
	if tz, ok := os.LookupEnv("TZ"); ok {
		env = append(env, "TZ="+tz)
	}
	if s.CLI.Env != nil && s.Install.Prefix != "" {
		env = append(env, s.CLI.Env(s.Install.Prefix)...)
	}
	return env
}

// Run is one headless run of the CLI.
type Run struct {
	Stdout, Stderr []byte
	Err            error // how the process ended (nil: exit 0)
	Final          Final // the CLI's own result
	Elapsed        time.Duration
}

// Run runs the CLI headless on prompt in the project, with a deadline; past
// it, or at the first request the script does not answer, the CLI is killed
// with its process group and the scenario fails. It fails the scenario too
// when the CLI tried to reach any host but 127.0.0.1, or printed no result.
func (s *Session) Run(prompt string) *Run {
	s.t.Helper()
	if s.CLI.Command == nil || s.Model == nil {
		s.Fatalf("%s has no headless run or fake model API yet", s.CLI.Name)
	}
	args, cliEnv := s.CLI.Command(s, prompt)
	args = append(args, s.Args...)
	timeout := s.CLI.Timeout
	if timeout == 0 {
		timeout = 3 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if s.Model != nil {
		s.Model.mu.Lock()
		s.Model.abort = cancel
		s.Model.mu.Unlock()
	}
	cmd := exec.CommandContext(ctx, s.Install.Exe, args...)
	cmd.Dir = s.Project
	cmd.Env = append(append(s.baseEnv(), cliEnv...), s.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		// Whatever the CLI left behind in its group (a hook still running).
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	r := &Run{Stdout: out.Bytes(), Stderr: errOut.Bytes(), Err: err, Elapsed: time.Since(start)}
	if ps := cmd.ProcessState; ps != nil {
		s.t.Logf("%s ran %s, CPU %s (%v)", s.CLI.Name, r.Elapsed.Round(10*time.Millisecond),
			(ps.UserTime() + ps.SystemTime()).Round(10*time.Millisecond), err)
	}

	_ = os.WriteFile(filepath.Join(s.Root, "cli-stdout.txt"), r.Stdout, 0o644)
	_ = os.WriteFile(filepath.Join(s.Root, "cli-stderr.txt"), r.Stderr, 0o644)

	// These end the run early but not the scenario: its own checks, which
	// name what the CLI or the hook got wrong, say more than "unscripted
	// request", so they come first in the table.
	if s.Model != nil {
		if fails := s.Model.Failures(); len(fails) > 0 {
			s.runFailed("the fake model API ended the run: %s", strings.Join(fails, "; "))
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		s.runFailed("%s did not finish within %s; killed", s.CLI.Name, timeout)
	}
	if hosts := s.trap.hosts(); len(hosts) > 0 {
		s.Errorf("%s tried to reach %s (only 127.0.0.1 is allowed during runs)", s.CLI.Name, strings.Join(hosts, ", "))
	}
	final, ferr := s.CLI.Final(r.Stdout)
	if ferr != nil {
		s.runFailed("%s printed no result (%v): %v; stderr: %s", s.CLI.Name, err, ferr, tail(r.Stderr, 1500))
	}
	r.Final = final
	if s.CLI.Checked != nil {
		s.CLI.Checked(s, r)
	}
	return r
}

// diagnose prints, for a failed scenario, every request the model received
// and the hook lines of the CLI's logs.
func (s *Session) diagnose() {
	if !s.t.Failed() {
		return
	}
	if s.Model != nil {
		for _, r := range s.Model.Requests() {
			s.t.Logf("model %s [step %q]", r.Summary(), r.Step)
		}
	}
	hook := regexp.MustCompile(`Hook|permission denied|PermissionRequest`)
	for _, f := range s.Logs {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var lines []string
		for _, l := range strings.Split(string(data), "\n") {
			if hook.MatchString(l) {
				lines = append(lines, clip(l, 240))
			}
		}
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		s.t.Logf("%s, lines about hooks:\n%s", f, strings.Join(lines, "\n"))
	}
}

// dumpRequests writes every request the model received to
// model-requests/NNN-step.json in the scenario's folder, to read by hand.
func (s *Session) dumpRequests() {
	if s.Model == nil {
		return
	}
	dir := filepath.Join(s.Root, "model-requests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	for _, r := range s.Model.Requests() {
		var pretty bytes.Buffer
		if json.Indent(&pretty, r.Body, "", "  ") != nil {
			pretty.Write(r.Body)
		}
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s.json", r.N, r.Step)), pretty.Bytes(), 0o644)
	}
}

// trap is an HTTP proxy that refuses everything and remembers the hosts the
// CLI tried to reach, so a run that is not offline is seen.
type trap struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen map[string]bool
}

func newTrap() *trap {
	tr := &trap{seen: map[string]bool{}}
	tr.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr.mu.Lock()
		tr.seen[r.Host] = true
		tr.mu.Unlock()
		http.Error(w, "realcli: no network during runs", http.StatusForbidden)
	}))
	return tr
}

func (tr *trap) url() string { return tr.srv.URL }
func (tr *trap) close()      { tr.srv.Close() }

func (tr *trap) hosts() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Sorted(maps.Keys(tr.seen))
}

// wantAudit fails unless the audit trail has a record of event on tool
// with decision, and returns it.
func (s *Session) wantAudit(event, tool, decision string) map[string]any {
	s.t.Helper()
	var seen []string
	for _, rec := range s.Audit() {
		if rec["event"] == event && rec["tool"] == tool && rec["decision"] == decision {
			return rec
		}
		seen = append(seen, fmt.Sprintf("%v %v %v", rec["event"], rec["tool"], rec["decision"]))
	}
	s.Errorf("no audit record %s %s %s; the trail has: %s", event, tool, decision, strings.Join(seen, "; "))
	return nil
}

// WriteScript writes an executable project file (a rule's handler).
func (s *Session) WriteScript(rel, content string) {
	s.t.Helper()
	s.WriteFile(rel, content)
	if err := os.Chmod(s.Path(rel), 0o755); err != nil {
		s.t.Fatal(err)
	}
}
