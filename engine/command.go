package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"

	"github.com/massgen/massgen-hook/internal/proc"
	"github.com/massgen/massgen-hook/internal/watchdog"
)

// Output limits for a command handler. A verdict is small; a rewritten
// tool input can be large (a Write's content), hence the generous stdout.
const (
	maxStdout = 4 << 20
	maxStderr = 64 << 10
)

// shellPath runs shell: rules.
const shellPath = "/bin/sh"

// configError is a rule that cannot run at all. It always denies: the user
// asked for a check that is not there, and letting every call through would
// hide that.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

// runCommand runs a command rule for call and reads its answer. Exit 2
// denies with stderr as the reason, as in Claude Code.
func runCommand(ctx context.Context, r *Rule, call *Call) (Verdict, error) {
	path, args := r.Handler, r.Args
	if r.Shell != "" {
		path, args = shellPath, []string{"-c", r.Shell}
	} else if strings.ContainsRune(path, '/') && !filepath.IsAbs(path) {
		// Relative to the project, not to wherever the session has cd'd.
		path = filepath.Join(call.Project, path)
	}
	stdin, err := call.stdin()
	if err != nil {
		return Verdict{}, fmt.Errorf("encoding the hook event: %w", err)
	}
	run, runArgs := path, args
	if handlerSandbox.Load() != nil {
		// Found here, so that a missing handler is still the user's
		// configuration to fix, not a sandbox that failed.
		full, err := exec.LookPath(path)
		if err != nil {
			return Verdict{}, startError(r, path, err)
		}
		if argv := sandboxed(full, args); len(argv) > 0 {
			run, runArgs = argv[0], argv[1:]
		}
	}
	// The user's handler has a timeout of its own: the guards' time
	// (guard_timeout) does not count the wait.
	back := watchdog.Away(ctx)
	res, err := proc.Run(ctx, proc.Spec{
		Path: run, Args: runArgs, Dir: call.Project, Env: call.environ(), Stdin: stdin,
		Timeout: r.Timeout, MaxStdout: maxStdout, MaxStderr: maxStderr,
	})
	back()
	if err != nil {
		return Verdict{}, startError(r, path, err)
	}
	switch {
	case res.TimedOut:
		return Verdict{}, &timeoutError{after: r.Timeout.String()}
	case res.Oversize:
		return Verdict{}, fmt.Errorf("output over %d MiB; the handler was stopped", maxStdout>>20)
	case res.Signal != "":
		return Verdict{}, fmt.Errorf("crashed (%s)%s", res.Signal, stderrClue(res.Stderr))
	case res.ExitCode == 2:
		reason := strings.TrimSpace(string(res.Stderr))
		if reason == "" {
			reason = fmt.Sprintf("denied by hook %q (exit 2)", r.Name)
		}
		return Verdict{Decision: Deny, Reason: reason}, nil
	case res.ExitCode != 0:
		return Verdict{}, fmt.Errorf("exited with status %d%s", res.ExitCode, stderrClue(res.Stderr))
	}
	v, err := parseOutput(call.HookType, res.Stdout)
	if err != nil {
		return Verdict{}, fmt.Errorf("invalid output: %w", err)
	}
	return v, nil
}

// timeoutError is a handler that did not answer in time.
type timeoutError struct{ after string }

func (e *timeoutError) Error() string { return "timed out after " + e.after + "; it was killed" }

// startError classifies a handler that could not be started. Missing, not
// executable, or not a program is the user's configuration to fix; anything
// else (the system out of processes) is a runtime error.
func startError(r *Rule, path string, err error) error {
	what := "handler " + r.Handler
	if r.Shell != "" {
		what = "shell " + shellPath
	}
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return &configError{fmt.Sprintf("%s not found (%s); create it or fix handler: in %s", what, path, r.Where())}
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ENOEXEC), errors.Is(err, syscall.EISDIR):
		return &configError{fmt.Sprintf("%s is not an executable program (%s: %v); chmod +x it, give it a #! line, or fix handler: in %s",
			what, path, unwrapOS(err), r.Where())}
	}
	return fmt.Errorf("could not start %s: %w", what, err)
}

func unwrapOS(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// stderrClue is the first line of stderr, for a one-line warning the user
// reads in a terminal: a CR ends a line too (a progress bar's "50%\r"), and
// control characters (escape sequences, a bare CR left inside) are dropped,
// so a handler cannot redraw or hide the rest of the warning.
func stderrClue(stderr []byte) string {
	text := strings.ToValidUTF8(strings.TrimSpace(string(stderr)), "\uFFFD")
	line, _, _ := strings.Cut(text, "\n")
	line, _, _ = strings.Cut(line, "\r")
	line = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, line)
	line = previewText(line, 200)
	if line == "" {
		return ""
	}
	return ": " + line
}
