package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sh runs script with /bin/sh -c.
func sh(script string) Spec {
	return Spec{Path: "/bin/sh", Args: []string{"-c", script}, MaxStdout: 1 << 20, MaxStderr: 1 << 20, Timeout: 20 * time.Second}
}

func run(t *testing.T, spec Spec) Result {
	t.Helper()
	res, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatalf("Run(%q %q): %v", spec.Path, spec.Args, err)
	}
	return res
}

func TestExitCodes(t *testing.T) {
	for _, code := range []int{0, 1, 2, 3, 125} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			res := run(t, sh("echo out; echo err >&2; exit "+strconv.Itoa(code)))
			if res.ExitCode != code {
				t.Errorf("ExitCode = %d, want %d", res.ExitCode, code)
			}
			if string(res.Stdout) != "out\n" || string(res.Stderr) != "err\n" {
				t.Errorf("stdout %q, stderr %q", res.Stdout, res.Stderr)
			}
			if res.Signal != "" || res.TimedOut || res.Oversize {
				t.Errorf("result %+v", res)
			}
			if res.Duration <= 0 {
				t.Errorf("Duration = %v", res.Duration)
			}
		})
	}
}

func TestArgsEnvDirWithoutShell(t *testing.T) {
	dir := t.TempDir()
	// Exec form: the arguments reach the program as they are, no shell
	// splits or expands them.
	res := run(t, Spec{
		Path:      "/bin/sh",
		Args:      []string{"-c", `printf '%s|' "$0" "$1" "$PWD" "$HOOK_VAR"`, "a b", "$HOME;*"},
		Dir:       dir,
		Env:       []string{"HOOK_VAR=v1", "PATH=/usr/bin:/bin"},
		MaxStdout: 1 << 10, MaxStderr: 1 << 10,
	})
	want := "a b|$HOME;*|" + dir + "|v1|"
	if string(res.Stdout) != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
}

func TestPathLookup(t *testing.T) {
	res := run(t, Spec{Path: "sh", Args: []string{"-c", "echo found"}, MaxStdout: 100, MaxStderr: 100})
	if string(res.Stdout) != "found\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
}

func TestSignalDeath(t *testing.T) {
	res := run(t, sh("echo before; kill -TERM $$; echo after"))
	if res.ExitCode != -1 || res.Signal == "" {
		t.Errorf("ExitCode %d, Signal %q; want -1 and a signal", res.ExitCode, res.Signal)
	}
	if res.Signal != syscall.SIGTERM.String() {
		t.Errorf("Signal = %q, want %q", res.Signal, syscall.SIGTERM.String())
	}
	if res.TimedOut || res.Oversize {
		t.Errorf("result %+v", res)
	}
	if string(res.Stdout) != "before\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
}

// gone reports whether pid no longer runs: no such process, or a zombie
// waiting for a reaper (it is dead; only its exit status is left).
func gone(pid int) bool {
	err := syscall.Kill(pid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, rerr := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if rerr != nil {
		return errors.Is(rerr, os.ErrNotExist)
	}
	// pid (comm) S ...: the state follows the last ')'.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}

func waitGone(t *testing.T, pid int, within time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if gone(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return gone(pid)
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the PID file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("PID file holds %q", b)
	}
	return pid
}

func TestTimeoutKillsProcessGroup(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "bg.pid")
	spec := sh(`sleep 30 & echo $! > "$PIDFILE"; echo started; sleep 30`)
	spec.Env = []string{"PIDFILE=" + pidFile, "PATH=/usr/bin:/bin"}
	spec.Timeout = 300 * time.Millisecond
	start := time.Now()
	res := run(t, spec)
	elapsed := time.Since(start)
	pid := readPID(t, pidFile)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	if elapsed > 5*time.Second {
		t.Errorf("Run took %v with a 300ms timeout", elapsed)
	}
	if !res.TimedOut {
		t.Errorf("TimedOut = false: %+v", res)
	}
	if res.Oversize {
		t.Error("Oversize set on a timeout")
	}
	if res.ExitCode != -1 || res.Signal == "" {
		t.Errorf("ExitCode %d, Signal %q; want -1 and the kill", res.ExitCode, res.Signal)
	}
	if string(res.Stdout) != "started\n" {
		t.Errorf("stdout %q: what was written before the kill must be kept", res.Stdout)
	}
	if !waitGone(t, pid, 2*time.Second) {
		t.Errorf("the background sleep (pid %d) outlived the timeout: the process group was not killed", pid)
	}
}

func TestContextCancelKills(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	spec := sh("sleep 30")
	spec.Timeout = 0 // left to ctx
	start := time.Now()
	res, err := Run(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("Run took %v", time.Since(start))
	}
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("result %+v; want TimedOut", res)
	}

	// A cancel that is not a deadline kills too, but is no timeout.
	ctx, cancel2 := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel2)
	res, err = Run(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.TimedOut || res.ExitCode != -1 || res.Signal == "" {
		t.Errorf("cancelled run %+v; want killed, not timed out", res)
	}
}

func TestOversizeKillsChild(t *testing.T) {
	t.Parallel()
	spec := sh("yes")
	spec.MaxStdout = 1000
	spec.Timeout = 20 * time.Second
	start := time.Now()
	res := run(t, spec)
	if time.Since(start) > 10*time.Second {
		t.Errorf("Run took %v: the child was not killed on overflow", time.Since(start))
	}
	if !res.Oversize {
		t.Errorf("Oversize = false: %+v", res)
	}
	if res.TimedOut {
		t.Error("TimedOut set: the child was killed for its output, not the clock")
	}
	if len(res.Stdout) != 1000 {
		t.Errorf("kept %d bytes of stdout, want the first 1000", len(res.Stdout))
	}
	if !bytes.Equal(res.Stdout, bytes.Repeat([]byte("y\n"), 500)) {
		t.Errorf("stdout is not the first 1000 bytes: %q...", res.Stdout[:min(20, len(res.Stdout))])
	}
	if res.ExitCode != -1 || res.Signal == "" {
		t.Errorf("ExitCode %d, Signal %q; want killed", res.ExitCode, res.Signal)
	}
}

