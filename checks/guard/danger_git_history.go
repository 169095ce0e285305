package guard

import (
	"context"
	"fmt"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// The git-discard-changes rule: commands that overwrite or delete
// uncommitted work in the work tree, which no git command brings back.
// git checkout and git restore of paths, a forced switch (checkout -f,
// switch -f/--discard-changes), git rm -f. Each is judged on the paths it
// names, as git matches them (git status -- PATHS); a path that cannot be
// known, or a --pathspec-from-file list, is judged as the whole tree.

const (
	insteadDiscardPaths = "Commit or stash them first (git stash push -- <paths>), or ask the user; an overwritten change cannot be brought back."
	insteadDiscardForce = "Commit or stash them first (git stash), then switch without -f; git refuses to switch when it would overwrite changes."
	insteadRm           = "Commit or stash the changes first, or use git rm --cached to keep the files on disk."
)

func discardChanges(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "checkout", "switch", "restore", "rm")
	if !ok || !g.Known {
		return "", ""
	}
	for _, l := range g.Readings() {
		var what, instead string
		switch g.Sub {
		case "checkout":
			what, instead = d.checkout(ctx, c, g, l)
		case "switch":
			what, instead = d.switchForced(ctx, c, g, l)
		case "restore":
			what, instead = d.restore(ctx, c, g, l)
		case "rm":
			what, instead = d.rmForced(ctx, c, g, l)
		}
		if what != "" {
			return what, instead
		}
	}
	return "", ""
}

// pathspecs are the paths a command names; whole is true when they cannot
// all be known (a $VAR, a --pathspec-from-file list), and then the whole
// tree is judged.
type pathspecs struct {
	paths []string
	whole bool
}

func pathsOf(words []shellcmd.Word, fromFile bool) pathspecs {
	p := pathspecs{whole: fromFile}
	for _, w := range words {
		switch {
		case !w.Known:
			p.whole = true
		case w.Glob && !strings.HasPrefix(w.Value, ":"):
			// The shell expands it to the files it matches, or passes it
			// to git, where * also crosses folders: both are judged.
			p.paths = append(p.paths, w.Value, ":(glob)"+w.Value)
			continue
		}
		p.paths = append(p.paths, w.Value)
	}
	return p
}

// changed returns the status lines of the paths that keep accepts; with
// no paths, nothing is named and nothing is lost.
func (d *dangerCall) changed(ctx context.Context, c *shellcmd.Command, r hookenv.GitRepo, p pathspecs, keep func(string) bool) ([]string, bool) {
	if len(p.paths) == 0 && !p.whole {
		return nil, true
	}
	var limit []string
	if !p.whole {
		limit = p.paths
	}
	lines, err := r.Status(ctx, limit, "--untracked-files=no")
	if d.failed(c, err) {
		return nil, false
	}
	return filterStatus(lines, keep), true
}

// anyChange: a staged or unstaged change of any kind to a tracked file.
func anyChange(string) bool { return true }

// overwritten: what checking out from the index loses (unstaged
// changes), and with fromTree what checking out from a commit loses too
// (staged ones).
func overwritten(fromTree bool) func(string) bool {
	return func(l string) bool {
		return unstagedChange(l) || fromTree && stagedChange(l)
	}
}

