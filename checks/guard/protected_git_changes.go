package guard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// What each git command writes to the work tree, as the git calls that
// list it (see protected_git.go). A command that only changes the index or
// the branches writes nothing here: what a later command brings from them
// into the work tree is judged when it runs. The listing is a superset
// where git's own answer depends on what it meets (a merge's conflicts, a
// rebase's dropped commits): every file a side of it changes counts.

// diffNames is git diff listing names only, from the top, whatever the
// user's configuration says (diff.relative, external diff drivers).
var diffNames = []string{"diff", "--name-only", "-z", "--no-renames", "--no-relative", "--no-ext-diff", "--no-color"}

// toWorktree lists the files where the work tree differs from rev ("":
// the index) within paths: what restoring them from rev rewrites.
func toWorktree(rev string, paths []string) gitList {
	args := append([]string{}, diffNames...)
	if rev != "" {
		args = append(args, "--end-of-options", rev)
	}
	return gitList{args: append(append(args, "--"), paths...)}
}

// between lists the files that differ between two revisions (a...b: from
// their merge base to b).
func between(a, b string, paths []string) gitList {
	args := append(append([]string{}, diffNames...), "--end-of-options", a)
	if b != "" {
		args = append(args, b)
	}
	return gitList{args: append(append(args, "--"), paths...)}
}

// changedBy lists the files the commits revs change (each commit alone,
// or every commit of a range), against every parent of a merge.
func changedBy(revs []string) gitList {
	args := []string{"log", "--format=", "--name-only", "-z", "--no-renames", "-m", "--no-walk=unsorted", "--end-of-options"}
	return gitList{args: append(append(args, revs...), "--")}
}

// tracked lists the tracked files within paths.
func tracked(paths []string) gitList {
	return gitList{args: append([]string{"ls-files", "-z", "--full-name", "--"}, paths...)}
}

// specs are the pathspecs words name; nil (the whole tree) when one
// cannot be known.
func specs(words []shellcmd.Word, fromFile bool) []string {
	p := pathsOf(words, fromFile)
	if p.whole {
		return nil
	}
	return p.paths
}

func unknownWrites(why, instead string) *gitWrites {
	return &gitWrites{unknown: why, instead: instead}
}

const insteadLiteral = "Name it literally."

// gitWritesOf models what gc (read as l) writes to the work tree; nil when
// it writes nothing there.
func gitWritesOf(ctx context.Context, r hookenv.GitRepo, c *shellcmd.Command, gc shellcmd.Git, l shellcmd.Line) *gitWrites {
	if gc.Sub == "sparse-checkout" {
		if gc.Verb == "list" || gc.Verb == "check-rules" || gc.Verb == "" {
			return nil
		}
		// Which tracked files leave or come back depends on the patterns:
		// every tracked file counts.
		return &gitWrites{lists: []gitList{tracked(nil)}}
	}
	if !gc.Known {
		return nil
	}
	switch gc.Sub {
	case "checkout":
		return checkoutWrites(ctx, r, l)
	case "switch":
		return switchWrites(l)
	case "restore":
		return restoreWrites(l)
	case "reset":
		return resetWrites(l)
	case "merge":
		return mergeWrites(l)
	case "pull":
		return pullWrites(ctx, r, l)
	case "rebase":
		return rebaseWrites(ctx, r, l)
	case "cherry-pick", "revert":
		return pickWrites(ctx, r, gc.Sub, l)
	case "am":
		if l.On(0, "quit") || l.Has(0, "show-current-patch") {
			return nil
		}
		return unknownWrites("git am applies patches from mail, which are not read here",
			"Apply the patch with git apply FILE (what it changes can be checked), then commit it.")
	case "apply":
		return applyWrites(c, l)
	case "stash":
		return stashWrites(gc.Verb, l)
	case "read-tree":
		return readTreeWrites(l)
	case "checkout-index":
		return checkoutIndexWrites(l)
	case "rm":
		if l.On(0, "cached") || l.On('n', "dry-run") {
			return nil
		}
		return &gitWrites{lists: []gitList{tracked(specs(l.Operands, len(l.Vals(0, "pathspec-from-file")) > 0))}}
	case "clean":
		if l.On('n', "dry-run") || l.On('i', "interactive") {
			return nil
		}
		// Without -f git refuses, unless clean.requireForce is off: judged
		// as deleting either way.
		return &gitWrites{removesUntracked: true, untracked: specs(l.Operands, false),
			ignored: l.Has('x', ""), onlyIgnore: l.Has('X', "") && !l.Has('x', "")}
	}
	return nil
}

