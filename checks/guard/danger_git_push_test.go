package guard

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

// TestDangerGitPushOptions: push's options read as git reads them
// (prefixes, "no-" forms), --force-with-lease and --force-if-includes as
// forces where they force, and options or refspecs that cannot be read
// fail closed when a protected branch could be reached.
func TestDangerGitPushOptions(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.FakeRepo(t, filepath.Join(g.Project, "onmain"), "ref: refs/heads/main")
	d := newDanger(t, "")
	const id = "git-push-protected"
	forced := func(cmd string) dangerCase {
		return dangerCase{command: cmd, id: id, what: fmt.Sprintf("`%s` force-pushes the protected branch \"main\", rewriting its history", cmd), instead: insteadPushForce}
	}
	runDangerCases(t, g, d, []dangerCase{
		forced("git push --force-w origin main"),
		forced("git push --force-with-lease origin main"),
		forced("git push --force-with-lease --force-if-includes origin main"),
		forced("git push -f --force-with-lease origin main"),
		forced("git push --forc origin main"), // --force, --force-with-lease or --force-if-includes: all force here
		forced("git push --force=true origin main"),
		{command: "git push --del origin main", id: id, what: "`git push --del origin main` deletes the protected branch \"main\" on the remote", instead: insteadPushDelete},
		{command: "git push --force-with-lease", cwd: "onmain", id: id, what: "`git push --force-with-lease` force-pushes the current branch \"main\", which is protected", instead: insteadPushCurrent},
		{command: "git push --force-with-lease-if-includes origin main", id: id, instead: insteadPushForce,
			what: "`git push --force-with-lease-if-includes origin main` gives git push an option it does not know (--force-with-lease-if-includes), so whether it forces the protected branch \"main\" cannot be checked"},
		{command: "git push -f origin $BRANCH", id: id, instead: insteadPushForce,
			what: "`git push -f origin $BRANCH` force-pushes or deletes $BRANCH, which cannot be known here, so whether it reaches a protected branch cannot be checked"},
		{command: "git push --all -f", id: id, what: "`git push --all -f` force-pushes every branch, main and master included", instead: insteadPushAll},
		{command: "cd $D && git push -f", id: id, what: "`git push -f` works in a directory that cannot be known here, so what it would throw away cannot be checked", instead: insteadUnknownRepo},
		{command: "git push --force-if-includes origin main"}, // not a force without a lease
		{command: "git push -f --no-force origin main"},
		{command: "git push --force-with-lease --no-force-with-lease origin main"},
		{command: "git push --force-with-lease origin feature"},
		{command: "git push --force-with-lease origin main:feature"},
		{command: "git push --unknown origin feature"},
		{command: "git push origin $BRANCH"},
		{command: "git push --dry-run -f origin main"},
		{command: "git push -nf origin main"},
	})
}
