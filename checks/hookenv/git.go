package hookenv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/internal/proc"
)

// runGit runs `git -C dir args...` without a shell. It is killed, with
// anything it started, when ctx ends: git can hang on a lock or a network
// filesystem, and no hook may. Outside a repository git is not started at
// all (ErrNotRepo): looking costs a few stat calls, a process much more.
func runGit(ctx context.Context, dir string, maxStdout int, args ...string) (proc.Result, error) {
	return GitRepo{Dir: dir}.Run(ctx, maxStdout, args...)
}

// GitLog is `git log --oneline -n` in dir.
func GitLog(ctx context.Context, dir string, n int) (string, error) {
	res, err := runGit(ctx, dir, 1<<20, "log", "--oneline", "--no-color", "-n", strconv.Itoa(n))
	switch {
	case err != nil:
		return "", err
	case res.ExitCode != 0:
		return "", ErrNotRepo // git answered: not a repository, or no commits yet
	}
	return strings.TrimRight(string(res.Stdout), "\n"), nil
}

// GitStatus is `git status --porcelain` with extra flags in dir, as lines.
func GitStatus(ctx context.Context, dir string, extra ...string) ([]string, error) {
	return GitRepo{Dir: dir}.Status(ctx, nil, extra...)
}

// CurrentBranch is the branch checked out in dir's repository, read from
// HEAD without starting git ("" when detached or unknown). A worktree's
// .git is a file naming its real git directory.
func CurrentBranch(dir string) string {
	gitPath := NearestDotGit(dir)
	if gitPath == "" {
		return ""
	}
	if info, err := os.Stat(gitPath); err != nil {
		return ""
	} else if !info.IsDir() {
		data, err := hookfs.ReadFile(gitPath, 64<<10)
		target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
		if err != nil || !ok {
			return ""
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(gitPath), target)
		}
		gitPath = target
	}
	// A regular file of a few bytes: a FIFO there must not hang the hook.
	head, err := hookfs.ReadFile(filepath.Join(gitPath, "HEAD"), 64<<10)
	if err != nil {
		return ""
	}
	branch, isRef := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/")
	if !isRef {
		return "" // detached
	}
	return branch
}

// ErrNotRepo means there is simply no log to show: no repository, or no commits.
var ErrNotRepo = errors.New("not a git repository with commits")

// NearestDotGit is the .git of dir's repository (dir's own or a parent's),
// "" outside one. A folder that is a git directory itself (a bare
// repository, or one whose core.worktree names a work tree elsewhere)
// is its own, as git finds it.
func NearestDotGit(dir string) string {
	for {
		p := filepath.Join(dir, ".git")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if isGitDir(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// isGitDir reports whether dir looks like a git directory as git's own
// discovery tells one: a HEAD file, and objects and refs folders.
func isGitDir(dir string) bool {
	for _, e := range []struct {
		name   string
		folder bool
	}{{"HEAD", false}, {"objects", true}, {"refs", true}} {
		fi, err := os.Stat(filepath.Join(dir, e.name))
		if err != nil || fi.IsDir() != e.folder {
			return false
		}
	}
	return true
}
