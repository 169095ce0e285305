package guard

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// The git commands that rewrite the work tree wholesale (checking out
// another branch, reset --hard, merge, rebase, stash, sparse-checkout,
// apply ...) write and delete files they never name: `git checkout
// other` replaces a tracked .claude/settings.json as surely as an Edit
// would. Each is judged here on the files it would write or delete, as git
// itself lists them with read-only calls (git diff --name-only, git
// ls-files, git status), against the write list, which always holds the
// guards' wiring: the everyday `git checkout feature`, where no protected
// file differs, passes. What each command writes is modelled in
// protected_git_changes.go. When that cannot be known (a revision from
// $VAR, a pull, a patch on stdin, a branch an earlier command of the same
// line moves), the command is denied only when the work tree holds a
// protected path it could change, with what to do instead.

// maxGitNames bounds the names one command is judged on: past it, what
// the command writes is treated as unknown rather than matched for
// seconds.
const maxGitNames = 50000

// gitWrites is what a git command writes to the work tree, as git calls
// that list it.
type gitWrites struct {
	// lists are git argument lists whose NUL-separated output names, from
	// the top of the work tree, the files the command writes or deletes.
	lists []gitList
	// removesUntracked: the command deletes the untracked files within
	// the pathspecs untracked (none: all); the ignored ones too with
	// ignored, only those with onlyIgnore.
	untracked           []string
	removesUntracked    bool
	ignored, onlyIgnore bool
	// prefix, when set, is put before each listed name: the command
	// writes the files under it (checkout-index --prefix, read-tree
	// --prefix), from the top or from where git runs.
	prefix string
	// numstat: the lists are `git apply --numstat -z` outputs, whose names
	// may be read from the top or from where git runs.
	numstat bool
	// revs are the revisions the lists name: when git does not know one,
	// the command fails as well and writes nothing.
	revs []string
	// unknown says why what it writes cannot be known, and instead what to
	// do about it; anyRepo, that the repository cannot be known either.
	unknown, instead string
	anyRepo          bool
}

// gitList is one git call; optional says a failure lists nothing (git
// stash apply of an entry without untracked files has no ^3).
type gitList struct {
	args     []string
	optional bool
}

// gitFinding is what a rewrite finding says: the command, and why its
// effect on the path is known or is not.
type gitFinding struct {
	cmd     string
	unknown string
	instead string
}

// gitRewrite judges c, the command at index i of the script's commands,
// when it is a git command that rewrites the work tree.
func (g *guard) gitRewrite(ctx context.Context, cmds []*shellcmd.Command, i int) *finding {
	c := cmds[i]
	if c.Base() != "git" {
		return nil
	}
	gc, ok := c.Git("") // c.Dir: "" after a cd that cannot be known
	if !ok || gc.Help || !gitRewrites(gc.Sub) {
		return nil
	}
	r := hookenv.RepoOf(gc)
	repoKnown := gc.Dir != "" && !gc.Unknown
	if !repoKnown {
		r = hookenv.GitRepo{Dir: g.Cwd} // only to read the command's form
	}
	var worst *finding
	fetched, others := earlierFetches(cmds[:i])
	for _, l := range gc.Readings() {
		var w *gitWrites
		if len(fetched) > 0 && !others && repoKnown && (gc.Sub == "merge" || gc.Sub == "rebase") {
			// Only fetches ran before: they move remote-tracking
			// branches, which are read as the remote has them now.
			var why string
			if l, why = fetchedRevs(ctx, r, l, fetched, gc.Sub); why != "" {
				w = unknownWrites(fmt.Sprintf("an earlier command of the same line fetches, and %s", why), "Run the git fetch in a call of its own first, then this one, so what it writes can be checked.")
			} else if w = gitWritesOf(ctx, r, c, gc, l); w == nil {
				continue
			}
			if f := g.judgeWrites(ctx, r, c, w); f != nil {
				worst = f
				break
			}
			continue
		}
		w = gitWritesOf(ctx, r, c, gc, l)
		if w == nil {
			continue
		}
		if !repoKnown {
			w.unknown, w.instead, w.anyRepo = "the repository it works in cannot be known here", "Use a literal directory (cd DIR first, or git -C DIR).", true
		}
		if w.unknown == "" {
			if by := earlierGitWrite(cmds[:i]); by != "" {
				w.unknown = fmt.Sprintf("an earlier command of the same line (%s) can move the branches, HEAD or the index it reads", by)
				w.instead = "Run that command in a call of its own first, then this one, so what it writes can be checked."
			}
		}
		if f := g.judgeWrites(ctx, r, c, w); f != nil {
			worst = f
			break
		}
	}
	return worst
}

