package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
)

// runGitCases checks each case as runDanger does, and that the repository
// was looked at without trouble: a pass must come from nothing to lose,
// never from a git that failed (which would only leave a note).
func runGitCases(t *testing.T, g *checktest.GuardEnv, d engine.Builtin, cases []dangerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.command, func(t *testing.T) {
			if v := runDanger(t, g, d, tc); len(v.Notes) != 0 {
				t.Errorf("%q: notes %q, want none", tc.command, v.Notes)
			}
		})
	}
}

// writeFile writes content to dir/name.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dirtyRepo makes project/repo a repository on main with work to lose:
//
//	a.txt    changed, not staged       (" M")
//	b.txt    changed and staged        ("M ")
//	c.txt    staged, then changed again ("MM")
//	u.txt    untracked                 ("??")
//	keep.txt, d/e.txt, list.txt clean; list.txt names a.txt
//	branches: merged (at main), feature (one commit nothing else has)
//	one stash entry (a change to keep.txt)
func dirtyRepo(t *testing.T, g *checktest.GuardEnv) string {
	t.Helper()
	repo := filepath.Join(g.Project, "repo")
	checktest.RealRepo(t, repo, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "keep.txt": "k\n", "d/e.txt": "e\n", "list.txt": "a.txt\n"})
	checktest.GitRun(t, repo, "branch", "merged")
	checktest.GitRun(t, repo, "switch", "-q", "-c", "feature")
	writeFile(t, repo, "feature.txt", "f\n")
	checktest.GitRun(t, repo, "add", "feature.txt")
	checktest.GitRun(t, repo, "commit", "-q", "-m", "feature work")
	checktest.GitRun(t, repo, "switch", "-q", "main")
	writeFile(t, repo, "keep.txt", "stashed\n")
	checktest.GitRun(t, repo, "stash", "-q")
	writeFile(t, repo, "a.txt", "a changed\n")
	writeFile(t, repo, "b.txt", "b staged\n")
	writeFile(t, repo, "c.txt", "c staged\n")
	checktest.GitRun(t, repo, "add", "b.txt", "c.txt")
	writeFile(t, repo, "c.txt", "c staged, then changed\n")
	writeFile(t, repo, "u.txt", "untracked\n")
	return repo
}

// cleanRepo makes project/clean a repository on main with a clean tree,
// one untracked file and no stash.
func cleanRepo(t *testing.T, g *checktest.GuardEnv) string {
	t.Helper()
	repo := filepath.Join(g.Project, "clean")
	checktest.RealRepo(t, repo, map[string]string{"a.txt": "a\n", "d/e.txt": "e\n"})
	checktest.GitRun(t, repo, "branch", "merged")
	writeFile(t, repo, "u.txt", "untracked\n")
	return repo
}