// checkoutWrites reads git checkout as the git-discard-changes rule does
// (see checkout there): a branch to switch to, or paths from a commit or
// the index.
func checkoutWrites(ctx context.Context, r hookenv.GitRepo, l shellcmd.Line) *gitWrites {
	force := l.On('f', "force")
	fromFile := len(l.Vals(0, "pathspec-from-file")) > 0
	ops := l.Operands
	if l.Has('b', "") || l.Has('B', "") || l.Has(0, "orphan") {
		start := shellcmd.Word{Value: "HEAD", Known: true}
		if len(ops) > 0 {
			start = ops[0]
		}
		return switchTo(start, force)
	}
	switch {
	case l.DashAt >= 0 || fromFile:
		before, paths := ops, []shellcmd.Word(nil)
		if l.DashAt >= 0 {
			before, paths = ops[:l.DashAt], ops[l.DashAt:]
		}
		if len(before) == 0 {
			return &gitWrites{lists: []gitList{toWorktree("", specs(paths, fromFile))}}
		}
		return fromRev(before[0], specs(paths, fromFile))
	case len(ops) == 0:
		if force {
			return &gitWrites{lists: []gitList{toWorktree("HEAD", nil)}}
		}
		return nil
	}
	first := ops[0]
	if !first.Known {
		return unknownWrites(fmt.Sprintf("the branch or path %s cannot be known here", first.Raw), insteadLiteral)
	}
	isRev, err := r.IsRev(ctx, revOf(first))
	if err != nil {
		return unknownWrites(fmt.Sprintf("git could not tell whether %s is a branch (%v)", first.Raw, err), insteadLiteral)
	}
	switch {
	case isRev && len(ops) == 1:
		return switchTo(first, force)
	case isRev:
		return fromRev(first, specs(ops[1:], false))
	}
	return &gitWrites{lists: []gitList{toWorktree("", specs(ops, false))}}
}

// fromRev: paths brought from a commit into the work tree.
func fromRev(rev shellcmd.Word, paths []string) *gitWrites {
	if !rev.Known {
		return unknownWrites(fmt.Sprintf("the commit %s cannot be known here", rev.Raw), insteadLiteral)
	}
	return &gitWrites{lists: []gitList{toWorktree(revOf(rev), paths)}, revs: []string{revOf(rev)}}
}

// switchTo: moving the work tree to rev. git carries local changes over
// and rewrites only the files that differ between HEAD and rev; forced,
// it makes every file rev's.
func switchTo(rev shellcmd.Word, force bool) *gitWrites {
	if !rev.Known {
		return unknownWrites(fmt.Sprintf("the branch %s cannot be known here", rev.Raw), insteadLiteral)
	}
	to := revOf(rev)
	if force {
		return &gitWrites{lists: []gitList{toWorktree(to, nil)}, revs: []string{to}}
	}
	return &gitWrites{lists: []gitList{between("HEAD", to, nil)}, revs: []string{to}}
}

func switchWrites(l shellcmd.Line) *gitWrites {
	force := l.On('f', "force") || l.On(0, "discard-changes")
	ops := l.Operands
	if l.Has(0, "orphan") {
		return &gitWrites{lists: []gitList{tracked(nil)}} // an empty tree: every tracked file goes
	}
	creating := l.Has('c', "create") || l.Has('C', "force-create")
	switch {
	case len(ops) > 0:
		return switchTo(ops[0], force)
	case creating:
		return switchTo(shellcmd.Word{Value: "HEAD", Known: true}, force)
	}
	return nil
}

// restoreWrites: git restore writes the work tree (the default, or -W)
// from the index, or with --staged from HEAD, or from --source.
func restoreWrites(l shellcmd.Line) *gitWrites {
	staged := l.On('S', "staged")
	if staged && !l.On('W', "worktree") {
		return nil
	}
	paths := pathsOf(l.Operands, len(l.Vals(0, "pathspec-from-file")) > 0)
	if len(paths.paths) == 0 && !paths.whole {
		return nil // git restore needs paths
	}
	limit := specs(l.Operands, paths.whole)
	if src := l.Vals('s', "source"); len(src) > 0 {
		return fromRev(src[len(src)-1], limit)
	}
	if staged {
		return &gitWrites{lists: []gitList{toWorktree("HEAD", limit)}}
	}
	return &gitWrites{lists: []gitList{toWorktree("", limit)}}
}