// gitRewrites says whether sub is one of the subcommands gitWritesOf models.
func gitRewrites(sub string) bool {
	switch sub {
	case "checkout", "switch", "restore", "reset", "merge", "pull",
		"rebase", "cherry-pick", "revert", "am", "apply", "stash",
		"sparse-checkout", "read-tree", "checkout-index", "rm", "clean":
		return true
	}
	return false
}

// gitReadOnly says whether sub changes no branch, HEAD or index: what an
// earlier one on the line did cannot make a later rewrite's targets stale.
func gitReadOnly(sub string) bool {
	switch sub {
	case "status", "log", "diff", "show", "ls-files", "ls-tree",
		"rev-parse", "rev-list", "cat-file", "describe", "blame",
		"grep", "shortlog", "for-each-ref", "show-ref", "merge-base",
		"name-rev", "diff-tree", "diff-index", "diff-files", "help",
		"version", "var", "check-ignore", "check-attr", "count-objects",
		"whatchanged", "config", "remote", "ls-remote", "push", "archive":
		return true
	}
	return false
}

// earlierGitWrite names the first of cmds that is a git command able to
// move a branch, HEAD or the index ("" if none): the hook judges the line
// before any of it runs, so the revisions a later command names would be
// judged as they were.
func earlierGitWrite(cmds []*shellcmd.Command) string {
	for _, c := range cmds {
		if c.Base() != "git" {
			continue
		}
		gc, ok := c.Git("")
		if !ok {
			return quoteCmd(c)
		}
		if gc.Help || gitReadOnly(gc.Sub) || gc.Sub == "stash" && (gc.Verb == "list" || gc.Verb == "show") ||
			gc.Sub == "branch" && len(gc.Line.Operands) == 0 {
			continue
		}
		return quoteCmd(c)
	}
	return ""
}

