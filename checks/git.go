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

// gitStatus runs `git status --porcelain` with extra flags in dir and
// returns its lines. Like gitLog it runs without a shell, bounded by ctx.
func gitStatus(ctx context.Context, dir string, extra ...string) ([]string, error) {
	if !inRepository(dir) {
		return nil, errNotRepo
	}
	args := append([]string{"-C", dir, "status", "--porcelain"}, extra...)
	res, err := proc.Run(ctx, proc.Spec{
		Path:      "git",
		Args:      args,
		Env:       append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0"),
		MaxStdout: 4 << 20,
		MaxStderr: 4 << 10,
	})
	switch {
	case err != nil:
		return nil, err
	case res.TimedOut:
		return nil, fmt.Errorf("git status did not finish in time: %w", ctx.Err())
	case res.ExitCode != 0:
		return nil, fmt.Errorf("git status failed: %s", strings.TrimSpace(string(res.Stderr)))
	}
	out := strings.TrimRight(string(res.Stdout), "\n")
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// currentBranch is the branch checked out in dir's repository, read from
// HEAD without starting git ("" when detached or unknown). A worktree's
// .git is a file naming its real git directory.
func currentBranch(dir string) string {
	for {
		gitPath := filepath.Join(dir, ".git")
		if info, err := os.Stat(gitPath); err == nil {
			if !info.IsDir() {
				data, err := os.ReadFile(gitPath)
				target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
				if err != nil || !ok {
					return ""
				}
				if !filepath.IsAbs(target) {
					target = filepath.Join(dir, target)
				}
				gitPath = target
			}
			head, err := os.ReadFile(filepath.Join(gitPath, "HEAD"))
			if err != nil {
				return ""
			}
			branch, _ := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/")
			if branch == strings.TrimSpace(string(head)) {
				return "" // detached
			}
			return branch
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
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
