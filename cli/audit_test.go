package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/internal/nats/natsaudit"
	"github.com/massgen/massgen-hook/internal/nats/natsclient"
	"github.com/massgen/massgen-hook/internal/nats/natstest"
	"github.com/massgen/massgen-hook/state"
)

// tailApp is an app run in project with env, writing to stdout.
func tailApp(project string, stdout io.Writer, stderr *bytes.Buffer, env map[string]string) *app {
	return &app{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, getenv: func(k string) string { return env[k] },
		environ: func() []string { return nil }, now: time.Now, projectDir: project}
}

func auditLines(t *testing.T, d *state.Dir, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if err := d.Audit(map[string]any{"time": "2026-11-27T09:00:00Z", "event": "PreToolUse", "tool": "Bash", "decision": "deny", "reason": fmt.Sprint("r", i)}); err != nil {
			t.Fatal(err)
		}
	}
}

func line(i int) string {
	return fmt.Sprintf(`{"decision":"deny","event":"PreToolUse","reason":"r%d","time":"2026-11-27T09:00:00Z","tool":"Bash"}`, i)
}

func TestAuditTailLocalLastLinesAndText(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	d := state.Open(project)
	d.AuditLimit = 400 // rotates every few lines: -n reaches into audit.jsonl.1
	auditLines(t, d, 0, 7)
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"audit", "tail", "-n", "2"}, line(5) + "\n" + line(6) + "\n", 0},
		{[]string{"audit", "tail", "-n", "5"}, line(2) + "\n" + line(3) + "\n" + line(4) + "\n" + line(5) + "\n" + line(6) + "\n", 0},
		{[]string{"audit", "tail", "-n", "0"}, "", 0},
		{[]string{"audit", "tail", "-n", "1", "--format", "text"}, "2026-11-27T09:00:00Z PreToolUse Bash deny (r6)\n", 0},
		{[]string{"audit", "tail", "-n", "-1"}, "", 2},
		{[]string{"audit", "tail", "--from", "elsewhere"}, "", 2},
		{[]string{"audit", "tail", "--project", "x"}, "", 2},
		{[]string{"audit", "tail", "extra"}, "", 2},
		{[]string{"audit", "tail", "--format", "yaml"}, "", 2},
	} {
		var out, errOut bytes.Buffer
		code := tailApp(project, &out, &errOut, nil).run(append(c.args, "--project-dir", project))
		if code != c.code || out.String() != c.want {
			t.Errorf("%q: exit %d, stdout\n%s\nwant exit %d, stdout\n%s\nstderr %s", c.args, code, out.String(), c.code, c.want, errOut.String())
		}
	}
	// A project with no trail yet: nothing, exit 0, a note.
	var out, errOut bytes.Buffer
	if code := tailApp("", &out, &errOut, nil).run([]string{"audit", "tail", "--project-dir", t.TempDir()}); code != 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "no audit trail yet") {
		t.Errorf("no trail: exit %d, %q, %q", code, out.String(), errOut.String())
	}
}

// lineReader reads what a following tail prints, a line at a time: each
// read waits for the line (the condition), bounded by the test's deadline.
type lineReader struct {
	t  *testing.T
	sc *bufio.Scanner
}

func (r lineReader) next() string {
	r.t.Helper()
	if !r.sc.Scan() {
		r.t.Fatalf("tail stopped: %v", r.sc.Err())
	}
	return r.sc.Text()
}

