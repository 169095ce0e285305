package checks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// gitLog runs `git log --oneline -n` in dir without a shell. It is killed,
// with anything it started, when ctx ends: git can hang on a lock or a
// network filesystem, and session start must not.
func gitLog(ctx context.Context, dir string, n int) (string, error) {
	if !inRepository(dir) {
		return "", errNotRepo
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", "--oneline", "--no-color", "-n", strconv.Itoa(n))
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("git log did not finish in time: %w", ctx.Err())
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", errNotRepo // git answered: not a repository, or no commits yet
		}
		return "", err
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

// errNotRepo means there is simply no log to show: no repository, or no commits.
var errNotRepo = errors.New("not a git repository with commits")

// inRepository reports whether dir or a parent holds .git. Looking costs a
// few stat calls; starting git to be told "not a repository" costs a process.
func inRepository(dir string) bool {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}