func TestDangerGitDiscardChanges(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	dirtyRepo(t, g)
	cleanRepo(t, g)
	d := newDanger(t, "")
	const id = "git-discard-changes"
	over := func(cmd string, n int, files string) string {
		return fmt.Sprintf("`%s` would overwrite uncommitted changes to %d file(s) (%s)", cmd, n, files)
	}
	forced := func(cmd string) string {
		return fmt.Sprintf("`%s` would throw away uncommitted changes to 3 tracked file(s) (a.txt, b.txt, c.txt)", cmd)
	}
	deny := func(cmd string, n int, files string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, what: over(cmd, n, files), instead: insteadDiscardPaths}
	}
	denyForce := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, what: forced(cmd), instead: insteadDiscardForce}
	}
	pass := func(cmd string) dangerCase { return dangerCase{command: cmd, cwd: "repo"} }
	runGitCases(t, g, d, []dangerCase{
		// git checkout of paths: from the index, unstaged changes go.
		deny("git checkout -- a.txt", 1, "a.txt"),
		deny("git checkout a.txt", 1, "a.txt"),
		deny("git checkout -- .", 2, "a.txt, c.txt"),
		deny("git checkout .", 2, "a.txt, c.txt"),
		deny("git checkout a.txt b.txt", 1, "a.txt"),
		{command: "git checkout 2>/dev/null -- a.txt", cwd: "repo", id: id, what: over("git checkout -- a.txt", 1, "a.txt"), instead: insteadDiscardPaths},
		{command: "git checkout >'file`name' -- a.txt", cwd: "repo", id: id, what: over("git checkout -- a.txt", 1, "a.txt"), instead: insteadDiscardPaths},
		deny("/usr/local/bin/git checkout -- .", 2, "a.txt, c.txt"),
		deny("git checkout --ours -- a.txt", 1, "a.txt"),
		pass("git checkout -- b.txt"), // staged only: the index has it
		pass("git checkout -- keep.txt"),
		pass("git checkout -- u.txt"), // untracked: git does not know it
		pass("git checkout -- d"),
		pass("git checkout nosuchbranch"),
		// From a commit: the staged changes go too.
		deny("git checkout HEAD -- b.txt", 1, "b.txt"),
		deny("git checkout HEAD b.txt", 1, "b.txt"),
		deny("git checkout main a.txt b.txt", 2, "a.txt, b.txt"),
		deny("git checkout -q main b.txt", 1, "b.txt"),
		deny("git checkout --no-quiet main b.txt", 1, "b.txt"),
		deny("git checkout HEAD -- .", 3, "a.txt, b.txt, c.txt"),
		deny("git checkout --pathspec-from-file=list.txt", 2, "a.txt, c.txt"),
		deny("git checkout HEAD --pathspec-from-file list.txt", 3, "a.txt, b.txt, c.txt"),
		// A path or branch that cannot be known is the whole tree.
		deny("git checkout -- $F", 2, "a.txt, c.txt"),
		deny("git checkout $F", 3, "a.txt, b.txt, c.txt"),
		// Globs: what the shell matches, and what git would.
		deny("git checkout -- *.txt", 2, "a.txt, c.txt"),
		deny("git restore 'd/*' '*.txt'", 2, "a.txt, c.txt"),
		pass("git checkout -- d/*"),
		pass("git checkout -- k*"),
		// Under xargs and find -exec the paths come from elsewhere.
		{command: "git ls-files -m | xargs git checkout --", cwd: "repo", id: id, what: over("git checkout -- <input of xargs>", 2, "a.txt, c.txt"), instead: insteadDiscardPaths},
		{command: "find . -name '*.txt' -exec git checkout -- {} +", cwd: "repo", id: id, what: over("git checkout -- {}", 2, "a.txt, c.txt"), instead: insteadDiscardPaths},
		{command: "find d -name '*.txt' -exec git checkout -- {} +", cwd: "repo"},
		// An option git does not know: the worse reading counts.
		deny("git checkout --unknown main b.txt", 1, "b.txt"),
		pass("git checkout --unknown -q main"),
		pass("git checkout --unknown=value main"),
		// Switching branches: git refuses to overwrite changes, unless forced.
		pass("git checkout feature"),
		pass("git checkout -"),
		pass("git checkout -b new"),
		pass("git checkout --orphan fresh"),
		pass("git checkout --detach main"),
		pass("git checkout -p -- a.txt"), // the user picks each hunk
		pass("git checkout -tf main"),    // --track=f: git refuses it
		pass("git checkout -f --no-force main"),
		denyForce("git checkout -f main"),
		denyForce("git checkout --force main"),
		denyForce("git checkout --forc main"),
		denyForce("git checkout -qf main"),
		denyForce("git checkout -f"),
		denyForce("git checkout -f -b new-branch"),
		denyForce("git switch -f main"),
		denyForce("git switch -qf main"),
		denyForce("git switch --force main"),
		denyForce("git switch --discard-changes main"),
		denyForce("git switch --disc main"),
		pass("git switch main"),
		pass("git switch -c other"),
		pass("git switch -- -f"),
		// git restore: the work tree from the index unless --staged alone.
		deny("git restore a.txt", 1, "a.txt"),
		deny("git restore a.txt b.txt", 1, "a.txt"),
		deny("git restore --worktree a.txt", 1, "a.txt"),
		deny("git restore -W a.txt", 1, "a.txt"),
		deny("git restore .", 2, "a.txt, c.txt"),
		deny("git restore --source=HEAD~0 a.txt", 1, "a.txt"),
		deny("git restore -SW b.txt", 1, "b.txt"),
		deny("git restore --staged --worktree .", 3, "a.txt, b.txt, c.txt"),
		deny("git restore --pathspec-from-file=list.txt", 2, "a.txt, c.txt"),
		pass("git restore --staged b.txt"),
		pass("git restore -S ."),
		pass("git restore keep.txt"),
		pass("git restore u.txt"),
		pass("git restore b.txt"),
		pass("git restore -p a.txt"),
		pass("git restore"),
		pass("git restore --help"),
		// git rm -f: files with changes, staged or not.
		{command: "git rm -f a.txt", cwd: "repo", id: id, what: "`git rm -f a.txt` would delete 1 file(s) with uncommitted changes for good (a.txt)", instead: insteadRm},
		{command: "git rm -rf .", cwd: "repo", id: id, what: "`git rm -rf .` would delete 3 file(s) with uncommitted changes for good (a.txt, b.txt, c.txt)", instead: insteadRm},
		{command: "git rm --force -- b.txt", cwd: "repo", id: id, what: "`git rm --force -- b.txt` would delete 1 file(s) with uncommitted changes for good (b.txt)", instead: insteadRm},
		pass("git rm -f keep.txt"),
		pass("git rm -rf d"),
		pass("git rm a.txt"), // git refuses
		pass("git rm --cached -f a.txt"),
		pass("git rm -nf a.txt"),
		// git -C DIR: DIR's changes.
		{command: "git -C repo checkout -- a.txt", id: id, what: over("git -C repo checkout -- a.txt", 1, "a.txt"), instead: insteadDiscardPaths},
		{command: "git -C repo switch -f main", id: id, what: forced("git -C repo switch -f main"), instead: insteadDiscardForce},
		// A clean tree loses nothing.
		{command: "git checkout -f main", cwd: "clean"},
		{command: "git checkout -- .", cwd: "clean"},
		{command: "git restore .", cwd: "clean"},
		{command: "git switch --discard-changes main", cwd: "clean"},
		{command: "git rm -rf .", cwd: "clean"},
		// Outside any repository git refuses.
		{command: "git checkout -f main"},
		{command: "git restore ."},
	})
	runDanger(t, g, newDanger(t, "off: [git-discard-changes]"), dangerCase{command: "git checkout -- .", cwd: "repo"})
}

