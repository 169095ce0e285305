// Package proc runs a child program the way a hook must: without a shell,
// in its own process group so a timeout kills everything it started, and
// with its output capped so a runaway child cannot exhaust memory.
package proc

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/massgen/massgen-hook/internal/memcap"
)

// Spec is what to run.
type Spec struct {
	// Path is the program: a path, or a name looked up in PATH.
	Path  string
	Args  []string
	Dir   string
	Env   []string
	Stdin []byte
	// Timeout bounds the run; 0 leaves it to ctx.
	Timeout time.Duration
	// MaxStdout and MaxStderr cap what is kept of each stream (there is no
	// "unlimited": a child's output is always bounded). Going over MaxStdout
	// kills the child: its answer would be cut anyway.
	MaxStdout, MaxStderr int
}

// Result is how the child ended.
type Result struct {
	Stdout, Stderr []byte
	// ExitCode is the exit status, or -1 when the child was killed by a signal.
	ExitCode int
	Signal   string
	TimedOut bool
	// Oversize is set when the child wrote more than MaxStdout.
	Oversize bool
	Duration time.Duration
}

// waitDelay bounds how long Run waits for the output pipes to close after the
// child exits or is killed: a grandchild that keeps them open must not hold
// the hook.
const waitDelay = 250 * time.Millisecond

// Run runs spec. The error is non-nil only when the program could not be
// started at all (missing, not executable); how it ended is in Result.
func Run(ctx context.Context, spec Spec) (Result, error) {
	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, spec.Path, spec.Args...)
	cmd.Dir, cmd.Env = spec.Dir, spec.Env
	cmd.Stdin = bytes.NewReader(spec.Stdin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = waitDelay
	// The whole group is killed, not just the child: a shell script's
	// sleep or curl must not outlive a timeout.
	var killed atomic.Bool
	killGroup := func() error {
		killed.Store(true)
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.Cancel = killGroup
	stdout := &capped{max: spec.MaxStdout, onOverflow: func() { _ = killGroup() }}
	stderr := &capped{max: spec.MaxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	start := time.Now()
	// A hook's memory cap is its own: the child gets the limit of before.
	if err := memcap.Lifted(cmd.Start); err != nil {
		return Result{}, err
	}
	running.add(cmd.Process.Pid)
	err := cmd.Wait()
	running.remove(cmd.Process.Pid)
	r := Result{Stdout: stdout.bytes(), Stderr: stderr.bytes(), Duration: time.Since(start), Oversize: stdout.overflowed()}
	r.TimedOut = killed.Load() && !r.Oversize && errors.Is(ctx.Err(), context.DeadlineExceeded)
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.Signal = ws.Signal().String()
		}
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		r.ExitCode = -1
		r.Signal = err.Error()
	}
	return r, nil
}

// running are the process groups of the children Run is waiting for.
var running groups

type groups struct {
	mu   sync.Mutex
	pids map[int]bool
}

func (g *groups) add(pid int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pids == nil {
		g.pids = map[int]bool{}
	}
	g.pids[pid] = true
}

func (g *groups) remove(pid int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.pids, pid)
}

// KillAll kills the process groups of the children running now, for a
// process about to exit while Run still waits for one (a hook's watchdog
// answering for a judgement that runs git): each child leads a group of
// its own, which would outlive the hook and run on unbounded.
func KillAll() {
	running.mu.Lock()
	defer running.mu.Unlock()
	for pid := range running.pids {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// capped keeps the first max bytes written to it and drops the rest, so the
// child never blocks on a full pipe. It is locked because the overflow is
// read after Wait while the copying goroutine may still be finishing.
type capped struct {
	mu         sync.Mutex
	buf        bytes.Buffer
	max        int
	over       bool
	onOverflow func()
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room < len(p) {
		c.buf.Write(p[:max(room, 0)])
		if !c.over && c.onOverflow != nil {
			c.onOverflow()
		}
		c.over = true
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capped) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.buf.Bytes())
}

func (c *capped) overflowed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}