// judgeWrites runs w's git calls and judges every name they list.
func (g *guard) judgeWrites(ctx context.Context, r hookenv.GitRepo, c *shellcmd.Command, w *gitWrites) *finding {
	if w.unknown != "" {
		return g.gitUnknown(ctx, r, c, w.unknown, w.instead, w.anyRepo)
	}
	top, err := r.Lines(ctx, "rev-parse", "--show-toplevel")
	switch {
	case hookenv.NoRepo(err):
		return nil // git refuses the command as well
	case err != nil || len(top) != 1:
		return nil // no work tree (a bare repository): nothing there to write
	}
	root := top[0]
	fold := fspath.CaseInsensitive(root)
	if err := hookenv.SearchRev(w.revs...); err != nil {
		return g.gitUnknown(ctx, r, c, fmt.Sprintf("git could not be asked which files it would write: %v", err), "Name the commit by its hash, branch or tag.", false)
	}
	var names []string
	for _, l := range w.lists {
		res, err := r.Run(ctx, 16<<20, l.args...)
		if err == nil && res.ExitCode != 0 {
			if l.optional {
				continue
			}
			if !allRevs(ctx, r, w.revs) {
				return nil // git does not know a revision: the command fails too
			}
			err = fmt.Errorf("git %s failed: %s", l.args[0], strings.TrimSpace(string(res.Stderr)))
		}
		if err != nil {
			return g.gitUnknown(ctx, r, c, fmt.Sprintf("git could not list the files it would write (%v)", err), "Name the paths to change, or ask the user to run it.", false)
		}
		names = append(names, splitNames(string(res.Stdout), w.numstat)...)
		if len(names) > maxGitNames {
			return g.gitUnknown(ctx, r, c, fmt.Sprintf("it would write more than %d files, too many to check one by one", maxGitNames), "Name the paths to change, or ask the user to run it.", false)
		}
	}
	if w.removesUntracked {
		args := []string{"status", "--porcelain", "-z", "--untracked-files=all"}
		if w.ignored || w.onlyIgnore {
			args = append(args, "--ignored=matching")
		}
		lines, err := r.Run(ctx, 16<<20, append(append(args, "--"), w.untracked...)...)
		if err != nil || lines.ExitCode != 0 {
			return g.gitUnknown(ctx, r, c, "git could not list the untracked files it would delete", "Name the paths to change, or ask the user to run it.", false)
		}
		for _, e := range strings.Split(string(lines.Stdout), "\x00") {
			if len(e) < 4 {
				continue
			}
			if e[:3] == "?? " && !w.onlyIgnore || e[:3] == "!! " && (w.ignored || w.onlyIgnore) {
				names = append(names, e[3:])
			}
		}
	}
	bases := []string{root}
	if (w.prefix != "" || w.numstat) && c.Dir != "" {
		bases = append(bases, c.Dir)
	}
	for _, name := range names {
		for _, base := range bases {
			if f := g.gitName(base, w.prefix+name, fold); f != nil {
				f.git = &gitFinding{cmd: quoteCmd(c)}
				return f
			}
		}
	}
	return nil
}

// splitNames splits git's NUL-separated output into names. `git log
// --format= --name-only -z` puts a newline before each commit's names;
// `git apply --numstat -z` a count before each, and for a rename an empty
// name followed by both.
func splitNames(out string, numstat bool) []string {
	var names []string
	for _, f := range strings.Split(out, "\x00") {
		f = strings.TrimLeft(f, "\n")
		if numstat {
			if i := strings.LastIndexByte(f, '\t'); i >= 0 {
				f = f[i+1:]
			}
		}
		if f != "" {
			names = append(names, f)
		}
	}
	return names
}

// allRevs reports whether git knows every one of revs, and each end of
// a range (A..B, A...B, ^A).
func allRevs(ctx context.Context, r hookenv.GitRepo, revs []string) bool {
	for _, rev := range revs {
		for _, end := range strings.Split(strings.ReplaceAll(strings.TrimPrefix(rev, "^"), "...", ".."), "..") {
			if end == "" {
				continue
			}
			if ok, err := r.HasRev(ctx, end); err == nil && !ok {
				return false
			}
		}
	}
	return true
}

// gitName judges one name git would write below base: a file against the
// write list, a folder (git status names an untracked folder whole) by
// the protected paths inside it. git writes the name itself, never
// through a symlink at its end, so the name is matched as written.
func (g *guard) gitName(base, name string, fold bool) *finding {
	abs := filepath.Join(base, filepath.FromSlash(name))
	if strings.HasSuffix(name, "/") {
		for _, l := range g.literalStarts() {
			if fspath.Within(l.path, abs, fold) || fspath.Within(l.real, abs, fold) {
				return &finding{path: g.Project.Display(fspath.Path{Lexical: abs}), write: true, pattern: l.pattern, holds: g.Project.Display(fspath.Path{Lexical: l.path})}
			}
		}
		return nil
	}
	forms := []string{abs}
	if rel, ok := g.Project.Relative(abs, fold); ok {
		forms = []string{rel, abs}
	}
	for _, form := range forms {
		if pat := g.protects(g.writes(), form, fold); pat != "" {
			return &finding{path: g.Project.Display(fspath.Path{Lexical: abs}), write: true, pattern: pat}
		}
	}
	return nil
}