func TestDangerGitResetModes(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	dirtyRepo(t, g)
	clean := cleanRepo(t, g)
	d := newDanger(t, "")
	const id = "git-reset-hard"
	thrown := "would throw away uncommitted changes to 3 tracked file(s) (a.txt, b.txt, c.txt)"
	runGitCases(t, g, d, []dangerCase{
		{command: "git reset --har", cwd: "repo", id: id, what: "`git reset --har` " + thrown, instead: insteadReset},
		{command: "git reset -q --hard", cwd: "repo", id: id, what: "`git reset -q --hard` " + thrown, instead: insteadReset},
		{command: "git reset --merge", cwd: "repo", id: id, what: "`git reset --merge` would throw away the staged changes to 2 file(s) (b.txt, c.txt)", instead: insteadReset},
		{command: "git reset --m", cwd: "repo", id: id, what: "`git reset --m` would throw away the staged changes to 2 file(s) (b.txt, c.txt)", instead: insteadReset},
		{command: "git reset --hard --soft", cwd: "repo"},
		{command: "git reset --keep", cwd: "repo"},
		{command: "git reset", cwd: "repo"},
		{command: "git reset HEAD b.txt", cwd: "repo"},
		{command: "git reset --mixed HEAD", cwd: "repo"},
		{command: "git reset --merge", cwd: "clean"},
		{command: "git reset --hard", cwd: "clean"},
	})
	// A commit on main that nothing else has: moving main back leaves it.
	writeFile(t, clean, "a.txt", "second\n")
	checktest.GitRun(t, clean, "commit", "-q", "-am", "second")
	left := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "clean", id: id, what: fmt.Sprintf("`%s` would leave 1 commit(s) that no other branch, tag or remote has (only the reflog would remember them)", cmd), instead: insteadLostCommits}
	}
	runGitCases(t, g, d, []dangerCase{
		left("git reset --hard HEAD~1"),
		left("git reset --keep HEAD~1"),
		left("git reset --merge merged"),
		{command: "git reset --hard HEAD", cwd: "clean"},
		{command: "git reset --soft HEAD~1", cwd: "clean"},
		{command: "git reset HEAD~1", cwd: "clean"},
		{command: "git reset --hard nosuchcommit", cwd: "clean"}, // git refuses
		{command: "git reset --hard $REV", cwd: "clean", id: id,
			what: "`git reset --hard $REV` names the commit $REV, which cannot be known here, so what it would throw away cannot be checked", instead: "Name it literally."},
		// A commit named by a search of commit messages is not looked up:
		// git backtracks through the regular expression, and one written
		// to be slow ran for minutes, and on after the hook had answered.
		searched("git reset --hard ':/(.*)(.*)(.*)\\3\\2\\1#'", ":/(.*)(.*)(.*)\\3\\2\\1#", id),
		searched("git reset --hard 'HEAD^{/((a{1000}){1000}){1000}}'", "HEAD^{/((a{1000}){1000}){1000}}", id),
		searched("git reset --keep ':/second'", ":/second", id),
	})
	// Kept on a branch: nothing is lost.
	checktest.GitRun(t, clean, "branch", "backup")
	runGitCases(t, g, d, []dangerCase{{command: "git reset --hard HEAD~1", cwd: "clean"}})
}