func TestAuditTailLocalFollowsAcrossRotations(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	d := state.Open(project)
	d.AuditLimit = 400
	auditLines(t, d, 0, 2)
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- tailApp(project, pw, &errOut, nil).tailLocal(ctx, tailOptions{n: 1, follow: true})
		pw.Close()
	}()
	r := lineReader{t, bufio.NewScanner(pr)}
	if got := r.next(); got != line(1) {
		t.Fatalf("first line %s", got)
	}
	// Two lines at a time, read before the next two: rotations fall
	// between the reads, and sometimes between the two lines (the first
	// is in the file that was moved).
	for i := 2; i < 20; i += 2 {
		auditLines(t, d, i, i+2)
		for j := i; j < i+2; j++ {
			if got := r.next(); got != line(j) {
				t.Fatalf("line %d: got %s", j, got)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(d.Path, state.AuditFile+".1")); err != nil {
		t.Fatalf("the trail never rotated: %v", err)
	}
	cancel()
	go io.Copy(io.Discard, pr)
	if err := <-done; err != nil {
		t.Fatalf("a cancelled follow ends cleanly, got %v", err)
	}
}

func TestAuditTailFromNATS(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t, natstest.Options{User: "u", Password: "pw-s3cret"})
	url := strings.Replace(srv.URL(), "nats://", "nats://u:pw-s3cret@", 1)
	env := map[string]string{"MASSGEN_HOOK_NATS_URL": url}
	one, other := t.TempDir(), t.TempDir()
	for _, p := range []string{one, other} {
		os.MkdirAll(filepath.Join(p, ".claude"), 0o755)
		os.WriteFile(filepath.Join(p, ".claude", "massgen-hook.yaml"), []byte("audit:\n  sink: nats\n  url: nats://127.0.0.1:1 # $MASSGEN_HOOK_NATS_URL overrides it\n"), 0o644)
	}
	publish := func(project string, from, to int) {
		t.Helper()
		d := state.Open(project)
		s := &natsaudit.Sink{Dir: d, Dial: natsclient.Options{URLs: []string{url}}, Stream: "MASSGEN_AUDIT", Prefix: "massgen.audit",
			Subject: natsaudit.Subject("massgen.audit", project), Timeout: 5 * time.Second, Notes: os.Stderr}
		defer s.Close()
		d.AuditSink = s
		auditLines(t, d, from, to)
	}

	// Before any hook published: no stream, exit 1.
	var out, errOut bytes.Buffer
	if code := tailApp(one, &out, &errOut, env).run([]string{"audit", "tail", "--project-dir", one, "--from", "nats"}); code != 1 || !strings.Contains(errOut.String(), "has no stream MASSGEN_AUDIT") {
		t.Fatalf("no stream: exit %d, %q", code, errOut.String())
	}
	publish(one, 0, 3)
	publish(other, 100, 102)
	publish(one, 3, 5)

	out.Reset()
	if code := tailApp(one, &out, &errOut, env).run([]string{"audit", "tail", "--project-dir", one, "--from", "nats", "-n", "3"}); code != 0 || out.String() != line(101)+"\n"+line(3)+"\n"+line(4)+"\n" {
		t.Fatalf("all projects -n 3: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := tailApp(one, &out, &errOut, env).run([]string{"audit", "tail", "--project-dir", one, "--from", "nats", "--project", ".", "-n", "4"}); code != 0 || out.String() != line(1)+"\n"+line(2)+"\n"+line(3)+"\n"+line(4)+"\n" {
		t.Fatalf("--project . -n 4: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	key := natsaudit.ProjectKey(other)
	if code := tailApp(one, &out, &errOut, env).run([]string{"audit", "tail", "--project-dir", one, "--from", "nats", "--project", key, "--format", "text"}); code != 0 ||
		out.String() != "2026-11-27T09:00:00Z "+key+" PreToolUse Bash deny (r100)\n2026-11-27T09:00:00Z "+key+" PreToolUse Bash deny (r101)\n" {
		t.Fatalf("--project key --format text: exit %d\n%s%s", code, out.String(), errOut.String())
	}

	// Following: the last line, then each new one as it comes.
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- tailApp(one, pw, &bytes.Buffer{}, env).tailNATS(ctx, tailOptions{n: 1, follow: true, project: "."})
		pw.Close()
	}()
	r := lineReader{t, bufio.NewScanner(pr)}
	if got := r.next(); got != line(4) {
		t.Fatalf("follow: first %s", got)
	}
	publish(other, 102, 103) // another project's: not shown
	publish(one, 5, 7)
	for i := 5; i < 7; i++ {
		if got := r.next(); got != line(i) {
			t.Fatalf("follow: line %d got %s", i, got)
		}
	}
	cancel()
	go io.Copy(io.Discard, pr)
	if err := <-done; err != nil {
		t.Fatalf("a cancelled follow ends cleanly, got %v", err)
	}
	if strings.Contains(errOut.String(), "s3cret") {
		t.Fatalf("password shown: %s", errOut.String())
	}
}

func TestAuditTailFromNATSUnreachable(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var out, errOut bytes.Buffer
	env := map[string]string{"MASSGEN_HOOK_NATS_URL": "nats://alice:pw-s3cret@" + addr}
	code := tailApp("", &out, &errOut, env).run([]string{"audit", "tail", "--project-dir", t.TempDir(), "--from", "nats"})
	if code != 1 || !strings.Contains(errOut.String(), "cannot reach the NATS server") || !strings.Contains(errOut.String(), "nats://***@"+addr) || strings.Contains(errOut.String(), "s3cret") {
		t.Fatalf("unreachable: exit %d, %q", code, errOut.String())
	}
}