// resetWrites: --hard makes the work tree the target's; --merge and --keep
// rewrite the files that differ between HEAD and the target.
func resetWrites(l shellcmd.Line) *gitWrites {
	m := mode(l, "soft", "mixed", "keep", "merge", "hard")
	if m != "hard" && m != "merge" && m != "keep" {
		return nil
	}
	target := shellcmd.Word{Value: "HEAD", Known: true}
	if len(l.Operands) > 0 {
		target = l.Operands[0]
	}
	if !target.Known {
		return unknownWrites(fmt.Sprintf("the commit %s cannot be known here", target.Raw), insteadLiteral)
	}
	if m == "hard" {
		return &gitWrites{lists: []gitList{toWorktree(target.Value, nil)}, revs: []string{target.Value}}
	}
	return &gitWrites{lists: []gitList{between("HEAD", target.Value, nil)}, revs: []string{target.Value}}
}

// mergeWrites: a merge changes the files each merged branch changed since
// it parted from HEAD; --abort puts back HEAD's.
func mergeWrites(l shellcmd.Line) *gitWrites {
	switch {
	case l.On(0, "abort"):
		return &gitWrites{lists: []gitList{toWorktree("HEAD", nil)}}
	case l.On(0, "continue") || l.On(0, "quit"):
		return nil
	}
	revs := l.Operands
	if len(revs) == 0 {
		revs = []shellcmd.Word{{Value: "@{upstream}", Known: true}}
	}
	w := &gitWrites{}
	for _, rev := range revs {
		if !rev.Known {
			return unknownWrites(fmt.Sprintf("the branch %s cannot be known here", rev.Raw), insteadLiteral)
		}
		w.lists = append(w.lists, between("HEAD..."+revOf(rev), "", nil))
		w.revs = append(w.revs, revOf(rev))
	}
	return w
}

const insteadSequence = "Ask the user to finish it, or abort it in a call of its own when it would change no protected path."

// rebaseWrites: a rebase onto UPSTREAM brings the files UPSTREAM changed
// since the branch parted from it; interactive, with --onto or --root it
// may drop the branch's own commits, so those files count too.
func rebaseWrites(ctx context.Context, r hookenv.GitRepo, l shellcmd.Line) *gitWrites {
	switch {
	case l.On(0, "quit") || l.On(0, "edit-todo") || l.On(0, "show-current-patch"):
		return nil
	case l.On(0, "continue") || l.On(0, "skip") || l.On(0, "abort"):
		return rebaseStepWrites(ctx, r, l)
	case l.On(0, "root"):
		return unknownWrites("git rebase --root rewrites every commit of the branch", "Ask the user to run it.")
	}
	ops := l.Operands
	words := append([]shellcmd.Word{}, ops...)
	if len(words) == 0 {
		words = append(words, shellcmd.Word{Value: "@{upstream}", Known: true})
	}
	if len(words) == 1 {
		words = append(words, shellcmd.Word{Value: "HEAD", Known: true})
	}
	onto := l.Vals(0, "onto")
	if len(onto) > 0 {
		words = append(words, onto[len(onto)-1])
	}
	if w, ok := knownAll(words); !ok {
		return unknownWrites(fmt.Sprintf("the branch %s cannot be known here", w.Raw), insteadLiteral)
	}
	upstream, branch := revOf(words[0]), revOf(words[1])
	w := &gitWrites{revs: []string{upstream, branch}}
	if branch != "HEAD" {
		w.lists = append(w.lists, between("HEAD", branch, nil)) // it checks out branch first
	}
	w.lists = append(w.lists, between(branch+"..."+upstream, "", nil))
	if len(onto) > 0 {
		o := revOf(words[2])
		w.revs = append(w.revs, o)
		w.lists = append(w.lists, between(branch, o, nil))
	}
	if len(onto) > 0 || l.On('i', "interactive") || l.Has('x', "exec") {
		w.lists = append(w.lists, between(upstream+"..."+branch, "", nil))
	}
	return w
}