// searched is the denial of a command naming a commit by searching commit
// messages.
func searched(cmd, rev, id string) dangerCase {
	return dangerCase{command: cmd, cwd: "clean", id: id,
		what:    fmt.Sprintf("`%s` names a commit by searching commit messages (%s), which git matches as a regular expression by backtracking, so what it would throw away is not looked up", cmd, rev),
		instead: "Name the commit by its hash, branch or tag."}
}

func TestDangerGitBranches(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	dirtyRepo(t, g)
	d := newDanger(t, "")
	const id = "git-branch-delete"
	lost := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, what: fmt.Sprintf("`%s` would lose 1 commit(s) that no other branch, tag or remote has (only the reflog would remember them)", cmd), instead: insteadBranch}
	}
	pass := func(cmd string) dangerCase { return dangerCase{command: cmd, cwd: "repo"} }
	runGitCases(t, g, d, []dangerCase{
		lost("git branch -D feature"),
		lost("git branch -Dv feature"),
		lost("git branch -D merged feature"),
		lost("git branch -d -f feature"),
		lost("git branch --delete --force feature"),
		lost("git branch --del --forc feature"),
		lost("git branch -f feature main"),
		lost("git branch -M merged feature"),
		lost("git checkout -B feature"),
		lost("git checkout -B feature main"),
		lost("git switch -C feature main"),
		lost("git switch --force-create feature"),
		lost("git update-ref -d refs/heads/feature"),
		lost("git update-ref refs/heads/feature main"),
		pass("git branch -d feature"), // git refuses: not merged
		pass("git branch -D merged"),
		pass("git branch -D nosuchbranch"),
		pass("git branch -f merged main"),
		pass("git branch -m merged renamed"),
		pass("git branch -dr origin/feature"),
		pass("git branch feature-new"),
		pass("git branch -a"),
		pass("git checkout -B fresh"),
		pass("git switch -C fresh"),
		pass("git update-ref -d refs/heads/merged"),
		{command: "git branch -D $B", cwd: "repo", id: id,
			what: "`git branch -D $B` names the branch $B, which cannot be known here, so what it would throw away cannot be checked", instead: "Name it literally."},
		{command: "git update-ref --stdin", cwd: "repo", id: id,
			what: "`git update-ref --stdin` reads the refs to change from its input, so what it would delete cannot be checked", instead: "Use git branch or git update-ref REF NEW with the refs named."},
	})
}

func TestDangerGitStash(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	dirtyRepo(t, g)
	cleanRepo(t, g)
	d := newDanger(t, "")
	const id = "git-stash-drop"
	entry := func(cmd, name string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, what: fmt.Sprintf("`%s` would delete the stash entry %s for good", cmd, name), instead: insteadStash}
	}
	runGitCases(t, g, d, []dangerCase{
		entry("git stash drop", "stash@{0}"),
		entry("git stash drop -q", "stash@{0}"),
		entry("git stash drop stash@{0}", "stash@{0}"),
		entry("git stash drop 0", "stash@{0}"),
		{command: "git stash clear", cwd: "repo", id: id, what: "`git stash clear` would delete 1 stash entr(y/ies) for good (stash@{0})", instead: insteadStash},
		{command: "git update-ref -d refs/stash", cwd: "repo", id: "git-branch-delete", what: "`git update-ref -d refs/stash` would delete 1 stash entr(y/ies) for good (stash@{0})", instead: insteadStash},
		{command: "git reflog delete stash@{0}", cwd: "repo", id: "git-expire-reflog", what: "`git reflog delete stash@{0}` would delete the stash entry stash@{0} for good", instead: insteadStash},
		{command: "git stash drop $S", cwd: "repo", id: id, what: "`git stash drop $S` would delete one of the 1 stash entr(y/ies) for good, and $S cannot be known here", instead: insteadStash},
		{command: "git stash drop stash@{3}", cwd: "repo"},
		{command: "git stash list", cwd: "repo"},
		{command: "git stash pop", cwd: "repo"},
		{command: "git stash apply", cwd: "repo"},
		{command: "git stash", cwd: "repo"},
		{command: "git stash show -p", cwd: "repo"},
		{command: "git stash drop", cwd: "clean"},
		{command: "git stash clear", cwd: "clean"},
	})
}

