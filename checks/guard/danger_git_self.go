package guard

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// Branches moved through the repository itself: a push or fetch whose
// remote is the repository (git push . :feature, git push -f . main:feature,
// git fetch . +main:feature) deletes or moves its own branches as git
// branch -D and git branch -f do, and git worktree add -B NAME moves NAME
// as git checkout -B does. Each is judged as those are (git-branch-delete):
// denied when the branch has commits nothing else keeps.

// selfRefs judges git push and git fetch to the repository itself.
func (d *dangerCall) selfRefs(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	if len(l.Operands) < 2 || l.On('n', "dry-run") {
		return "", ""
	}
	remote := l.Operands[0]
	if remote.Known && !pathLike(remote.Value) {
		return "", "" // a configured remote's name, or a URL
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	if !remote.Known {
		return unknownWord(c, remote, "the remote")
	}
	r := hookenv.RepoOf(g)
	if !d.isSelf(ctx, r, g.Dir, remote.Value) {
		return "", ""
	}
	force := l.On('f', "force") || g.Sub == "push" && l.On(0, "force-with-lease")
	del := g.Sub == "push" && l.On('d', "delete")
	for _, spec := range l.Operands[1:] {
		if !spec.Known {
			return unknownWord(c, spec, "the refspec")
		}
		v := spec.Value
		plus := strings.HasPrefix(v, "+")
		v = strings.TrimPrefix(v, "+")
		src, dst, hasColon := strings.Cut(v, ":")
		switch {
		case del:
			dst, src = v, ""
		case !hasColon:
			if g.Sub == "fetch" {
				continue // fetched into FETCH_HEAD only
			}
			dst = src
		}
		if dst == "" || src != "" && !force && !plus {
			continue // git refuses to move a branch where it is not a fast-forward
		}
		name := dst
		if !strings.HasPrefix(name, "refs/") {
			name = "refs/heads/" + name
		}
		var keep []string
		if src != "" {
			keep = []string{src}
		}
		if what, instead := d.lostRefs(ctx, c, r, []string{name}, keep, insteadBranch); what != "" {
			return what, instead
		}
	}
	return "", ""
}

// pathLike reports whether a remote is a local path, as git reads it: not
// a configured remote's name (no "/" and not ".") nor a URL (scheme://,
// or host:path before any "/").
func pathLike(remote string) bool {
	if remote == "." || remote == ".." {
		return true
	}
	slash := strings.IndexByte(remote, '/')
	colon := strings.IndexByte(remote, ':')
	return slash >= 0 && (colon < 0 || colon > slash)
}

// isSelf reports whether remote names the repository the command works
// in: "." or a path to its work tree or git directory.
func (d *dangerCall) isSelf(ctx context.Context, r hookenv.GitRepo, dir, remote string) bool {
	if remote == "." {
		return true
	}
	p := remote
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	ours, err := r.Lines(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil || len(ours) != 1 {
		return false
	}
	theirs, err := hookenv.GitRepo{Dir: p}.Lines(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil || len(theirs) != 1 {
		return false
	}
	return filepath.Clean(ours[0]) == filepath.Clean(theirs[0])
}