// checkout reads git checkout as git does: with -b/-B/--orphan it makes a
// branch; with "--" or --pathspec-from-file, the operand before is a
// commit and the rest are paths; otherwise a first operand that names a
// commit is the branch to switch to (and any more are paths checked out
// from it), and one that does not is a path.
func (d *dangerCall) checkout(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	if l.On('p', "patch") {
		return "", "" // the user picks each hunk
	}
	force := l.On('f', "force")
	fromFile := len(l.Vals(0, "pathspec-from-file")) > 0
	creating := l.Has('b', "") || l.Has('B', "") || l.Has(0, "orphan")
	ops := l.Operands
	if !creating && !force && len(ops) == 0 && !fromFile {
		return "", ""
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	r := hookenv.RepoOf(g)
	if creating {
		return d.forcedSwitch(ctx, c, r, force) // -B moving a branch: git-branch-delete
	}
	var tree []shellcmd.Word
	var paths pathspecs
	switch {
	case l.DashAt >= 0 || fromFile:
		before := ops
		if l.DashAt >= 0 {
			before = ops[:l.DashAt]
			paths = pathsOf(ops[l.DashAt:], fromFile)
		} else {
			paths = pathsOf(nil, true)
			before = ops
		}
		tree = before
	case len(ops) == 0:
		return d.forcedSwitch(ctx, c, r, force)
	default:
		first := ops[0]
		isRev := false
		if first.Known {
			var err error
			if isRev, err = r.IsRev(ctx, first.Value); d.failed(c, err) {
				return "", ""
			}
		}
		switch {
		case isRev && len(ops) == 1:
			return d.forcedSwitch(ctx, c, r, force)
		case isRev:
			tree, paths = ops[:1], pathsOf(ops[1:], false)
		case !first.Known:
			// A branch or a path: judged as both, the worse first.
			tree, paths = ops[:1], pathsOf(ops, false)
		default:
			paths = pathsOf(ops, false)
		}
	}
	lines, ok := d.changed(ctx, c, r, paths, overwritten(len(tree) > 0))
	if !ok || len(lines) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would overwrite uncommitted changes to %d file(s) (%s)", quoteCmd(c), len(lines), statusPreview(lines)), insteadDiscardPaths
}

// forcedSwitch: a forced switch (checkout -f, switch -f) throws away every
// uncommitted change to tracked files.
func (d *dangerCall) forcedSwitch(ctx context.Context, c *shellcmd.Command, r hookenv.GitRepo, force bool) (string, string) {
	if !force {
		return "", ""
	}
	lines, ok := d.changed(ctx, c, r, pathspecs{whole: true}, anyChange)
	if !ok || len(lines) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would throw away uncommitted changes to %d tracked file(s) (%s)", quoteCmd(c), len(lines), statusPreview(lines)), insteadDiscardForce
}

func (d *dangerCall) switchForced(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	if !l.On('f', "force") && !l.On(0, "discard-changes") {
		return "", ""
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	return d.forcedSwitch(ctx, c, hookenv.RepoOf(g), true)
}

// restore overwrites the work tree (the default, or --worktree) from the
// index, or with --staged --worktree both from HEAD (or --source). With
// --staged alone only the index changes, and the work stays in the files.
func (d *dangerCall) restore(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	if l.On('p', "patch") {
		return "", ""
	}
	staged := l.On('S', "staged")
	if staged && !l.On('W', "worktree") {
		return "", ""
	}
	paths := pathsOf(l.Operands, len(l.Vals(0, "pathspec-from-file")) > 0)
	if len(paths.paths) == 0 && !paths.whole {
		return "", "" // git restore needs paths
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	lines, ok := d.changed(ctx, c, hookenv.RepoOf(g), paths, overwritten(staged))
	if !ok || len(lines) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would overwrite uncommitted changes to %d file(s) (%s)", quoteCmd(c), len(lines), statusPreview(lines)), insteadDiscardPaths
}

// rmForced: git rm refuses to delete a file with changes unless forced;
// --cached keeps the file on disk, -n only lists.
func (d *dangerCall) rmForced(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	if !l.On('f', "force") || l.On(0, "cached") || l.On('n', "dry-run") {
		return "", ""
	}
	paths := pathsOf(l.Operands, len(l.Vals(0, "pathspec-from-file")) > 0)
	if len(paths.paths) == 0 && !paths.whole {
		return "", ""
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	lines, ok := d.changed(ctx, c, hookenv.RepoOf(g), paths, func(l string) bool { return stagedChange(l) || unstagedChange(l) })
	if !ok || len(lines) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would delete %d file(s) with uncommitted changes for good (%s)", quoteCmd(c), len(lines), statusPreview(lines)), insteadRm
}