func TestDangerGitWorktreeRemove(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	repo := dirtyRepo(t, g)
	checktest.GitRun(t, repo, "worktree", "add", "-q", "../wt", "merged")
	checktest.GitRun(t, repo, "worktree", "add", "-q", "../tidy", "-b", "tidy")
	writeFile(t, filepath.Join(g.Project, "wt"), "new.txt", "work\n")
	d := newDanger(t, "")
	const id = "git-worktree-remove"
	gone := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, what: fmt.Sprintf("`%s` would delete 1 uncommitted or untracked file(s) in ../wt for good (new.txt)", cmd),
			instead: "Commit or stash them in that worktree first; without --force git refuses to remove a worktree with changes."}
	}
	runGitCases(t, g, d, []dangerCase{
		gone("git worktree remove --force ../wt"),
		gone("git worktree remove -f ../wt"),
		gone("git worktree remove -ff ../wt"),
		gone("git worktree remove --forc ../wt"),
		{command: "git worktree remove ../wt", cwd: "repo"}, // git refuses
		{command: "git worktree remove -f ../tidy", cwd: "repo"},
		{command: "git worktree remove -f ../nowhere", cwd: "repo"},
		{command: "git worktree remove -- -f", cwd: "repo"},
		{command: "git worktree list", cwd: "repo"},
	})
}

func TestDangerGitExpireReflog(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	repo := cleanRepo(t, g)
	d := newDanger(t, "")
	const id = "git-expire-reflog"
	pass := func(cmd string) dangerCase { return dangerCase{command: cmd, cwd: "clean"} }
	// Nothing lost yet: every commit is on a branch.
	runGitCases(t, g, d, []dangerCase{
		pass("git reflog expire --expire=now --all"),
		pass("git gc --prune=now"),
		pass("git prune"),
	})
	// A commit made and reset away: only the reflog has it.
	writeFile(t, repo, "a.txt", "second\n")
	checktest.GitRun(t, repo, "commit", "-q", "-am", "second")
	checktest.GitRun(t, repo, "reset", "-q", "--hard", "HEAD~1")
	expired := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "clean", id: id, what: fmt.Sprintf("`%s` would expire the reflog entries of 1 commit(s) that nothing else keeps (dropped branches, reset commits, older stash entries), so they could no longer be found", cmd), instead: insteadExpire}
	}
	runGitCases(t, g, d, []dangerCase{
		expired("git reflog expire --expire=now --all"),
		expired("git reflog expire --expire-unreachable=now --all"),
		expired("git reflog expire --expire-unr=now --all"),
		expired("git -c gc.reflogExpire=now gc"),
		expired("git reflog delete HEAD@{0}"),
		pass("git reflog expire --all"),
		pass("git reflog expire --dry-run --expire=now --all"),
		pass("git reflog"),
		pass("git gc --prune=now"), // the reflog still holds it
		pass("git gc"),
	})
	// Expired for real: now only pruning is left between it and oblivion.
	checktest.GitRun(t, repo, "reflog", "expire", "--expire=now", "--all")
	pruned := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "clean", id: id, what: fmt.Sprintf("`%s` would delete 1 unreachable commit(s) for good (dropped stashes, deleted branches), which can still be recovered now", cmd), instead: insteadExpire}
	}
	runGitCases(t, g, d, []dangerCase{
		pruned("git gc --prune=now"),
		pruned("git gc --prune=all"),
		pruned("git -c gc.pruneExpire=now gc"),
		pruned("git prune"),
		pruned("git prune --expire=now"),
		pass("git gc"),
		pass("git gc --prune=never"),
		pass("git prune -n"),
		pass("git prune --dry-run"),
	})
}