// pickWrites: cherry-pick and revert change the files their commits
// change.
func pickWrites(ctx context.Context, r hookenv.GitRepo, sub string, l shellcmd.Line) *gitWrites {
	switch {
	case l.On(0, "quit"):
		return nil
	case l.On(0, "continue") || l.On(0, "skip") || l.On(0, "abort"):
		if !inProgress(ctx, r, "sequencer", "CHERRY_PICK_HEAD", "REVERT_HEAD") {
			return nil // nothing in progress: git refuses
		}
		return unknownWrites(fmt.Sprintf("what the git %s in progress still applies or puts back is not read here", sub), insteadSequence)
	}
	if len(l.Operands) == 0 {
		return nil
	}
	if w, ok := knownAll(l.Operands); !ok {
		return unknownWrites(fmt.Sprintf("the commit %s cannot be known here", w.Raw), insteadLiteral)
	}
	var revs []string
	for _, w := range l.Operands {
		revs = append(revs, revOf(w))
	}
	return &gitWrites{lists: []gitList{changedBy(revs)}, revs: revs}
}

// applyWrites: git apply writes the files its patches name (not with
// --cached, nor when it only reports: --stat, --numstat, --summary,
// --check). git itself reads the patch files for their names; a patch on
// standard input, or one an earlier command of the line writes, cannot be
// read before it runs.
func applyWrites(c *shellcmd.Command, l shellcmd.Line) *gitWrites {
	if l.On(0, "cached") {
		return nil
	}
	if (l.On(0, "stat") || l.On(0, "numstat") || l.On(0, "summary") || l.On(0, "check")) && !l.On(0, "apply") {
		return nil
	}
	patches := l.Operands
	if len(patches) == 0 || slicesHasValue(patches, "-") {
		return unknownWrites("the patch comes on standard input", "Write the patch to a file first, then git apply FILE in a call of its own.")
	}
	if w, ok := knownAll(patches); !ok {
		return unknownWrites(fmt.Sprintf("the patch %s cannot be known here", w.Raw), insteadLiteral)
	}
	args := []string{"apply", "--numstat", "-z"}
	for _, o := range l.Opts {
		switch {
		case o.Is('p', ""), o.Is(0, "directory"), o.Is(0, "include"), o.Is(0, "exclude"):
			if o.HasVal {
				name := "-p"
				if o.Long != "" {
					name = "--" + o.Long + "="
				}
				args = append(args, name+o.Val.Value)
			}
		case o.Is('R', "reverse"), o.Is(0, "unidiff-zero"), o.Is(0, "recount"), o.Is(0, "inaccurate-eof"), o.Is(0, "unsafe-paths"):
			name := "-R"
			if o.Long != "" {
				name = "--" + o.Long
			}
			args = append(args, name)
		}
	}
	// A patch git apply --numstat cannot read (or a file that is not
	// there) git apply refuses too: it lists nothing.
	w := &gitWrites{numstat: true}
	for _, p := range patches {
		w.lists = append(w.lists, gitList{args: append(append(args[:len(args):len(args)], "--"), p.Value), optional: true})
	}
	return w
}

func slicesHasValue(words []shellcmd.Word, v string) bool {
	for _, w := range words {
		if w.Known && w.Value == v {
			return true
		}
	}
	return false
}

