package hookenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/internal/proc"
)

// GitRepo is the repository a git command works on, as the read-only git
// calls that look at it must name it: the directory git starts in, and
// the options and variables of the command that chose another repository
// or work tree (--git-dir, --work-tree, GIT_DIR=...).
type GitRepo struct {
	Dir  string
	opts []string
	env  []string
}

func RepoOf(g shellcmd.Git) GitRepo {
	return GitRepo{Dir: g.Dir, opts: g.Repo, env: g.RepoEnv}
}

// RepoWith is the repository of dir, asked with git's own options opts
// (a Selection's GitOpts).
func RepoWith(dir string, opts []string) GitRepo { return GitRepo{Dir: dir, opts: opts} }

// GitErr is a read-only git call that could not run, failed or hung,
// named for the note that says what went unchecked.
type GitErr struct {
	Sub string
	err error
}

func (e *GitErr) Error() string { return e.err.Error() }
func (e *GitErr) Unwrap() error { return e.err }

// Run runs a read-only `git -C dir [opts] args...` (see runGit). Without
// options that name the repository, a directory in no repository is
// ErrNotRepo and starts nothing. core.fsmonitor is off: the repository may
// be one the command names (git -C DIR, --git-dir), and its configuration
// must not make the guard run a program.
func (r GitRepo) Run(ctx context.Context, maxStdout int, args ...string) (proc.Result, error) {
	if len(r.opts) == 0 && len(r.env) == 0 && NearestDotGit(r.Dir) == "" {
		return proc.Result{}, ErrNotRepo
	}
	full := append(append([]string{"-C", r.Dir, "-c", "core.fsmonitor=false"}, r.opts...), args...)
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
		return res, &GitErr{Sub: args[0], err: err}
	}
	return res, nil
}

// linesMax bounds what Lines reads of git's output; a variable, so that a
// test can run past it.
var linesMax = 4 << 20