// TestDangerGitExpireStash: the stash is a reflog; expiring it empties
// git stash list even when its one entry is still what refs/stash holds.
func TestDangerGitExpireStash(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	dirtyRepo(t, g)
	d := newDanger(t, "")
	emptied := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: "git-expire-reflog", what: fmt.Sprintf("`%s` would empty the stash list (1 entr(y/ies): stash@{0})", cmd), instead: insteadExpire}
	}
	runGitCases(t, g, d, []dangerCase{
		emptied("git reflog expire --expire=now --all"),
		emptied("git reflog expire --expire=now refs/stash"),
		emptied("git -c gc.reflogExpire=now gc"),
		{command: "git reflog expire --expire=now refs/heads/main", cwd: "repo"},
		{command: "git reflog expire --expire-unreachable=now --all", cwd: "repo"},
	})
}

func TestDangerGitFilterBranch(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	d := newDanger(t, "")
	const instead = "History rewrites need a human: ask the user."
	runGitCases(t, g, d, []dangerCase{
		{command: "git filter-branch --tree-filter 'rm -f secret' HEAD", id: "git-filter-branch",
			what: "`git filter-branch --tree-filter 'rm -f secret' HEAD` rewrites every commit of the branches it works on", instead: instead},
		{command: "git filter-repo --path secret --invert-paths", id: "git-filter-branch",
			what: "`git filter-repo --path secret --invert-paths` rewrites every commit of the branches it works on", instead: instead},
		{command: "git filter-branch --help"},
		{command: "git filter-repo --analyze"},
	})
}

// TestDangerGitCleanPaths: git clean PATHS deletes only under them; its
// options are read as git reads them.
func TestDangerGitCleanPaths(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	cleanRepo(t, g)
	d := newDanger(t, "")
	runGitCases(t, g, d, []dangerCase{
		{command: "git clean -f u.txt", cwd: "clean", id: "git-clean", what: "`git clean -f u.txt` would delete 1 untracked or ignored file(s) for good (u.txt)", instead: insteadClean},
		{command: "git clean --forc -d", cwd: "clean", id: "git-clean", what: "`git clean --forc -d` would delete 1 untracked or ignored file(s) for good (u.txt)", instead: insteadClean},
		{command: "git clean -nf", cwd: "clean"},
		{command: "git clean -fd d", cwd: "clean"},
		{command: "git clean -fd -- $P", cwd: "clean", id: "git-clean", what: "`git clean -fd -- $P` would delete 1 untracked or ignored file(s) for good (u.txt)", instead: insteadClean},
	})
}

// TestDangerGitRepoOptions: --git-dir, --work-tree and GIT_DIR choose the
// repository the read-only looks go to, as they choose git's.
func TestDangerGitRepoOptions(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	dirtyRepo(t, g)
	cleanRepo(t, g)
	d := newDanger(t, "")
	const id = "git-reset-hard"
	thrown := func(cmd string) dangerCase {
		return dangerCase{command: cmd, id: id, what: fmt.Sprintf("`%s` would throw away uncommitted changes to 3 tracked file(s) (a.txt, b.txt, c.txt)", cmd), instead: insteadReset}
	}
	runGitCases(t, g, d, []dangerCase{
		thrown("git --git-dir=repo/.git --work-tree=repo reset --hard"),
		thrown("git --git-dir repo/.git --work-tree repo reset --hard"),
		{command: "GIT_DIR=repo/.git GIT_WORK_TREE=repo git reset --hard", id: id,
			what: "`git reset --hard` would throw away uncommitted changes to 3 tracked file(s) (a.txt, b.txt, c.txt)", instead: insteadReset},
		{command: "git --git-dir=clean/.git --work-tree=clean reset --hard"},
		{command: "git -C clean --git-dir=../repo/.git --work-tree=. reset --hard", id: id,
			what: "`git -C clean --git-dir=../repo/.git --work-tree=. reset --hard` would throw away uncommitted changes to 4 tracked file(s) (b.txt, c.txt, keep.txt, and 1 more)", instead: insteadReset},
		{command: "git --git-dir=$G reset --hard", id: id, instead: insteadUnknownRepo,
			what: "`git --git-dir=$G reset --hard` works in a directory that cannot be known here, so what it would throw away cannot be checked"},
		{command: "git -Crepo reset --hard", id: id, instead: "Write git's own options as git documents them (git -C DIR, git -c NAME=VALUE).",
			what: "`git -Crepo reset --hard` gives git an option of its own that git does not know, so what the command would do cannot be checked"},
		{command: "git -Crepo status"},
	})
}

