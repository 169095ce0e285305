package guard

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// The rules for what git keeps besides the work tree: branches (deleted or
// moved with commits nothing else has), stash entries, other worktrees,
// reflogs and unreachable objects (expired and pruned), and history
// rewrites.

const insteadBranch = "Merge or push the branch first, or delete it with git branch -d, which refuses to lose unmerged commits; ask the user if it really should go."

func branchDelete(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "branch", "update-ref", "checkout", "switch", "push", "fetch", "worktree")
	if !ok || !g.Known {
		return "", ""
	}
	for _, l := range g.Readings() {
		var what, instead string
		switch g.Sub {
		case "branch":
			what, instead = d.branch(ctx, c, g, l)
		case "update-ref":
			what, instead = d.updateRef(ctx, c, g, l)
		case "checkout":
			what, instead = d.resetBranchFlag(ctx, c, g, l, 'B', "", l.Operands)
		case "switch":
			what, instead = d.resetBranchFlag(ctx, c, g, l, 'C', "force-create", l.Operands)
		case "push", "fetch":
			what, instead = d.selfRefs(ctx, c, g, l)
		case "worktree":
			if g.Verb == "add" && len(l.Operands) > 0 {
				what, instead = d.resetBranchFlag(ctx, c, g, l, 'B', "", l.Operands[1:])
			}
		}
		if what != "" {
			return what, instead
		}
	}
	return "", ""
}

// branch judges the forms that lose a branch's commits: -D (or -d with
// --force) deletes branches even when unmerged; -f moves an existing
// branch (git branch -f NAME START); -M and -C (or -m, -c with --force)
// overwrite an existing target. git branch -d alone is git's own safe
// form, and -r deletes remote-tracking branches, which the remote keeps.
func (d *dangerCall) branch(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	force := l.On('f', "force")
	ops := l.Operands
	switch {
	case l.On('r', "remotes"), l.On('l', "list"):
		return "", ""
	case l.Has('D', "") || l.On('d', "delete") && force:
		return d.dropBranches(ctx, c, g, ops, nil)
	case l.Has('d', "delete"):
		return "", ""
	case l.Has('M', "") || l.Has('C', "") || (l.On('m', "move") || l.On('c', "copy")) && force:
		if len(ops) == 0 {
			return "", ""
		}
		// git branch -M [OLD] NEW: NEW is overwritten with OLD (HEAD's branch).
		from := shellcmd.Word{Value: "HEAD", Known: true}
		if len(ops) > 1 {
			from = ops[0]
		}
		return d.dropBranches(ctx, c, g, ops[len(ops)-1:], &from)
	case force:
		if len(ops) == 0 {
			return "", ""
		}
		start := shellcmd.Word{Value: "HEAD", Known: true}
		if len(ops) > 1 {
			start = ops[1]
		}
		return d.dropBranches(ctx, c, g, ops[:1], &start)
	}
	return "", ""
}

// resetBranchFlag judges git checkout -B NAME [START] and git switch -C
// NAME [START], which move NAME to START when it exists.
func (d *dangerCall) resetBranchFlag(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line, short byte, long string, ops []shellcmd.Word) (string, string) {
	names := l.Vals(short, long)
	if len(names) == 0 {
		return "", ""
	}
	start := shellcmd.Word{Value: "HEAD", Known: true}
	if len(ops) > 0 {
		start = ops[0]
	}
	return d.dropBranches(ctx, c, g, names[len(names)-1:], &start)
}

