package checks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/massgen/massgen-hook/internal/proc"
)

// gitLog runs `git log --oneline -n` in dir without a shell. It is killed,
// with anything it started, when ctx ends: git can hang on a lock or a
// network filesystem, and session start must not.
func gitLog(ctx context.Context, dir string, n int) (string, error) {
	if !inRepository(dir) {
		return "", errNotRepo
	}
	res, err := proc.Run(ctx, proc.Spec{
		Path:      "git",
		Args:      []string{"-C", dir, "log", "--oneline", "--no-color", "-n", strconv.Itoa(n)},
		Env:       append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat"),
		MaxStdout: 1 << 20,
		MaxStderr: 4 << 10,
	})
	switch {
	case err != nil:
		return "", err
	case res.TimedOut:
		return "", fmt.Errorf("git log did not finish in time: %w", ctx.Err())
	case res.ExitCode != 0:
		return "", errNotRepo // git answered: not a repository, or no commits yet
	}
	return strings.TrimRight(string(res.Stdout), "\n"), nil
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
