package guard

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// deleteUncommitted: deleting a folder whose tracked files hold
// uncommitted changes (rm -r, find -delete inside the project) throws away
// work that git cannot give back, as git reset --hard would, and the
// command names only the folder, not the work in it. Committed files can
// be restored with git, and untracked or ignored ones (build output, the
// agent's own scratch files) are the agent's to remove, so only tracked
// changes count. A file named on its own (rm file.txt) is the agent's
// stated choice, and passes.
func deleteUncommitted(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	if shellcmd.IsGit(c.Base()) {
		return "", "" // git rm: git-discard-changes knows -f, --cached and its pathspecs
	}
	for _, e := range c.Effects() {
		w := e.Path
		if e.Op != shellcmd.Delete || !e.Tree || !w.Known || w.Value == "" || w.Glob {
			continue
		}
		// rm removes a symlink itself: only the folders above it are followed.
		rp := d.paths.ResolveNoFollow(w.Value, d.dir(c))
		if !d.Project.contains(rp.Real, rp.Fold) || rp.Real == d.Project.real {
			continue // outside, or the project itself: the recursive-delete rule's
		}
		if !rp.Exists() {
			continue // nothing there to lose
		}
		dir := filepath.Dir(rp.Real)
		lines, err := hookenv.GitStatus(ctx, dir, "--untracked-files=no", "--", rp.Real)
		if d.failed(c, err) {
			continue
		}
		if len(lines) > 0 {
			return fmt.Sprintf("%s would delete uncommitted changes to %d tracked file(s) (%s)", quoteCmd(c), len(lines), statusPreview(lines)),
				"Commit or stash them first (git stash), or ask the user before deleting work that is not committed."
		}
	}
	return "", ""
}