// TestDangerGitLookRunsNothing: looking at a repository whose
// configuration names an fsmonitor program does not run it.
func TestDangerGitLookRunsNothing(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	repo := dirtyRepo(t, g)
	marker := filepath.Join(g.Project, "fsmonitor-ran")
	checktest.GitRun(t, repo, "config", "core.fsmonitor", "touch "+marker+"; false")
	d := newDanger(t, "")
	runGitCases(t, g, d, []dangerCase{{command: "git checkout -- keep.txt", cwd: "repo"}})
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the repository's fsmonitor ran")
	}
}

// TestDangerGitFailureDenies: a git the guard cannot get an answer from
// denies the command it was asked about, since the agent can make the
// guard's git fail on purpose: a display setting git status refuses and
// git reset never reads (red-teamed: reset --hard, checkout -- ., clean
// -fd and rm -rf all passed with a note). A folder git itself finds no
// repository in is a quiet pass: git refuses the command as well.
func TestDangerGitFailureDenies(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	broken := filepath.Join(g.Project, "broken")
	if err := os.MkdirAll(filepath.Join(broken, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := dirtyRepo(t, g)
	checktest.GitRun(t, repo, "config", "status.branch", "bogus")
	checktest.GitRun(t, repo, "config", "log.date", "bogus")
	d := newDanger(t, "")
	judge := func(command, cwd string) engine.Verdict {
		t.Helper()
		v, err := d.Check(t.Context(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(command), Cwd: filepath.Join(g.Project, cwd)}))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, cmd := range []string{"git checkout -- a.txt", "git restore .", "git reset --hard", "git worktree remove -f ."} {
		if v := judge(cmd, "broken"); v.Decision != "" || len(v.Notes) != 0 {
			t.Errorf("%q in a folder git finds no repository in: %q %q %q", cmd, v.Decision, v.Reason, v.Notes)
		}
	}
	for _, tc := range []struct{ command, id, run, cause string }{
		{"git reset --hard", "git-reset-hard", "git status", "status.branch"},
		{"git checkout -- .", "git-discard-changes", "git status", "status.branch"},
		{"git restore .", "git-discard-changes", "git status", "status.branch"},
		{"git clean -fd", "git-clean", "git status", "status.branch"},
		{"rm -rf d", "delete-uncommitted", "git status", "status.branch"},
		{"git stash clear", "git-stash-drop", "git stash", "bogus"},
	} {
		v := judge(tc.command, "repo")
		want := fmt.Sprintf("`%s` cannot be checked: %s, run to see what it would throw away, failed (", tc.command, tc.run)
		if v.Decision != engine.Deny || !strings.Contains(v.Reason, "rule "+tc.id+"): "+want) || !strings.Contains(v.Reason, tc.cause) {
			t.Errorf("%q with git status failing: %q %q, want rule %s's denial starting %q", tc.command, v.Decision, v.Reason, tc.id, want)
		}
	}
}

// TestDangerGitDirAsFolder: a folder that is a git directory itself, its
// work tree elsewhere (core.worktree), is a repository to git: a reset
// run there throws away the work tree's changes, and is judged so. It
// used to be taken for no repository, and passed in silence.
func TestDangerGitDirAsFolder(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	repo := dirtyRepo(t, g)
	gitDir := filepath.Join(g.Project, "g")
	checktest.GitRun(t, g.Project, "clone", "-q", "--bare", repo, gitDir)
	checktest.GitRun(t, gitDir, "config", "core.bare", "false")
	checktest.GitRun(t, gitDir, "config", "core.worktree", repo)
	d := newDanger(t, "")
	v, err := d.Check(t.Context(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput("git reset --hard"), Cwd: gitDir}))
	if err != nil {
		t.Fatal(err)
	}
	if v.Decision != engine.Deny || !strings.Contains(v.Reason, "would throw away uncommitted changes") {
		t.Errorf("git reset --hard in a git directory whose work tree has changes: %q %q", v.Decision, v.Reason)
	}
}