// dropBranches denies deleting (to == nil) or moving to *to the branches
// names when commits only they have would be lost. A branch that does not
// exist loses nothing.
func (d *dangerCall) dropBranches(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, names []shellcmd.Word, to *shellcmd.Word) (string, string) {
	if len(names) == 0 {
		return "", ""
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	var refs []string
	for _, n := range names {
		if !n.Known || n.Glob {
			return unknownWord(c, n, "the branch")
		}
		refs = append(refs, "refs/heads/"+strings.TrimPrefix(n.Value, "refs/heads/"))
	}
	var keep []string
	if to != nil {
		if !to.Known {
			return unknownWord(c, *to, "the commit")
		}
		keep = []string{to.Value}
	}
	return d.lostRefs(ctx, c, hookenv.RepoOf(g), refs, keep, insteadBranch)
}

// lostRefs denies dropping refs (moving them to keep, or deleting them)
// when commits only they have would be lost.
func (d *dangerCall) lostRefs(ctx context.Context, c *shellcmd.Command, r hookenv.GitRepo, refs, keep []string, instead string) (string, string) {
	existing, err := r.ExistingRefs(ctx, refs)
	if d.failed(c, err) || len(existing) == 0 {
		return "", ""
	}
	n, bad, err := r.LostCommits(ctx, existing, keep, existing, false)
	if d.failed(c, err) || bad || n == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would lose %d commit(s) that no other branch, tag or remote has (only the reflog would remember them)", quoteCmd(c), n), instead
}

// updateRef judges git update-ref -d REF and git update-ref REF NEW: the
// plumbing forms of deleting and moving a branch. --stdin reads what to
// change from its input, which cannot be checked.
func (d *dangerCall) updateRef(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	if l.On(0, "stdin") {
		return fmt.Sprintf("%s reads the refs to change from its input, so what it would delete cannot be checked", quoteCmd(c)), "Use git branch or git update-ref REF NEW with the refs named."
	}
	ops := l.Operands
	if len(ops) == 0 {
		return "", ""
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	ref := ops[0]
	if !ref.Known {
		return unknownWord(c, ref, "the ref")
	}
	if ref.Value == "refs/stash" {
		return d.stashGone(ctx, c, hookenv.RepoOf(g), nil, true)
	}
	var keep []string
	if !l.Has('d', "") {
		if len(ops) < 2 {
			return "", ""
		}
		if !ops[1].Known {
			return unknownWord(c, ops[1], "the commit")
		}
		keep = []string{ops[1].Value}
	}
	return d.lostRefs(ctx, c, hookenv.RepoOf(g), []string{ref.Value}, keep, insteadBranch)
}

const insteadStash = "Apply it first (git stash pop, or git stash branch NAME), or ask the user."

func stashDrop(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "stash")
	if !ok || (g.Verb != "drop" && g.Verb != "clear") {
		return "", ""
	}
	if !g.Known || g.Line.Unknown() {
		// Unknown options: git refuses them, but which entry goes cannot be told.
		return fmt.Sprintf("%s gives git stash %s an option it does not know, so which entry it drops cannot be checked", quoteCmd(c), g.Verb), insteadStash
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	var entry *shellcmd.Word
	if g.Verb == "drop" && len(g.Line.Operands) > 0 {
		entry = &g.Line.Operands[0]
	}
	return d.stashGone(ctx, c, hookenv.RepoOf(g), entry, g.Verb == "clear")
}

// stashGone denies dropping a stash entry that exists: entry names it
// (stash@{0} when nil), and all means every entry (git stash clear). A
// dropped entry is found again only among unreachable commits, until they
// are pruned.
func (d *dangerCall) stashGone(ctx context.Context, c *shellcmd.Command, r hookenv.GitRepo, entry *shellcmd.Word, all bool) (string, string) {
	if all || entry != nil && !entry.Known {
		entries, err := r.Lines(ctx, "stash", "list", "--format=%gd")
		if d.failed(c, err) || len(entries) == 0 {
			return "", ""
		}
		if all {
			return fmt.Sprintf("%s would delete %d stash entr(y/ies) for good (%s)", quoteCmd(c), len(entries), preview(entries)), insteadStash
		}
		return fmt.Sprintf("%s would delete one of the %d stash entr(y/ies) for good, and %s cannot be known here", quoteCmd(c), len(entries), entry.Raw), insteadStash
	}
	name := "stash@{0}"
	if entry != nil {
		name = entry.Value
		if isDigits(name) {
			name = "stash@{" + name + "}"
		}
	}
	exists, err := r.HasRev(ctx, name)
	if d.failed(c, err) || !exists {
		return "", ""
	}
	return fmt.Sprintf("%s would delete the stash entry %s for good", quoteCmd(c), name), insteadStash
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// preview names the first three of items.
func preview(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s, and %d more", strings.Join(items[:3], ", "), len(items)-3)
}

func worktreeRemove(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "worktree")
	if !ok || g.Verb != "remove" || !g.Known {
		return "", ""
	}
	l := g.Line
	if !l.On('f', "force") && !l.Unknown() {
		return "", "" // git refuses to remove a worktree with changes
	}
	if len(l.Operands) == 0 {
		return "", ""
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	w := l.Operands[0]
	if !w.Known {
		return unknownWord(c, w, "the worktree")
	}
	dir := w.Value
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(g.Dir, dir)
	}
	if hookenv.NearestDotGit(dir) == "" {
		return "", "" // no worktree there: git fails
	}
	lines, err := hookenv.GitRepo{Dir: dir}.Status(ctx, nil, "--untracked-files=all")
	if d.failed(c, err) || len(lines) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would delete %d uncommitted or untracked file(s) in %s for good (%s)", quoteCmd(c), len(lines), w.Raw, statusPreview(lines)),
		"Commit or stash them in that worktree first; without --force git refuses to remove a worktree with changes."
}

const insteadExpire = "Leave the reflog and git's default expiry alone: they are how lost work is found again (git reflog, git fsck --lost-found)."

// expireReflog judges the commands that make lost work unrecoverable:
// git reflog expire with an explicit expiry (the defaults keep 90 and 30
// days), git reflog delete, git gc --prune=DATE, and git prune (which by
// default prunes every unreachable object, whatever its age).
func expireReflog(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "reflog", "gc", "prune")
	if !ok || !g.Known {
		return "", ""
	}
	l := g.Line
	reflogs := false // the reflogs' own entries go
	stash := false   // and the stash's, which is a reflog: git stash list empties
	switch g.Sub {
	case "reflog":
		switch {
		case g.Verb == "delete" && !l.On(0, "dry-run"):
			for _, e := range l.Operands {
				if e.Known && (strings.HasPrefix(e.Value, "stash@{") || strings.HasPrefix(e.Value, "refs/stash@{")) {
					if g.Dir == "" || g.Unknown {
						return unknownRepo(c, g)
					}
					return d.stashGone(ctx, c, hookenv.RepoOf(g), &e, false)
				}
			}
			reflogs = true
		case g.Verb == "expire" && !l.On(0, "dry-run") &&
			(len(l.Vals(0, "expire")) > 0 || len(l.Vals(0, "expire-unreachable")) > 0 || l.Unknown()):
			reflogs = true
			stash = len(l.Vals(0, "expire")) > 0 && (l.On(0, "all") || slices.ContainsFunc(l.Operands, func(w shellcmd.Word) bool {
				return !w.Known || w.Value == "refs/stash" || w.Value == "stash"
			}))
		default:
			return "", ""
		}
	case "gc":
		if !pruneNow(l.Vals(0, "prune"), g.Config, "gc.pruneexpire") && !configSet(g.Config, "gc.reflogexpire", "gc.reflogexpireunreachable") {
			return "", ""
		}
		reflogs = configSet(g.Config, "gc.reflogexpire", "gc.reflogexpireunreachable")
		stash = configSet(g.Config, "gc.reflogexpire")
	case "prune":
		if l.On('n', "dry-run") {
			return "", ""
		}
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	r := hookenv.RepoOf(g)
	if reflogs {
		n, err := r.ReflogOnlyCommits(ctx)
		if d.failed(c, err) {
			return "", ""
		}
		if n > 0 {
			return fmt.Sprintf("%s would expire the reflog entries of %d commit(s) that nothing else keeps (dropped branches, reset commits, older stash entries), so they could no longer be found", quoteCmd(c), n), insteadExpire
		}
		if stash {
			entries, err := r.Lines(ctx, "stash", "list", "--format=%gd")
			if d.failed(c, err) {
				return "", ""
			}
			if len(entries) > 0 {
				return fmt.Sprintf("%s would empty the stash list (%d entr(y/ies): %s)", quoteCmd(c), len(entries), preview(entries)), insteadExpire
			}
		}
		if g.Sub == "reflog" {
			return "", ""
		}
	}
	n, err := r.UnreachableCommits(ctx)
	if d.failed(c, err) || n == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would delete %d unreachable commit(s) for good (dropped stashes, deleted branches), which can still be recovered now", quoteCmd(c), n), insteadExpire
}

// pruneNow reports whether gc prunes earlier than its default: an
// explicit --prune=DATE, or gc.pruneExpire set on the command line.
func pruneNow(vals []shellcmd.Word, config []shellcmd.Word, key string) bool {
	for _, v := range vals {
		if !v.Known || v.Value != "never" {
			return true
		}
	}
	return configSet(config, key)
}

// configSet reports whether -c sets one of keys (lower case).
func configSet(config []shellcmd.Word, keys ...string) bool {
	for _, w := range config {
		name, _, _ := strings.Cut(w.Value, "=")
		for _, k := range keys {
			if strings.EqualFold(name, k) {
				return true
			}
		}
	}
	return false
}

func filterBranch(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "filter-branch", "filter-repo")
	if !ok {
		return "", ""
	}
	for _, a := range g.Args {
		if a.Known && (a.Value == "--help" || a.Value == "-h" || g.Sub == "filter-repo" && (a.Value == "--analyze" || a.Value == "--dry-run")) {
			return "", ""
		}
	}
	return fmt.Sprintf("%s rewrites every commit of the branches it works on", quoteCmd(c)),
		"History rewrites need a human: ask the user."
}