// stashWrites: a stash puts the work tree back to HEAD (to the index with
// --keep-index) and deletes the untracked files it saves (-u; ignored ones
// too with -a); pop, apply and branch write the files the entry changed.
func stashWrites(verb string, l shellcmd.Line) *gitWrites {
	switch verb {
	case "push", "save":
		var paths []string
		if verb == "push" {
			paths = specs(l.Operands, len(l.Vals(0, "pathspec-from-file")) > 0)
		}
		w := &gitWrites{}
		switch {
		case l.On('S', "staged"):
			w.lists = []gitList{{args: append(append(append([]string{}, diffNames...), "--cached", "HEAD", "--"), paths...)}}
		case l.On('k', "keep-index"):
			w.lists = []gitList{toWorktree("", paths)}
		default:
			w.lists = []gitList{toWorktree("HEAD", paths)}
		}
		if l.On('a', "all") || l.On('u', "include-untracked") {
			w.removesUntracked, w.untracked, w.ignored = true, paths, l.On('a', "all")
		}
		return w
	case "pop", "apply", "branch":
		ops := l.Operands
		if verb == "branch" {
			if len(ops) == 0 {
				return nil
			}
			ops = ops[1:]
		}
		entry := shellcmd.Word{Value: "stash@{0}", Known: true}
		if len(ops) > 0 {
			entry = ops[0]
		}
		if !entry.Known {
			return unknownWrites(fmt.Sprintf("the stash entry %s cannot be known here", entry.Raw), insteadLiteral)
		}
		e := entry.Value
		if isDigits(e) {
			e = "stash@{" + e + "}"
		}
		w := &gitWrites{revs: []string{e}, lists: []gitList{
			between(e+"^1", e, nil),
			{args: []string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", e + "^3"}, optional: true},
		}}
		if verb == "branch" {
			w.lists = append(w.lists, between("HEAD", e+"^1", nil))
		}
		return w
	}
	return nil
}

// readTreeWrites: read-tree -u writes the trees it reads into the work
// tree (under --prefix when given); without -u only the index changes.
func readTreeWrites(l shellcmd.Line) *gitWrites {
	if !l.On('u', "") || l.On('n', "dry-run") {
		return nil
	}
	if l.On(0, "empty") {
		return &gitWrites{lists: []gitList{tracked(nil)}}
	}
	if w, ok := knownAll(l.Operands); !ok {
		return unknownWrites(fmt.Sprintf("the tree %s cannot be known here", w.Raw), insteadLiteral)
	}
	w := &gitWrites{}
	prefix := l.Vals(0, "prefix")
	for _, t := range l.Operands {
		w.revs = append(w.revs, t.Value)
		if len(prefix) > 0 {
			w.lists = append(w.lists, gitList{args: []string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", t.Value}})
		} else {
			w.lists = append(w.lists, toWorktree(t.Value, nil))
		}
	}
	if len(prefix) > 0 {
		if !prefix[len(prefix)-1].Known {
			return unknownWrites(fmt.Sprintf("the prefix %s cannot be known here", prefix[len(prefix)-1].Raw), insteadLiteral)
		}
		w.prefix = prefix[len(prefix)-1].Value
	}
	return w
}

// checkoutIndexWrites: checkout-index writes the index's files (all with
// -a, or those named) into the work tree, or under --prefix.
func checkoutIndexWrites(l shellcmd.Line) *gitWrites {
	if l.On(0, "temp") {
		return nil
	}
	if l.On(0, "stdin") {
		return unknownWrites("the paths come on standard input", "Name the paths on the command line.")
	}
	all := l.On('a', "all")
	if !all && len(l.Operands) == 0 {
		return nil
	}
	var paths []string
	if !all {
		paths = specs(l.Operands, false)
	}
	if prefix := l.Vals(0, "prefix"); len(prefix) > 0 {
		p := prefix[len(prefix)-1]
		if !p.Known {
			return unknownWrites(fmt.Sprintf("the prefix %s cannot be known here", p.Raw), insteadLiteral)
		}
		return &gitWrites{lists: []gitList{tracked(paths)}, prefix: p.Value}
	}
	return &gitWrites{lists: []gitList{toWorktree("", paths)}}
}

const insteadPull = "Run git fetch first in a call of its own, then git pull again (or git merge of the fetched branch): what it merges can then be checked."

// pullWrites: git pull fetches a branch of a remote, then merges it (or
// rebases onto it), changing the files it changed since it parted from
// HEAD. The remote is asked which commit the branch is at (git
// ls-remote): when that commit is already here (fetched before), the pull
// is judged as that merge; when it is not, what it brings is not known.
func pullWrites(ctx context.Context, r hookenv.GitRepo, l shellcmd.Line) *gitWrites {
	if l.On('n', "dry-run") {
		return nil
	}
	if w, ok := knownAll(l.Operands); !ok {
		return unknownWrites(fmt.Sprintf("the remote or branch %s cannot be known here", w.Raw), insteadLiteral)
	}
	remote, refs := pullSources(ctx, r, l.Operands)
	if remote == "" {
		return nil // no upstream and none named: git pull refuses
	}
	if remote != "." && !r.NamedRemote(ctx, remote) {
		return unknownWrites("git pull merges what it fetches, and "+remote+" is not a remote the repository names, so what it brings cannot be asked",
			"Add it as a remote (git remote add NAME URL), git fetch NAME in a call of its own, then git merge NAME/BRANCH: what it merges can then be checked.")
	}
	w := &gitWrites{}
	for _, ref := range refs {
		if strings.ContainsAny(ref, "*?[") {
			return unknownWrites(fmt.Sprintf("the refspec %s names branches by pattern", ref), insteadPull)
		}
		tip, found, why := r.RemoteTip(ctx, remote, ref)
		switch {
		case why != "":
			return unknownWrites("git pull merges what it fetches, and "+why, insteadPull)
		case !found:
			return nil // the remote has no such branch: git pull fails
		}
		w.lists = append(w.lists, between("HEAD..."+tip, "", nil))
		w.revs = append(w.revs, tip)
	}
	return w
}

// pullSources are the remote and the branches of it git pull would merge:
// those named, or the current branch's upstream. "" when there are none
// (git pull refuses).
func pullSources(ctx context.Context, r hookenv.GitRepo, ops []shellcmd.Word) (remote string, refs []string) {
	head, _ := r.HeadRef(ctx)
	branch := strings.TrimPrefix(head, "refs/heads/")
	upstream := func() (string, []string) {
		if branch == "" {
			return "", nil
		}
		rem, merges := r.Config(ctx, "branch."+branch+".remote"), r.Config(ctx, "branch."+branch+".merge")
		if len(rem) == 0 || len(merges) == 0 {
			return "", nil
		}
		return rem[len(rem)-1], merges
	}
	if len(ops) == 0 {
		return upstream()
	}
	remote = ops[0].Value
	for _, op := range ops[1:] {
		src, _, _ := strings.Cut(strings.TrimPrefix(op.Value, "+"), ":")
		if src != "" {
			refs = append(refs, src)
		}
	}
	if len(refs) == 0 {
		if rem, merges := upstream(); rem == remote {
			return remote, merges
		}
		return "", nil
	}
	return remote, refs
}

// inProgress reports whether any of names exists in the git directory
// (a cherry-pick's or revert's state); true when that cannot be told.
func inProgress(ctx context.Context, r hookenv.GitRepo, names ...string) bool {
	dir, err := r.Lines(ctx, "rev-parse", "--absolute-git-dir")
	if err != nil || len(dir) != 1 {
		return true // cannot tell: judged as in progress
	}
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir[0], n)); err == nil {
			return true
		}
	}
	return false
}

