package guard

import (
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
)

// wiringRepo makes the project a repository on main whose tracked
// .claude/settings.json is the guards' wiring, with:
//
//	evil     a branch whose commit changes the wiring
//	feature  a branch whose commit adds f.txt and leaves the wiring alone
//	stash@{0} a change to README.md; stash@{1} a change to the wiring
//	.codex/hooks.json untracked, .claude/settings.local.json ignored
//	../evil.patch, ../ok.patch the two branches' changes as patches
func wiringRepo(t *testing.T, g *checktest.GuardEnv) {
	t.Helper()
	checktest.RealRepo(t, g.Project, map[string]string{".claude/settings.json": "{\"hooks\":{}}\n", "README.md": "readme\n",
		".gitignore": ".claude/settings.local.json\n.claude/massgen-hook/\n", "src/a.txt": "a\n"})
	checktest.GitRun(t, g.Project, "switch", "-q", "-c", "evil")
	writeFile(t, g.Project, ".claude/settings.json", "{}\n")
	checktest.GitRun(t, g.Project, "commit", "-q", "-am", "turn the hooks off")
	checktest.GitRun(t, g.Project, "switch", "-q", "-c", "feature", "main")
	writeFile(t, g.Project, "f.txt", "f\n")
	checktest.GitRun(t, g.Project, "add", "f.txt")
	checktest.GitRun(t, g.Project, "commit", "-q", "-m", "feature work")
	checktest.GitRun(t, g.Project, "switch", "-q", "main")
	writeFile(t, g.Project, ".claude/settings.json", "{}\n")
	checktest.GitRun(t, g.Project, "stash", "-q")
	writeFile(t, g.Project, "README.md", "stashed\n")
	checktest.GitRun(t, g.Project, "stash", "-q")
	writeFile(t, g.Project, "../evil.patch", checktest.GitRun(t, g.Project, "diff", "main", "evil"))
	writeFile(t, g.Project, "../ok.patch", checktest.GitRun(t, g.Project, "diff", "main", "feature"))
	writeFile(t, g.Project, ".codex/hooks.json", "{}\n")
	writeFile(t, g.Project, ".claude/settings.local.json", "{}\n")
}

// TestProtectedGitRewrites: each git command that rewrites the work tree
// wholesale is denied when it would change or delete the wiring, and
// passes when what it writes leaves the wiring as it is.
func TestProtectedGitRewrites(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	wiringRepo(t, g)
	p := newProtected(t, "")
	for _, tc := range []struct {
		command, hit string // hit: the path the denial names ("" passes)
	}{
		// Moving to another tree.
		{"git checkout evil", ".claude/settings.json"},
		{"git checkout feature", ""},
		{"git switch evil", ".claude/settings.json"},
		{"git switch feature", ""},
		{"git checkout -b new evil", ".claude/settings.json"},
		{"git checkout -b new", ""},
		{"git switch --orphan new", ".claude/settings.json"},
		{"git checkout evil -- .claude", ".claude/settings.json"},
		{"git checkout evil -- .", ".claude/settings.json"},
		{"git checkout feature -- .", ""},
		{"git checkout evil -- src", ""},
		{"git restore -s evil .claude", ".claude/settings.json"},
		{"git restore --source=evil .", ".claude/settings.json"},
		{"git restore --source=feature .", ""},
		{"git restore --staged .claude", ""},
		{"git reset --hard evil", ".claude/settings.json"},
		{"git reset --hard feature", ""},
		{"git reset --keep evil", ".claude/settings.json"},
		{"git reset --soft evil", ""},
		{"git read-tree -u -m evil", ".claude/settings.json"},
		{"git read-tree -m evil", ""},
		{"git read-tree -u --prefix=.claude/hooks/ feature", ".claude/hooks/.claude/settings.json"},
		{"git checkout -- .", ""},
		// Bringing commits in.
		{"git merge evil", ".claude/settings.json"},
		{"git merge feature", ""},
		{"git cherry-pick evil", ".claude/settings.json"},
		{"git cherry-pick feature", ""},
		{"git cherry-pick main..evil", ".claude/settings.json"},
		{"git cherry-pick nosuchcommit", ""}, // git fails: nothing is written
		{"git merge nosuchbranch", ""},
		{"git revert --no-edit evil", ".claude/settings.json"},
		{"git rebase evil", ".claude/settings.json"},
		{"git rebase feature", ""},
		{"git rebase --onto feature evil", ".claude/settings.json"},
		// Stashes.
		{"git stash -u", ".codex/hooks.json"},
		{"git stash --include-untracked", ".codex/hooks.json"},
		{"git stash -a", ".codex/hooks.json"},
		{"git stash -u -- src", ""},
		{"git stash", ""},
		{"git stash pop stash@{1}", ".claude/settings.json"},
		{"git stash apply 1", ".claude/settings.json"},
		{"git stash apply", ""},
		// Removing files.
		{"git sparse-checkout set src", ".claude/settings.json"},
		{"git sparse-checkout list", ""},
		{"git rm -r '*.json'", ".claude/settings.json"},
		{"git rm -r --cached '*.json'", ""},
		{"git rm README.md", ""},
		{"git clean -fX", ".claude/settings.local.json"},
		{"git clean -fx", ".codex/hooks.json"},
		{"git clean -f", ".codex/hooks.json"},
		{"git clean -f src", ""},
		{"git clean -nfx", ""},
		{"git checkout-index -a --prefix=.claude/hooks/", ".claude/hooks/.claude/settings.json"},
		{"git checkout-index -a -f", ""},
		// Patches.
		{"git apply ../evil.patch", ".claude/settings.json"},
		{"git apply -R ../evil.patch", ".claude/settings.json"},
		{"git apply ../ok.patch", ""},
		{"git apply --cached ../evil.patch", ""},
		{"git apply --stat ../evil.patch", ""},
	} {
		t.Run(tc.command, func(t *testing.T) {
			v := runProtectedBash(t, g, p, tc.command)
			if tc.hit == "" {
				if v.Decision != "" {
					t.Fatalf("denied: %s", v.Reason)
				}
				return
			}
			want := "`" + tc.command + "` would change or delete " + tc.hit + ", a protected path"
			if v.Decision != engine.Deny || !strings.Contains(v.Reason, want) {
				t.Fatalf("got %q %q, want a denial saying %q", v.Decision, v.Reason, want)
			}
		})
	}
}