// gitUnknown is the finding for a command whose writes cannot be known: a
// denial when the repository tracks a protected path with a literal name
// (the wiring has one), which the command could change or delete. What
// the repository does not track, git writes only when the command brings
// it in as a new tracked file: see docs/guards-git-rewrites.md.
func (g *guard) gitUnknown(ctx context.Context, r hookenv.GitRepo, c *shellcmd.Command, why, instead string, anyRepo bool) *finding {
	deny := func(l literal) *finding {
		return &finding{path: g.Project.Display(fspath.Path{Lexical: l.path}), write: true, pattern: l.pattern,
			git: &gitFinding{cmd: quoteCmd(c), unknown: why, instead: instead}}
	}
	var top []string
	var err error
	if !anyRepo {
		top, err = r.Lines(ctx, "rev-parse", "--show-toplevel")
	}
	if hookenv.NoRepo(err) {
		return nil
	}
	if anyRepo || err != nil || len(top) != 1 {
		// Which repository cannot be told: any protected path counts.
		if lits := g.literalStarts(); len(lits) > 0 {
			return deny(lits[0])
		}
		return nil
	}
	root := top[0]
	fold := fspath.CaseInsensitive(root)
	var inside []literal
	var rels []string
	for _, l := range g.literalStarts() {
		rel, ok := fspath.Rel(l.path, root, fold)
		if !ok {
			if rel, ok = fspath.Rel(l.real, root, fold); !ok {
				continue
			}
		}
		inside, rels = append(inside, l), append(rels, ":(top,literal)"+rel)
	}
	if len(inside) == 0 {
		return nil
	}
	res, err := r.Run(ctx, 16<<20, append([]string{"ls-files", "-z", "--full-name", "--"}, rels...)...)
	if err != nil || res.ExitCode != 0 {
		return deny(inside[0]) // what the repository tracks cannot be told: fail closed
	}
	for _, n := range strings.Split(string(res.Stdout), "\x00") {
		if n == "" {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(n))
		for _, l := range inside {
			if fspath.Within(p, l.path, fold) || fspath.Within(p, l.real, fold) {
				return deny(l)
			}
		}
	}
	return nil
}

// gitReason is the denial of a finding of gitRewrite.
func gitReason(f *finding) string {
	if f.git.unknown != "" {
		return fmt.Sprintf("⚠️ BLOCKED: what %s would write to the work tree cannot be checked: %s, and the work tree holds %s, a protected path (rule %q) it could change or delete. %s",
			f.git.cmd, f.git.unknown, f.path, f.pattern, f.git.instead)
	}
	what := f.path
	if f.holds != "" {
		what = fmt.Sprintf("%s, which holds %s", f.path, f.holds)
	}
	return fmt.Sprintf("⚠️ BLOCKED: %s would change or delete %s, a protected path (rule %q), without naming it. Leave it as it is: bring over only the paths you need (git restore --source=REV -- PATH), or ask the user to run it.",
		f.git.cmd, what, f.pattern)
}

// revOf is the revision git reads for an operand: "-" is the branch
// checked out before (@{-1}).
func revOf(w shellcmd.Word) string {
	if w.Value == "-" {
		return "@{-1}"
	}
	return w.Value
}

// knownAll reports whether every word is known, and the first that is not.
func knownAll(words []shellcmd.Word) (shellcmd.Word, bool) {
	i := slices.IndexFunc(words, func(w shellcmd.Word) bool { return !w.Known })
	if i < 0 {
		return shellcmd.Word{}, true
	}
	return words[i], false
}