// rebaseStepWrites: with no rebase in progress, git rebase --continue,
// --skip and --abort are refused. --abort puts the branch back where the
// rebase started (the work tree becomes that commit's); --continue and
// --skip apply the commits left in the rebase's to-do list (--skip first
// throws away the step's changes, back to HEAD).
func rebaseStepWrites(ctx context.Context, r hookenv.GitRepo, l shellcmd.Line) *gitWrites {
	unknown := unknownWrites("what the rebase in progress still applies or puts back is not read here", insteadSequence)
	dir, err := r.Lines(ctx, "rev-parse", "--absolute-git-dir")
	if err != nil || len(dir) != 1 {
		return unknown
	}
	state := ""
	for _, d := range []string{"rebase-merge", "rebase-apply"} {
		if fi, err := os.Lstat(filepath.Join(dir[0], d)); err == nil && fi.IsDir() {
			state = filepath.Join(dir[0], d)
			break
		}
	}
	if state == "" {
		return nil // no rebase in progress: git refuses
	}
	if l.On(0, "abort") {
		orig, ok := readGitFile(filepath.Join(state, "orig-head"))
		if !ok {
			return unknown
		}
		return &gitWrites{lists: []gitList{toWorktree(orig, nil)}, revs: []string{orig}}
	}
	todo, ok := readGitFile(filepath.Join(state, "git-rebase-todo"))
	if !ok {
		return unknown // an apply-style rebase: its patches are not read
	}
	var commits []string
	for _, line := range strings.Split(todo, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "pick", "p", "reword", "r", "edit", "e", "squash", "s", "fixup", "f":
			f = f[1:]
			if len(f) > 0 && (f[0] == "-C" || f[0] == "-c") {
				f = f[1:]
			}
			if len(f) == 0 {
				return unknown
			}
			commits = append(commits, f[0])
		case "drop", "d", "break", "b", "noop":
		default: // exec, merge, reset, label, update-ref: not read here
			return unknownWrites(fmt.Sprintf("the rebase in progress still has a %q step, which is not read here", f[0]), insteadSequence)
		}
	}
	w := &gitWrites{revs: commits}
	if len(commits) > 0 {
		w.lists = append(w.lists, changedBy(commits))
	}
	if l.On(0, "skip") {
		w.lists = append(w.lists, toWorktree("HEAD", nil))
	}
	return w
}

// readGitFile reads a small regular file of git's own state, trimmed.
func readGitFile(path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}
