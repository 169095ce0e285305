package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsaudit"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

// The NATS copy of the audit trail, with real hook processes: what a hook
// answers never depends on the broker, every local line reaches the
// stream once (spooled while the broker is away), and neither a secret of
// the event nor the URL's password is shown or published.

const auditEvent = `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl x","password":"hunter2-is-my-password"},"tool_use_id":"toolu_1"}`

func auditProject(t *testing.T, sink string) (string, []string) {
	t.Helper()
	project := t.TempDir()
	writeFile(t, project, ".claude/massgen-hook.yaml", `hooks:
  PreToolUse:
    - name: no-curl
      matcher: Bash
      shell: echo '{"allowed":false,"reason":"no curl"}'
default_guards: false
`+sink)
	if err := os.MkdirAll(filepath.Join(project, ".home"), 0o755); err != nil {
		t.Fatal(err)
	}
	return project, hookEnv(project)
}

func withEnv(env []string, kv ...string) []string {
	return append(append([]string(nil), env...), kv...)
}

func localAudit(t *testing.T, project string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(project, ".claude/massgen-hook/audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func streamLines(t *testing.T, url string) []string {
	t.Helper()
	c, err := natsclient.Dial(context.Background(), natsclient.Options{URLs: []string{url}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out []string
	ids := map[string]bool{}
	err = natsaudit.Tail(context.Background(), c, "MASSGEN_AUDIT", "massgen.audit.>", 1<<20, false, 5*time.Second, func(m *natsclient.Msg) error {
		if id := m.Header.Get("Nats-Msg-Id"); ids[id] {
			t.Errorf("message id %s stored twice", id)
		} else {
			ids[id] = true
		}
		out = append(out, string(m.Data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAuditNATSSinkWithHookProcesses(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	srv := natstest.Start(t, natstest.Options{User: "alice", Password: "pw-s3cret"})
	url := strings.Replace(srv.URL(), "nats://", "nats://alice:pw-s3cret@", 1)

	plain, plainEnv := auditProject(t, "")
	want := inboxRun(bin, plainEnv, plain, auditEvent, "pre-tool-use")
	if want.code != 0 || !strings.Contains(want.stdout, `"permissionDecision":"deny"`) {
		t.Fatalf("the hook without a sink: exit %d\n%s%s", want.code, want.stdout, want.stderr)
	}
	// A generous broker timeout: the server runs inside this loaded test
	// process, and a timed-out publish would only be spooled.
	project, env := auditProject(t, "audit:\n  sink: nats\n  url: nats://127.0.0.1:1\n  timeout: 10s\n")
	env = withEnv(env, "MASSGEN_HOOK_NATS_URL="+url)
	hook := func(env []string) {
		t.Helper()
		got := inboxRun(bin, env, project, auditEvent, "pre-tool-use")
		if got.code != want.code || got.stdout != want.stdout || strings.Contains(got.stderr, "s3cret") {
			t.Fatalf("the hook's answer changed: exit %d\n%s%s", got.code, got.stdout, got.stderr)
		}
	}
	for range 3 {
		hook(env)
	}
	if got := streamLines(t, url); strings.Join(got, "\n") != strings.Join(localAudit(t, project), "\n") || len(got) != 3 {
		t.Fatalf("stream %q\nlocal %q", got, localAudit(t, project))
	}

	// The broker goes away: the answers stay, the lines are spooled, one
	// note for the outage.
	srv.Shutdown()
	var stderr strings.Builder
	for range 2 {
		got := inboxRun(bin, env, project, auditEvent, "pre-tool-use")
		if got.code != want.code || got.stdout != want.stdout {
			t.Fatalf("broker down: the answer changed: exit %d\n%s%s", got.code, got.stdout, got.stderr)
		}
		stderr.WriteString(got.stderr)
	}
	if n := strings.Count(stderr.String(), "\n"); n != 1 || !strings.Contains(stderr.String(), "nats://***@127.0.0.1") || strings.Contains(stderr.String(), "s3cret") {
		t.Fatalf("want one note naming the redacted server, got %q", stderr.String())
	}
	spool, _ := os.ReadFile(filepath.Join(project, ".claude/massgen-hook/nats/audit-spool.jsonl"))
	if n := strings.Count(string(spool), "\n"); n != 2 {
		t.Fatalf("spooled %d lines, want 2", n)
	}

	// Back, and past the backoff on the hooks' clock: the spool is
	// forwarded first, then the new line; nothing twice.
	srv.Restart()
	hook(withEnv(env, "MASSGEN_HOOK_NOW=2026-11-20T10:00:06Z"))
	local := localAudit(t, project)
	got := streamLines(t, url)
	if strings.Join(got, "\n") != strings.Join(local, "\n") || len(local) != 6 {
		t.Fatalf("after the outage: %d stream lines for %d local\nstream %q\nlocal %q", len(got), len(local), got, local)
	}
	if strings.Contains(strings.Join(got, ""), "hunter2") || !strings.Contains(got[0], `"password":"[REDACTED]"`) {
		t.Fatalf("a secret of the tool input reached the stream: %s", got[0])
	}
}

func TestAuditNATSSilentBrokerCostsTheTimeout(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	silent := natstest.Silent(t)
	plain, plainEnv := auditProject(t, "")
	want := inboxRun(bin, plainEnv, plain, auditEvent, "pre-tool-use")
	project, env := auditProject(t, "audit:\n  sink: nats\n  url: nats://"+silent+"\n  timeout: 300ms\n")
	start := time.Now()
	got := inboxRun(bin, env, project, auditEvent, "pre-tool-use")
	took := time.Since(start)
	if got.code != want.code || got.stdout != want.stdout || !strings.Contains(got.stderr, "audit copy to NATS") {
		t.Fatalf("silent broker: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	// The margin is for the process itself on a loaded machine; without
	// the bound the hook would wait for the broker forever.
	if took > 300*time.Millisecond+5*time.Second {
		t.Fatalf("the hook took %v with a 300ms broker timeout", took)
	}
}

func TestAuditTailFollowStopsOnInterrupt(t *testing.T) {
	t.Parallel()
	bin := buildHook(t)
	project, env := auditProject(t, "")
	if r := inboxRun(bin, env, project, auditEvent, "pre-tool-use"); r.code != 0 {
		t.Fatalf("hook: %d %s", r.code, r.stderr)
	}
	cmd := exec.Command(bin, "audit", "tail", "-f", "-n", "1")
	cmd.Dir, cmd.Env = project, env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), `{"time":"2026-11-20T10:00:00Z","event":"PreToolUse"`) {
		t.Fatalf("first line %q", sc.Text())
	}
	if r := inboxRun(bin, env, project, auditEvent, "pre-tool-use"); r.code != 0 {
		t.Fatalf("hook: %d %s", r.code, r.stderr)
	}
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), `{"time":"2026-11-20T10:00:00Z","event":"PreToolUse"`) {
		t.Fatalf("followed line %q", sc.Text())
	}
	cmd.Process.Signal(syscall.SIGINT)
	for sc.Scan() {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("interrupted follow: want exit 0, got %v", err)
	}
}