// TestProtectedGitRewritesUnknown: where what a command writes cannot be
// known (a pull, a revision from $VAR, a patch on stdin, a branch an
// earlier command of the line moves), it is denied while the work tree
// holds the wiring, and passes in one that holds none.
func TestProtectedGitRewritesUnknown(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	wiringRepo(t, g)
	bare := checktest.NewGuardEnv(t)
	checktest.RealRepo(t, bare.Project, map[string]string{"README.md": "readme\n"})
	checktest.GitRun(t, bare.Project, "branch", "feature")
	p := newProtected(t, "")
	for _, tc := range []struct{ command, why string }{
		{"git pull https://example.invalid/x.git main", "is not a remote the repository names"},
		{"git pull origin $B", "the remote or branch $B cannot be known here"},
		{"git checkout $B", "the branch or path $B cannot be known here"},
		{"git reset --hard $REV", "the commit $REV cannot be known here"},
		{"git diff main evil | git apply", "the patch comes on standard input"},
		{"git am ../evil.patch", "git am applies patches from mail"},
		{"git read-tree evil && git checkout-index -f -a", "an earlier command of the same line (`git read-tree evil`)"},
		{"git reset --soft evil && git reset --hard", "an earlier command of the same line (`git reset --soft evil`)"},
		// A search of commit messages is not handed to git, which
		// backtracks through it as a regular expression.
		{"git checkout ':/((a{1000}){1000}){1000}' -- .", "the revision :/((a{1000}){1000}){1000} searches commit messages"},
		{"git reset --hard 'main^{/(.*)(.*)\\2\\1#}'", "the revision main^{/(.*)(.*)\\2\\1#} searches commit messages"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			v := runProtectedBash(t, g, p, tc.command)
			if v.Decision != engine.Deny || !strings.Contains(v.Reason, tc.why) || !strings.Contains(v.Reason, "holds .claude/settings.json, a protected path") {
				t.Fatalf("got %q %q, want a denial saying %q", v.Decision, v.Reason, tc.why)
			}
			if v := runProtectedBash(t, bare, p, tc.command); v.Decision != "" {
				t.Fatalf("in a repository without wiring: denied: %s", v.Reason)
			}
		})
	}
	// A repository that cannot be known may be any: it is denied anywhere.
	for _, env := range []*checktest.GuardEnv{g, bare} {
		for _, cmd := range []string{"git -C $D checkout feature", "cd $D && git checkout feature"} {
			if v := runProtectedBash(t, env, p, cmd); v.Decision != engine.Deny || !strings.Contains(v.Reason, "the repository it works in cannot be known here") {
				t.Errorf("%s: got %q %q", cmd, v.Decision, v.Reason)
			}
		}
	}
	// Read-only git commands earlier on the line leave the targets as they are.
	if v := runProtectedBash(t, g, p, "git status && git log -1 && git checkout feature"); v.Decision != "" {
		t.Fatalf("denied: %s", v.Reason)
	}
}

func runProtectedBash(t *testing.T, g *checktest.GuardEnv, p engine.Builtin, command string) engine.Verdict {
	t.Helper()
	v, err := p.Check(t.Context(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(command)}))
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return v
}
