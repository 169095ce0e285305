package guard

import (
	"fmt"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

// TestDangerGitSelfRefs: branches moved or deleted through the repository
// itself (a push or fetch to ".", git worktree add -B) are judged as git
// branch -D and -f are: denied when the branch has commits nothing else
// keeps, and passing for a merged branch, a fast-forward, or a remote that
// is another repository.
func TestDangerGitSelfRefs(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	dirtyRepo(t, g)
	cleanRepo(t, g)
	d := newDanger(t, "")
	const id = "git-branch-delete"
	lost := func(cmd string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, what: fmt.Sprintf("`%s` would lose 1 commit(s) that no other branch, tag or remote has (only the reflog would remember them)", cmd), instead: insteadBranch}
	}
	pass := func(cmd string) dangerCase { return dangerCase{command: cmd, cwd: "repo"} }
	runGitCases(t, g, d, []dangerCase{
		lost("git push . :feature"),
		lost("git push . :refs/heads/feature"),
		lost("git push --delete . feature"),
		lost("git push -f . main:feature"),
		lost("git push . +main:feature"),
		lost("git push ./ :feature"),
		lost("git push ../repo :feature"),
		lost("git fetch . +main:feature"),
		lost("git fetch -f . main:feature"),
		lost("git worktree add -B feature ../wt-self"),
		lost("git worktree add -B feature ../wt-self main"),
		pass("git push . :merged"),
		pass("git push . main:feature"), // not forced: git refuses unless it is a fast-forward
		pass("git push . feature:merged"),
		pass("git push -n . :feature"),
		pass("git push ../clean :feature"), // another repository's branch
		pass("git fetch . main:feature"),
		pass("git push origin :feature"), // the remote keeps its own
		{command: "git -C $D push origin main", cwd: "repo"},
		pass("git fetch . feature"),
		pass("git worktree add -B fresh ../wt-self"),
		pass("git worktree add -b feature2 ../wt-self"),
		{command: "git push . :$B", cwd: "repo", id: id,
			what: "`git push . :$B` names the refspec :$B, which cannot be known here, so what it would throw away cannot be checked", instead: "Name it literally."},
	})
}