func TestExactlyMaxStdoutIsNotOversize(t *testing.T) {
	spec := sh("printf 12345")
	spec.MaxStdout = 5
	res := run(t, spec)
	if res.Oversize || string(res.Stdout) != "12345" || res.ExitCode != 0 {
		t.Errorf("result %+v", res)
	}
}

func TestStderrCapped(t *testing.T) {
	spec := sh("i=0; while [ $i -lt 200 ]; do echo 0123456789 >&2; i=$((i+1)); done; echo done")
	spec.MaxStderr = 100
	res := run(t, spec)
	// Too much stderr is cut, but the child is not killed for it.
	if len(res.Stderr) != 100 || res.Oversize || res.ExitCode != 0 || string(res.Stdout) != "done\n" {
		t.Errorf("stderr %d bytes, result %+v", len(res.Stderr), res)
	}
}

func TestMissingProgram(t *testing.T) {
	for _, path := range []string{"/nonexistent/massgen-hook-test", "massgen-hook-test-no-such-program-7f3a", filepath.Join(t.TempDir(), "nope")} {
		res, err := Run(context.Background(), Spec{Path: path, MaxStdout: 10, MaxStderr: 10})
		if err == nil {
			t.Errorf("Run(%q) = %+v, nil; want an error", path, res)
		}
	}
	// A directory and a file without the execute bit cannot start either.
	dir := t.TempDir()
	f := filepath.Join(dir, "script.sh")
	if err := os.WriteFile(f, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, f} {
		if res, err := Run(context.Background(), Spec{Path: path, MaxStdout: 10, MaxStderr: 10}); err == nil {
			t.Errorf("Run(%q) = %+v, nil; want an error", path, res)
		}
	}
}

func TestGrandchildHoldingStdout(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "gc.pid")
	spec := sh(`(sleep 30 & echo $! > "$PIDFILE") ; echo hi`)
	spec.Env = []string{"PIDFILE=" + pidFile, "PATH=/usr/bin:/bin"}
	start := time.Now()
	res := run(t, spec)
	elapsed := time.Since(start)
	if pid := readPID(t, pidFile); pid > 1 {
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	}
	if elapsed > 5*time.Second {
		t.Errorf("Run took %v: a grandchild holding stdout held the run", elapsed)
	}
	if string(res.Stdout) != "hi\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
	if res.ExitCode != 0 || res.Signal != "" || res.TimedOut || res.Oversize {
		t.Errorf("result %+v; the child itself exited 0", res)
	}
}

func TestStdinDeliveredInFull(t *testing.T) {
	t.Parallel()
	in := bytes.Repeat([]byte("0123456789abcdef"), 5<<20/16)
	spec := sh("wc -c")
	spec.Stdin = in
	res := run(t, spec)
	if got := strings.TrimSpace(string(res.Stdout)); got != strconv.Itoa(5<<20) {
		t.Errorf("the child read %s bytes, want %d", got, 5<<20)
	}
	if res.ExitCode != 0 {
		t.Errorf("result %+v", res)
	}
}

func TestStdinEchoed(t *testing.T) {
	spec := sh("cat")
	spec.Stdin = []byte(`{"hook_type": "PreToolUse"}`)
	res := run(t, spec)
	if string(res.Stdout) != `{"hook_type": "PreToolUse"}` {
		t.Errorf("stdout %q", res.Stdout)
	}
}

func TestNoStdin(t *testing.T) {
	spec := sh("cat; echo end")
	res := run(t, spec) // nil Stdin: the child sees EOF, it does not wait
	if string(res.Stdout) != "end\n" || res.ExitCode != 0 {
		t.Errorf("result %+v", res)
	}
}

func TestChildIgnoresStdin(t *testing.T) {
	t.Parallel()
	spec := sh("echo ok; exit 0")
	spec.Stdin = bytes.Repeat([]byte("x"), 5<<20)
	res := run(t, spec)
	if res.ExitCode != 0 || res.Signal != "" || res.TimedOut || string(res.Stdout) != "ok\n" {
		t.Errorf("a child that never reads stdin: %+v", res)
	}
}

// KillAll ends the groups of the children Run is still waiting for, with
// what they started: a hook exiting in the middle of a Run (its watchdog
// answering) leaves nothing running.
func TestKillAllEndsRunningChildren(t *testing.T) {
	started := filepath.Join(t.TempDir(), "started")
	if err := syscall.Mkfifo(started, 0o600); err != nil {
		t.Fatal(err)
	}
	spec := sh(`sleep 30 & echo $! > "$STARTED"; sleep 30`)
	spec.Env = []string{"STARTED=" + started, "PATH=/usr/bin:/bin"}
	done := make(chan Result, 1)
	go func() { done <- run(t, spec) }()
	pid := readPID(t, started) // blocks until the child has started its background job
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	KillAll()
	res := <-done
	if res.ExitCode != -1 || res.Signal == "" {
		t.Errorf("ExitCode %d, Signal %q; want the kill", res.ExitCode, res.Signal)
	}
	if !waitGone(t, pid, 2*time.Second) {
		t.Errorf("the background sleep (pid %d) outlived KillAll", pid)
	}
	KillAll() // nothing running: nothing to do
}
