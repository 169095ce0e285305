//go:build realcli

package realcli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// piRPCRun is one run of pi in RPC mode (--mode rpc), where pi has a UI:
// its extensions' dialogs reach the client as extension_ui_request lines
// on stdout, and the client answers on stdin. pi stays until its stdin
// closes, as interactive pi stays until the user quits.
type piRPCRun struct {
	Events  []map[string]any
	Stderr  string
	Confirm []string // the messages of the confirm dialogs, in order
}

// piRPC sends prompt to pi in RPC mode, answers each confirm dialog with
// confirm(n), n counting from 0, and ends pi once it has ended ends runs
// of the agent (agent_end events).
func piRPC(s *Session, prompt string, ends int, confirm func(n int) bool) *piRPCRun {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), piCLI.Timeout)
	defer cancel()
	s.Model.mu.Lock()
	s.Model.abort = cancel
	s.Model.mu.Unlock()
	cmd := exec.CommandContext(ctx, s.Install.Exe, "--mode", "rpc", "--provider", piProvider, "--model", piModel)
	cmd.Dir = s.Project
	cmd.Env = append(s.baseEnv(), s.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	stdin, err := cmd.StdinPipe()
	if err != nil {
		s.Fatalf("%v", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		s.Fatalf("%v", err)
	}
	if err := cmd.Start(); err != nil {
		s.Fatalf("starting pi: %v", err)
	}
	send := func(v any) {
		b, _ := json.Marshal(v)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			s.Errorf("writing to pi: %v", err)
		}
	}
	send(map[string]any{"type": "prompt", "message": prompt})
	run := &piRPCRun{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<26)
	for ended := 0; ended < ends && sc.Scan(); {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		run.Events = append(run.Events, ev)
		switch ev["type"] {
		case "agent_end":
			ended++
		case "extension_ui_request":
			if ev["method"] == "confirm" {
				msg, _ := ev["message"].(string)
				send(map[string]any{"type": "extension_ui_response", "id": ev["id"], "confirmed": confirm(len(run.Confirm))})
				run.Confirm = append(run.Confirm, msg)
			}
		}
	}
	_ = stdin.Close()
	err = cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	run.Stderr = errOut.String()
	if fails := s.Model.Failures(); len(fails) > 0 {
		s.runFailed("the fake model API ended the run: %s", strings.Join(fails, "; "))
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		s.runFailed("pi did not finish within %s; killed", piCLI.Timeout)
	}
	if hosts := s.trap.hosts(); len(hosts) > 0 {
		s.Errorf("pi tried to reach %s (only 127.0.0.1 is allowed during runs)", strings.Join(hosts, ", "))
	}
	if err != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		s.Observe("pi in RPC mode ended with %v once its stdin closed", err)
	}
	return run
}

// piAsks: where pi has a UI, a rule's ask becomes the extension's yes/no
// dialog: the call the user allows runs, the one they refuse is blocked
// and the model reads why.
func piAsks(t *testing.T, s *Session) {
	s.WriteScript("rules/ask-probe.sh", ruleScript("ask-probe", `{"decision":"ask","reason":"RULE-ASK-5120: may the probe run?"}`))
	s.WriteFile(".claude/massgen-hook.yaml", bashRule("PreToolUse", "./rules/ask-probe.sh"))
	s.Wire()
	m := s.Model
	m.On("yes", All(Main, First), s.CLI.Shell("call_yes", "echo ask-probe > yes.txt"))
	m.On("no", All(Main, After("call_yes")), s.CLI.Shell("call_no", "echo ask-probe > no.txt"))
	m.On("done", All(Main, After("call_no")), Say("one ran"))
	run := piRPC(s, "run the probes", 1, func(n int) bool { return n == 0 })

	if len(run.Confirm) != 2 || !strings.Contains(strings.Join(run.Confirm, "\n"), "RULE-ASK-5120") {
		s.Errorf("the user was asked %d times (%q), want twice with the rule's reason", len(run.Confirm), run.Confirm)
	}
	if _, ok := s.ReadFile("yes.txt"); !ok {
		s.Errorf("the call the user allowed did not run")
	}
	if _, ok := s.ReadFile("no.txt"); ok {
		s.Errorf("the call the user refused ran")
	}
	wantDenied(s, s.Turn("done"), "call_no", "the user did not allow it", "RULE-ASK-5120")
	notDenied(s, s.Turn("done"), "call_yes", "the call the user allowed")
}

// piStopSendsOnRPC: where pi stays (RPC, interactive), a blocked stop
// sends the agent on with the reason once pi is idle, and pi is still
// there for the next prompt.
func piStopSendsOnRPC(t *testing.T, s *Session) {
	s.Wire()
	scriptLateNote(s, "LATE-NOTE-7702", "the release is frozen")
	run := piRPC(s, "finish up", 2, func(int) bool { return false })

	if len(s.Model.Answered("read-late")) != 1 {
		s.Errorf("the model was not sent on with the late message once; it answered read-late %d times", len(s.Model.Answered("read-late")))
	}
	if len(run.Confirm) != 0 {
		s.Errorf("the stop asked the user something: %q", run.Confirm)
	}
}
