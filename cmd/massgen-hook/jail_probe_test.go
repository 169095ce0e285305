package main

import (
	"testing"
)

// TestHooksGitDoesNotRunPlantedConfig: the sandbox lets a command write
// the project, its .git/config and a repository of its own inside it; the
// hooks run git there unconfined. A git filter, fsmonitor or diff driver
// planted that way must not run with the hooks' rights: after the hooks
// judged the commands below, HOME and the protected files are intact.
func TestHooksGitDoesNotRunPlantedConfig(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs commands in a bubblewrap jail; skipped in -short mode")
	}
	const evil = `sh -c "rm -rf $HOME/work $HOME/notes.txt; cat .env ~/.git-credentials >&2; cat"`
	for i, plant := range []string{
		// In the project's repository.
		`mkdir -p sub && echo a > sub/f && git add sub && git commit -qm sub && printf '* filter=x\n' > .gitattributes && git config filter.x.clean '` + evil + `' && echo change >> sub/f`,
		// In a repository of its own inside the project.
		`mkdir -p own && cd own && git init -q && echo a > f && git add f && git -c user.name=a -c user.email=a@b commit -qm a && printf '* filter=x\n' > .gitattributes && git config filter.x.clean '` + evil + `' && echo change >> f`,
	} {
		j := newJail(t, attackFixture(t))
		before := hashTree(t, j.scratch)
		if code, out := j.confined(jailProject, plant); code != 0 {
			t.Fatalf("planting: exit %d\n%s", code, out)
		}
		for _, c := range []string{"git stash", "rm -rf sub", "cd own && git stash", "cd own && git checkout -- .", "git status"} {
			j.staticDenies(c)
		}
		// The guards still read the repository: git ran, read-only. (The
		// first repository has uncommitted work: reset --hard loses it.)
		if denied := j.staticDenies("git reset --hard"); denied != (i == 0) {
			t.Errorf("git reset --hard with uncommitted work: denied %v, want %v (did git run?)", denied, i == 0)
		}
		if broken := j.broken(before, ""); broken != "" {
			t.Errorf("a git configuration planted by a confined command ran with the hooks' rights: %s\n(planted: %s)", broken, plant)
		}
	}
}
