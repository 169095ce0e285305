package checks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/internal/proc"
)

// gitRepo is the repository a git command works on, as the read-only git
// calls that look at it must name it: the directory git starts in, and
// the options and variables of the command that chose another repository
// or work tree (--git-dir, --work-tree, GIT_DIR=...).
type gitRepo struct {
	dir  string
	opts []string
	env  []string
}

func repoOf(g shellcmd.Git) gitRepo {
	return gitRepo{dir: g.Dir, opts: g.Repo, env: g.RepoEnv}
}

// gitErr is a read-only git call that could not run, failed or hung,
// named for the note that says what went unchecked.
type gitErr struct {
	sub string
	err error
}

func (e *gitErr) Error() string { return e.err.Error() }
func (e *gitErr) Unwrap() error { return e.err }

// run runs a read-only `git -C dir [opts] args...` (see runGit). Without
// options that name the repository, a directory in no repository is
// errNotRepo and starts nothing. core.fsmonitor is off: the repository may
// be one the command names (git -C DIR, --git-dir), and its configuration
// must not make the guard run a program.
func (r gitRepo) run(ctx context.Context, maxStdout int, args ...string) (proc.Result, error) {
	if len(r.opts) == 0 && len(r.env) == 0 && nearestDotGit(r.dir) == "" {
		return proc.Result{}, errNotRepo
	}
	full := append(append([]string{"-C", r.dir, "-c", "core.fsmonitor=false"}, r.opts...), args...)
	path, full := gitArgv(full)
	res, err := proc.Run(ctx, proc.Spec{
		Path:      path,
		Args:      full,
		Env:       append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat"), r.env...),
		MaxStdout: maxStdout,
		MaxStderr: 4 << 10,
	})
	if err == nil && res.TimedOut {
		err = fmt.Errorf("git %s did not finish in time: %w", args[0], ctx.Err())
	}
	if err != nil {
		return res, &gitErr{sub: args[0], err: err}
	}
	return res, nil
}

// lines runs git and returns its output as lines; a non-zero exit is an
// error.
func (r gitRepo) lines(ctx context.Context, args ...string) ([]string, error) {
	res, err := r.run(ctx, 4<<20, args...)
	if err != nil {
		return nil, err
	}
	if res.ExitCode != 0 {
		return nil, &gitErr{sub: args[0], err: fmt.Errorf("git %s failed: %s", args[0], strings.TrimSpace(string(res.Stderr)))}
	}
	out := strings.TrimRight(string(res.Stdout), "\n")
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// status is `git status --porcelain` with extra flags, limited to
// pathspecs when there are any.
func (r gitRepo) status(ctx context.Context, pathspecs []string, extra ...string) ([]string, error) {
	args := append([]string{"status", "--porcelain"}, extra...)
	if len(pathspecs) > 0 {
		args = append(append(args, "--"), pathspecs...)
	}
	return r.lines(ctx, args...)
}

// isRev reports whether rev names a commit or tree, as git checkout asks
// of its first operand.
func (r gitRepo) isRev(ctx context.Context, rev string) (bool, error) {
	res, err := r.run(ctx, 4<<10, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{tree}")
	if err != nil {
		return false, err
	}
	return res.ExitCode == 0, nil
}

// existingRefs returns those of refs (full names) that exist.
func (r gitRepo) existingRefs(ctx context.Context, refs []string) ([]string, error) {
	out, err := r.lines(ctx, append([]string{"for-each-ref", "--format=%(refname)"}, refs...)...)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, ref := range refs {
		want[ref] = true
	}
	var found []string
	for _, ref := range out {
		if want[ref] { // for-each-ref also lists refs below a name (refs/heads/x/y)
			found = append(found, ref)
		}
	}
	return found, nil
}

// lostCommits counts the commits reachable from tips that nothing else
// keeps: not reachable from keep, from HEAD unless headGoes, nor from any
// ref but those in gone (full names). Those are the commits that only the
// reflog remembers once gone refs are deleted or moved. bad reports that
// git does not know one of the revisions (the command would fail too).
func (r gitRepo) lostCommits(ctx context.Context, tips, keep, gone []string, headGoes bool) (n int, bad bool, err error) {
	args := []string{"rev-list", "--count", "--not"}
	for _, ref := range gone {
		args = append(args, "--exclude="+ref)
	}
	args = append(args, "--glob=refs/*")
	if !headGoes {
		args = append(args, "HEAD")
	}
	args = append(args, "--not", "--end-of-options")
	args = append(args, tips...)
	for _, k := range keep {
		args = append(args, "^"+k)
	}
	args = append(args, "--")
	res, err := r.run(ctx, 4<<10, args...)
	if err != nil {
		return 0, false, err
	}
	if res.ExitCode != 0 {
		return 0, true, nil
	}
	n, err = strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		return 0, false, &gitErr{sub: "rev-list", err: fmt.Errorf("git rev-list printed %q", res.Stdout)}
	}
	return n, false, nil
}

// headRef is the branch HEAD is on (refs/heads/main), "" when detached.
func (r gitRepo) headRef(ctx context.Context) (string, error) {
	res, err := r.run(ctx, 4<<10, "symbolic-ref", "-q", "HEAD")
	if err != nil || res.ExitCode != 0 {
		return "", err
	}
	return strings.TrimSpace(string(res.Stdout)), nil
}

// hasRev reports whether git knows rev (a stash entry, a ref).
func (r gitRepo) hasRev(ctx context.Context, rev string) (bool, error) {
	res, err := r.run(ctx, 4<<10, "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	if err != nil {
		return false, err
	}
	return res.ExitCode == 0, nil
}

// reflogOnlyCommits counts the commits only reflogs remember (a dropped
// branch's, a reset's, older stash entries), which expiring reflogs
// loses.
func (r gitRepo) reflogOnlyCommits(ctx context.Context) (int, error) {
	res, err := r.run(ctx, 4<<10, "rev-list", "--count", "--reflog", "--not", "--all")
	if err != nil {
		return 0, err
	}
	if res.ExitCode != 0 {
		return 0, &gitErr{sub: "rev-list", err: fmt.Errorf("git rev-list failed: %s", strings.TrimSpace(string(res.Stderr)))}
	}
	return strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
}

// unreachableCommits counts the commits that neither refs nor reflogs
// reach (a dropped stash, a deleted branch whose reflog went with it):
// what pruning deletes for good.
func (r gitRepo) unreachableCommits(ctx context.Context) (int, error) {
	out, err := r.lines(ctx, "fsck", "--connectivity-only", "--unreachable", "--no-progress")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, l := range out {
		if strings.HasPrefix(l, "unreachable commit ") {
			n++
		}
	}
	return n, nil
}

// alias returns the alias name is set to in the repository's or the
// user's configuration ("" when none).
func (r gitRepo) alias(ctx context.Context, name string) (string, error) {
	res, err := r.run(ctx, 64<<10, "config", "--get", "alias."+name)
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 {
		return "", nil // not set
	}
	return strings.TrimSuffix(string(res.Stdout), "\n"), nil
}

// noRepo reports whether err says there is no repository to look at:
// git would refuse the command as well, so nothing can be lost.
func noRepo(err error) bool { return errors.Is(err, errNotRepo) }