// Lines runs git and returns its output as lines; a non-zero exit is an
// error, and so is more output than linesMax. git saying there is no
// repository is ErrNotRepo.
func (r GitRepo) Lines(ctx context.Context, args ...string) ([]string, error) {
	res, err := r.Run(ctx, linesMax, args...)
	if err != nil {
		return nil, err
	}
	if res.Oversize {
		// Cut short, the list would read as less than there is.
		return nil, &GitErr{Sub: args[0], err: fmt.Errorf("git %s printed more than %d bytes, too much to check", args[0], linesMax)}
	}
	if res.ExitCode != 0 {
		msg := strings.TrimSpace(string(res.Stderr))
		if strings.HasPrefix(msg, "fatal: not a git repository") {
			return nil, ErrNotRepo // git refuses the command as well
		}
		return nil, &GitErr{Sub: args[0], err: fmt.Errorf("git %s failed: %s", args[0], msg)}
	}
	out := strings.TrimRight(string(res.Stdout), "\n")
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// Status is `git status --porcelain` with extra flags, limited to
// pathspecs when there are any.
func (r GitRepo) Status(ctx context.Context, pathspecs []string, extra ...string) ([]string, error) {
	args := append([]string{"status", "--porcelain"}, extra...)
	if len(pathspecs) > 0 {
		args = append(append(args, "--"), pathspecs...)
	}
	return r.Lines(ctx, args...)
}

// SearchRevError refuses a revision that names a commit by searching
// commit messages (:/text, REV^{/text}): git matches the text as a
// regular expression by backtracking, and a short one written to be slow
// runs for minutes and takes gigabytes, in a git the hook would wait for.
type SearchRevError struct{ Rev string }

func (e *SearchRevError) Error() string {
	return fmt.Sprintf("the revision %s searches commit messages, which is not looked up", e.Rev)
}

// SearchRev is the SearchRevError of the first of revs that searches
// commit messages, nil when none does: such a revision is not handed to
// git.
func SearchRev(revs ...string) error {
	for _, rev := range revs {
		if strings.HasPrefix(strings.TrimPrefix(rev, "^"), ":/") || strings.Contains(rev, "^{/") {
			return &SearchRevError{Rev: rev}
		}
	}
	return nil
}

// IsRev reports whether rev names a commit or tree, as git checkout asks
// of its first operand.
func (r GitRepo) IsRev(ctx context.Context, rev string) (bool, error) {
	if err := SearchRev(rev); err != nil {
		return false, err
	}
	res, err := r.Run(ctx, 4<<10, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{tree}")
	if err != nil {
		return false, err
	}
	return res.ExitCode == 0, nil
}

// ExistingRefs returns those of refs (full names) that exist.
func (r GitRepo) ExistingRefs(ctx context.Context, refs []string) ([]string, error) {
	out, err := r.Lines(ctx, append([]string{"for-each-ref", "--format=%(refname)"}, refs...)...)
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

// LostCommits counts the commits reachable from tips that nothing else
// keeps: not reachable from keep, from HEAD unless headGoes, nor from any
// ref but those in gone (full names). Those are the commits that only the
// reflog remembers once gone refs are deleted or moved. bad reports that
// git does not know one of the revisions (the command would fail too).
func (r GitRepo) LostCommits(ctx context.Context, tips, keep, gone []string, headGoes bool) (n int, bad bool, err error) {
	if err := SearchRev(append(slices.Clip(tips), keep...)...); err != nil {
		return 0, false, err
	}
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
	res, err := r.Run(ctx, 4<<10, args...)
	if err != nil {
		return 0, false, err
	}
	if res.ExitCode != 0 {
		return 0, true, nil
	}
	n, err = strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		return 0, false, &GitErr{Sub: "rev-list", err: fmt.Errorf("git rev-list printed %q", res.Stdout)}
	}
	return n, false, nil
}

// HeadRef is the branch HEAD is on (refs/heads/main), "" when detached.
func (r GitRepo) HeadRef(ctx context.Context) (string, error) {
	res, err := r.Run(ctx, 4<<10, "symbolic-ref", "-q", "HEAD")
	if err != nil || res.ExitCode != 0 {
		return "", err
	}
	return strings.TrimSpace(string(res.Stdout)), nil
}

// HasRev reports whether git knows rev (a stash entry, a ref).
func (r GitRepo) HasRev(ctx context.Context, rev string) (bool, error) {
	if err := SearchRev(rev); err != nil {
		return false, err
	}
	res, err := r.Run(ctx, 4<<10, "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	if err != nil {
		return false, err
	}
	return res.ExitCode == 0, nil
}

// ReflogOnlyCommits counts the commits only reflogs remember (a dropped
// branch's, a reset's, older stash entries), which expiring reflogs
// loses.
func (r GitRepo) ReflogOnlyCommits(ctx context.Context) (int, error) {
	res, err := r.Run(ctx, 4<<10, "rev-list", "--count", "--reflog", "--not", "--all")
	if err != nil {
		return 0, err
	}
	if res.ExitCode != 0 {
		return 0, &GitErr{Sub: "rev-list", err: fmt.Errorf("git rev-list failed: %s", strings.TrimSpace(string(res.Stderr)))}
	}
	return strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
}

// UnreachableCommits counts the commits that neither refs nor reflogs
// reach (a dropped stash, a deleted branch whose reflog went with it):
// what pruning deletes for good.
func (r GitRepo) UnreachableCommits(ctx context.Context) (int, error) {
	out, err := r.Lines(ctx, "fsck", "--connectivity-only", "--unreachable", "--no-progress")
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

// Alias returns the alias name is set to in the repository's or the
// user's configuration ("" when none).
func (r GitRepo) Alias(ctx context.Context, name string) (string, error) {
	res, err := r.Run(ctx, 64<<10, "config", "--get", "alias."+name)
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 {
		return "", nil // not set
	}
	return strings.TrimSuffix(string(res.Stdout), "\n"), nil
}

// NoRepo reports whether err says there is no repository to look at:
// git would refuse the command as well, so nothing can be lost.
func NoRepo(err error) bool { return errors.Is(err, ErrNotRepo) }

// remoteAnswer bounds the one network call the guard makes: asking a
// remote which commit a branch is at (git ls-remote), to judge a pull.
const remoteAnswer = 5 * time.Second

// RemoteTip is the commit the branch ref of remote is at now, as git pull
// and git fetch would read it (git ls-remote; ref may be short, as
// git's rules for a fetch source read it), when that commit is already in
// the repository. found is false when the remote has no such ref (git
// fails too). why says, when it cannot be told or the commit is not here
// yet, what stands in the way. Only remotes the repository names are
// asked (never a URL from the command line), with every prompt off.
func (r GitRepo) RemoteTip(ctx context.Context, remote, ref string) (tip string, found bool, why string) {
	if remote == "." {
		return ref, true, "" // the repository itself: ref is a local revision
	}
	if !r.NamedRemote(ctx, remote) {
		return "", false, fmt.Sprintf("%s is not a remote the repository names, so what it brings cannot be asked", remote)
	}
	ctx, cancel := context.WithTimeout(ctx, remoteAnswer)
	defer cancel()
	quiet := r
	quiet.env = append(slices.Clip(r.env), "SSH_ASKPASS_REQUIRE=force", "SSH_ASKPASS=false", "GCM_INTERACTIVE=never")
	out, err := quiet.Lines(ctx, "ls-remote", "--end-of-options", remote)
	if err != nil {
		return "", false, fmt.Sprintf("the remote %s could not be asked what it would bring (%v)", remote, err)
	}
	refs := map[string]string{}
	for _, l := range out {
		if sha, name, ok := strings.Cut(l, "\t"); ok {
			refs[name] = sha
		}
	}
	for _, full := range []string{ref, "refs/" + ref, "refs/tags/" + ref, "refs/heads/" + ref, "refs/remotes/" + ref, "refs/remotes/" + ref + "/HEAD"} {
		sha, ok := refs[full]
		if !ok {
			continue
		}
		if here, err := r.HasRev(ctx, sha+"^{commit}"); err != nil || !here {
			return "", true, fmt.Sprintf("%s's %s is at commits not fetched yet", remote, ref)
		}
		return sha, true, ""
	}
	return "", false, ""
}

// Config is the values of a configuration key, none when it is unset.
func (r GitRepo) Config(ctx context.Context, key string) []string {
	out, _ := r.Lines(ctx, "config", "--get-all", key)
	return out
}

// NamedRemote reports whether the repository configures a remote of that
// name (with a URL).
func (r GitRepo) NamedRemote(ctx context.Context, name string) bool {
	url, err := r.Lines(ctx, "config", "--get", "remote."+name+".url")
	return err == nil && len(url) > 0
}