// earlierFetches are the remotes that plain `git fetch` commands among
// cmds fetch (those that only move remote-tracking branches: no refspec
// into a local branch, no --refmap or --update-head-ok); others says a
// git command that may move anything else comes among them too.
func earlierFetches(cmds []*shellcmd.Command) (remotes []string, others bool) {
	for _, c := range cmds {
		if c.Base() != "git" {
			continue
		}
		gc, ok := c.Git("")
		if !ok {
			return remotes, true
		}
		if gc.Sub != "fetch" {
			if earlierGitWrite([]*shellcmd.Command{c}) != "" {
				others = true
			}
			continue
		}
		l := gc.Readings()[0]
		if _, known := knownAll(l.Operands); !known || len(l.Operands) > 1 || l.Has(0, "refmap") ||
			l.Has('u', "update-head-ok") || l.Unknown() || gc.Dir == "" || gc.Unknown || len(gc.Repo) > 0 {
			others = true
			continue
		}
		switch {
		case l.On(0, "all"):
			remotes = append(remotes, "*")
		case len(l.Operands) == 1 && l.Operands[0].Value != ".":
			remotes = append(remotes, l.Operands[0].Value)
		case len(l.Operands) == 0:
			remotes = append(remotes, "") // the current branch's remote, or origin
		default:
			others = true
		}
	}
	return remotes, others
}

// fetchedRevs returns l with each revision that names a remote-tracking
// branch of a fetched remote (origin/main, refs/remotes/origin/main, or
// the upstream when a merge or rebase names none) replaced by the commit
// the remote has it at, which the fetch brings. why says when that cannot
// be told, or the commit is not here yet.
func fetchedRevs(ctx context.Context, r hookenv.GitRepo, l shellcmd.Line, fetched []string, sub string) (shellcmd.Line, string) {
	if sub == "rebase" && (len(l.Vals(0, "onto")) > 0 || l.On(0, "continue") || l.On(0, "abort") || l.On(0, "skip") || l.On(0, "root")) {
		return l, "what it rebases onto is not read here"
	}
	if sub == "merge" && (l.On(0, "abort") || l.On(0, "continue") || l.On(0, "quit")) {
		return l, ""
	}
	head, _ := r.HeadRef(ctx)
	branch := strings.TrimPrefix(head, "refs/heads/")
	remoteOf := func(name string) bool { // whether the line fetched remote name
		for _, f := range fetched {
			if f == "*" || f == name {
				return true
			}
			if f == "" {
				cur := r.Config(ctx, "branch."+branch+".remote")
				if len(cur) > 0 && cur[len(cur)-1] == name || len(cur) == 0 && name == "origin" {
					return true
				}
			}
		}
		return false
	}
	ops := slices.Clone(l.Operands)
	if len(ops) == 0 {
		rem, merges := r.Config(ctx, "branch."+branch+".remote"), r.Config(ctx, "branch."+branch+".merge")
		if branch == "" || len(rem) == 0 || len(merges) == 0 || !remoteOf(rem[len(rem)-1]) {
			return l, "" // no upstream, or one the fetch does not move
		}
		ops = []shellcmd.Word{{Value: rem[len(rem)-1] + "/" + strings.TrimPrefix(merges[0], "refs/heads/"), Known: true}}
	}
	for i, op := range ops {
		if !op.Known {
			continue // judged as unknown by the command's own reading
		}
		v := op.Value
		if v == "FETCH_HEAD" {
			return l, "FETCH_HEAD is what it fetches"
		}
		name, rest, ok := strings.Cut(strings.TrimPrefix(v, "refs/remotes/"), "/")
		if !ok || !remoteOf(name) {
			continue
		}
		if !slices.Contains(r.Config(ctx, "remote."+name+".fetch"), "+refs/heads/*:refs/remotes/"+name+"/*") {
			return l, fmt.Sprintf("the remote %s's branches are fetched in a way not read here", name)
		}
		tip, found, why := r.RemoteTip(ctx, name, "refs/heads/"+rest)
		switch {
		case why != "":
			return l, why
		case !found:
			continue // the fetch leaves it as it is
		}
		ops[i] = shellcmd.Word{Raw: op.Raw, Value: tip, Known: true}
	}
	l.Operands = ops
	return l, ""
}
