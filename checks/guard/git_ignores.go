package guard

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/hookfs"
)

// lineIgnores is what a command line may change, anywhere in it, about
// what git ignores. git is asked about the repository as it is before the
// line runs, and the shell may run the line's commands in another order
// than they are written (a function or a trap defined first runs later),
// so a staging anywhere in the line is judged as if every change had been
// made.
type lineIgnores struct {
	// rules: a .gitignore or .git/info/exclude written, moved or
	// deleted, or a git command that may replace one out of sight
	// (replacesIgnores): staging counts ignored files too.
	rules bool
	// reverts: a git command that puts tracked files back as committed,
	// or a stash's changes back (revertsTracked): staging counts ignored
	// files too when a .gitignore differs from its commit, or the stash
	// changes one (shellcmd.Selection.RevertsIgnores).
	reverts bool
	// asks are what git is asked, for the commands whose change to a
	// .gitignore can be told before they run (a hard reset to a commit, a
	// revert or cherry-pick of one): ignored files count when one names a
	// .gitignore.
	asks ignoreAsks
	// stashes are the stashes the line pops or applies by name
	// (stash@{1}); none named: the latest.
	stashes []string
	// excludes: a git config that may set the excludes file: git is
	// asked without one (shellcmd.NoExcludesFile).
	excludes bool
}

// read notes what the line's commands, with their effects, change; dir
// is the call's folder.
func (l *lineIgnores) read(commands []*shellcmd.Command, effects [][]shellcmd.Effect, dir string) {
	// writes reports whether the line writes the file name (a patch it
	// applies may be one); asked only of a git apply's patches.
	writes := func(name string) bool {
		for i, c := range commands {
			for _, e := range effects[i] {
				if e.Op == shellcmd.Write && e.Path.Known && absIn(e.Path.Value, cmdDir(c, dir)) == name {
					return true
				}
			}
		}
		return false
	}
	for i, c := range commands {
		l.rules = l.rules || changesIgnores(effects[i])
		g, ok := c.Git(c.Dir)
		if !ok {
			continue
		}
		l.rules = l.rules || replacesIgnores(g, cmdDir(c, dir), writes, &l.asks)
		if stashes, ok := revertsTracked(g); ok {
			l.reverts = true
			l.stashes = append(l.stashes, stashes...)
		}
		l.excludes = l.excludes || setsIgnoreConfig(g)
	}
}

// cmdDir is where c runs: its own folder, or the call's.
func cmdDir(c *shellcmd.Command, dir string) string {
	if c.Dir != "" {
		return c.Dir
	}
	return dir
}

// absIn is name made absolute against dir.
func absIn(name, dir string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(dir, name)
}

// staging is s, what a git add or commit of the line would stage, judged
// with what the line changes.
func (l lineIgnores) staging(s *shellcmd.Selection) *shellcmd.Selection {
	if !l.rules && !l.reverts && !l.excludes && len(l.asks) == 0 || s.Ignored {
		return s
	}
	out := *s
	out.Ignored = l.rules
	out.RevertsIgnores = l.reverts && !l.rules
	out.RevertStashes = l.stashes
	if !l.rules {
		out.IgnoreAsks = l.asks
	}
	if l.excludes {
		out.GitOpts = append(slices.Clip(out.GitOpts), shellcmd.NoExcludesFile...)
	}
	return &out
}

// setsIgnoreConfig reports whether g is a git config that may set where
// git finds ignore rules: one that writes core.excludesFile or an include,
// removes or renames a section, or has a word not known. A query (git
// config --get core.excludesFile, git config core.excludesFile) and git
// config user.email x do not.
func setsIgnoreConfig(g shellcmd.Git) bool {
	if g.Sub != "config" {
		return false
	}
	var names []string
	for _, a := range g.Args {
		v := strings.ToLower(a.Value)
		switch {
		case !a.Known:
			return true
		case strings.HasPrefix(v, "--remove-section") || strings.HasPrefix(v, "--rename-section") ||
			v == "remove-section" || v == "rename-section" || v == "edit" || v == "--edit" || v == "-e":
			return true
		case v == "--get" || v == "--get-all" || v == "--get-regexp" || v == "--list" || v == "-l" ||
			v == "get" || v == "list" || strings.HasPrefix(v, "--show-"):
			return false
		case !strings.HasPrefix(v, "-"):
			names = append(names, v)
		}
	}
	// git config KEY reads it; git config KEY VALUE, set KEY VALUE,
	// --unset KEY write it.
	for i, n := range names {
		if shellcmd.IgnoreConfigKey(n) && (i+1 < len(names) || unsets(g.Args)) {
			return true
		}
	}
	return false
}

// unsets reports whether a git config's words unset a key.
func unsets(args []shellcmd.Word) bool {
	return slices.ContainsFunc(args, func(a shellcmd.Word) bool {
		return strings.HasPrefix(a.Value, "--unset") || a.Value == "unset"
	})
}

// replacesIgnores reports whether g is a git command that may replace
// the .gitignore files of the work tree in ways no file effect shows: an
// orphan branch (its tracked files removed), paths that may hold one
// restored from another commit (checkout REV PATHS, restore --source,
// reset --hard REV), a commit applied (revert, cherry-pick, am) or a
// patch that names one, a stash of untracked files or a clean (an
// untracked .gitignore goes), the index read into the work tree, a
// bisect. The everyday ways of bringing in other commits (pull, merge,
// rebase, a switch to another branch) are not counted: a .gitignore they
// change is not judged (SECURITY.md), so git pull && git add . passes.
func replacesIgnores(g shellcmd.Git, dir string, writes func(string) bool, asks *ignoreAsks) bool {
	l := g.Line
	if l.Has(0, "pathspec-from-file") && (g.Sub == "checkout" || g.Sub == "restore" || g.Sub == "reset") {
		return true // paths not known
	}
	switch g.Sub {
	case "checkout":
		if l.Has(0, "orphan") {
			return true
		}
		creates := l.Has('b', "") || l.Has('B', "")
		switch {
		case l.DashAt > 0:
			return mayNameIgnores(l.Operands[l.DashAt:], dir)
		case l.DashAt < 0 && !creates && len(l.Operands) > 1:
			return mayNameIgnores(l.Operands[1:], dir)
		}
		return false
	case "switch":
		return l.Has(0, "orphan")
	case "restore":
		return l.Has('s', "source") && mayNameIgnores(l.Operands, dir)
	case "reset":
		hard := l.On(0, "hard") || l.On(0, "merge") || l.On(0, "keep")
		if hard {
			return len(l.Operands) > 0 && l.Operands[0].Value != "HEAD" && !asks.diff(l.Operands[0])
		}
		// reset REV -- PATHS puts REV's files in the index, which a later
		// restore or checkout of paths puts in the work tree.
		return l.DashAt > 0 && mayNameIgnores(l.Operands[l.DashAt:], dir) || l.DashAt < 0 && len(l.Operands) > 1
	case "stash":
		// Untracked files stashed: a .gitignore among them, or the
		// excludes file when it lives in the work tree.
		return l.On('u', "include-untracked") || l.On('a', "all")
	case "clean":
		return !l.On('n', "dry-run")
	case "apply":
		return !l.On(0, "cached") && patchesNameIgnores(l.Operands, dir, writes)
	case "revert", "cherry-pick":
		// One commit: what it changes is asked; more, a range, or a
		// sequence going on (--continue) may change anything.
		if len(l.Operands) == 1 && !strings.Contains(l.Operands[0].Value, "..") {
			return !asks.change(l.Operands[0])
		}
		return true
	case "am", "read-tree", "checkout-index", "sparse-checkout", "bisect":
		return true
	}
	return false
}

// ignoresSpec is the pathspec of every .gitignore of a work tree.
const ignoresSpec = ":(top,glob)**/.gitignore"

// ignoreAsks are git commands whose output names the .gitignore files a
// command of the line would change: one that lists any means ignored
// files count (shellcmd.Selection.IgnoreAsks).
type ignoreAsks [][]string

func (a *ignoreAsks) add(args ...string) { *a = append(*a, args) }

// diff asks which .gitignore files rev's differ from the work tree's (a
// hard reset to it, paths restored from it); false when rev cannot be
// asked about (not known, or read as an option).
func (a *ignoreAsks) diff(rev shellcmd.Word) bool {
	if !rev.Known || strings.HasPrefix(rev.Value, "-") {
		return false
	}
	a.add("diff", "--name-only", "--end-of-options", rev.Value, "--", ignoresSpec)
	return true
}

// change asks which .gitignore files the commit rev changes (a revert or
// cherry-pick of it); false as diff.
func (a *ignoreAsks) change(rev shellcmd.Word) bool {
	if !rev.Known || strings.HasPrefix(rev.Value, "-") {
		return false
	}
	a.add("diff", "--name-only", "--end-of-options", rev.Value+"^", rev.Value, "--", ignoresSpec)
	return true
}

// revertsTracked reports whether g is a git command that puts tracked
// files back as committed (a stash, checkout or restore of paths from the
// index, a hard reset to HEAD) or puts a stash's changes back (stash pop,
// apply): either changes what is ignored only where a .gitignore differs
// from its commit, or the stash holds one, which git is asked then.
func revertsTracked(g shellcmd.Git) (stashes []string, ok bool) {
	l := g.Line
	switch g.Sub {
	case "stash":
		if g.Verb == "list" || g.Verb == "show" {
			return nil, false
		}
		if g.Verb == "pop" || g.Verb == "apply" {
			for _, w := range l.Operands {
				ref := w.Value
				if _, err := strconv.Atoi(ref); err == nil {
					ref = "stash@{" + ref + "}" // git stash pop 1
				}
				if !w.Known || strings.HasPrefix(ref, "-") {
					ref = "" // not known: judged as a stash that changes one
				}
				stashes = append(stashes, ref)
			}
		}
		return stashes, true
	case "checkout":
		return nil, l.DashAt == 0 || l.DashAt < 0 && len(l.Operands) == 1 && !l.Has('b', "") && !l.Has('B', "")
	case "restore":
		return nil, !l.Has('s', "source") && (!l.On('S', "staged") || l.On('W', "worktree"))
	case "reset":
		hard := l.On(0, "hard") || l.On(0, "merge") || l.On(0, "keep")
		return nil, hard && (len(l.Operands) == 0 || l.Operands[0].Value == "HEAD")
	}
	return nil, false
}

// mayNameIgnores reports whether paths restored below dir may hold a
// .gitignore: one not known, a glob (git's: a backslash too), one named
// .gitignore, or one that is not a file here (a folder, or one the commit
// may make a folder).
func mayNameIgnores(paths []shellcmd.Word, dir string) bool {
	if len(paths) == 0 {
		return true
	}
	for _, p := range paths {
		if !p.Known || p.Glob || strings.ContainsAny(p.Value, "*?[:\\") || path.Base(filepath.ToSlash(p.Value)) == ".gitignore" {
			return true
		}
		if info, err := os.Lstat(absIn(p.Value, dir)); err != nil || !info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// patchesNameIgnores reports whether the patches of git apply (files below
// dir; none: stdin) may change a .gitignore: one names it (in any of git's
// spellings of a name: "a/\056gitignore" too), the line writes it before
// git reads it, or it cannot be read.
func patchesNameIgnores(patches []shellcmd.Word, dir string, writes func(string) bool) bool {
	if len(patches) == 0 {
		return true
	}
	for _, p := range patches {
		if !p.Known || p.Glob || p.Value == "-" {
			return true
		}
		name := absIn(p.Value, dir)
		if writes(name) {
			return true
		}
		data, err := hookfs.ReadFile(name, maxPatchBytes)
		if err != nil || bytes.Contains(data, []byte("gitignore")) {
			return true
		}
	}
	return false
}

// maxPatchBytes bounds the patch patchesNameIgnores reads: a bigger one
// is taken to name a .gitignore.
const maxPatchBytes = 4 << 20

// changesIgnores reports whether effects write, move or delete a file of
// git's ignore rules (.gitignore, .git/info/exclude), or may: a path not
// known, or a glob that may name .gitignore (one whose name starts with a
// dot: rm *.log cannot).
func changesIgnores(effects []shellcmd.Effect) bool {
	for _, e := range effects {
		if e.Op != shellcmd.Write && e.Op != shellcmd.Delete && e.Op != shellcmd.Move {
			continue
		}
		p := filepath.ToSlash(e.Path.Value)
		base := path.Base(p)
		if !e.Path.Known || base == ".gitignore" || strings.HasSuffix(p, ".git/info/exclude") {
			return true
		}
		if ok, _ := path.Match(base, ".gitignore"); ok && e.Path.Glob && strings.HasPrefix(base, ".") {
			return true
		}
	}
	return false
}

// ignoresReverted reports whether putting the tracked files of the work
// tree holding root back as committed or as the index holds them, or a
// stash's changes back, may change a .gitignore: one differs from its
// commit, in the index or the work tree, or a stash popped (stashes; none
// named: the latest) changes or holds one. It says yes when git cannot
// tell.
func ignoresReverted(ctx context.Context, root string, stashes []string) bool {
	r := hookenv.RepoWith(root, nil)
	changed := func(args ...string) bool {
		res, err := r.Run(ctx, 4<<10, args...)
		if hookenv.NoRepo(err) {
			return false
		}
		return err != nil || res.ExitCode > 1 || len(bytes.TrimSpace(res.Stdout)) > 0
	}
	exists := func(ref string) (yes, failed bool) {
		res, err := r.Run(ctx, 4<<10, "rev-parse", "-q", "--verify", ref)
		if hookenv.NoRepo(err) {
			return false, false
		}
		return err == nil && res.ExitCode == 0, err != nil
	}
	if yes, failed := exists("HEAD"); !yes {
		return failed // no commit yet: nothing to put back
	}
	if changed("diff", "--name-only", "HEAD", "--", ignoresSpec) || changed("diff", "--name-only", "--cached", "HEAD", "--", ignoresSpec) {
		return true
	}
	if len(stashes) == 0 {
		stashes = []string{"refs/stash"}
	}
	for _, ref := range stashes {
		if ref == "" {
			return true // a stash not known
		}
		if yes, failed := exists(ref); !yes {
			if failed {
				return true
			}
			continue // no such stash: nothing to put back
		}
		if changed("diff", "--name-only", ref+"^1", ref, "--", ignoresSpec) {
			return true
		}
		// Untracked files a stash -u holds are in its third parent.
		if yes, _ := exists(ref + "^3"); yes {
			res, err := r.Run(ctx, 1<<20, "ls-tree", "-r", "--name-only", ref+"^3")
			if err != nil || res.ExitCode != 0 || res.Oversize {
				return true
			}
			for _, name := range strings.Split(string(res.Stdout), "\n") {
				if path.Base(name) == ".gitignore" {
					return true
				}
			}
		}
	}
	return false
}

// ignoresAsked reports whether any of asks, run in the work tree holding
// root, names a .gitignore, or cannot be answered.
func ignoresAsked(ctx context.Context, root string, asks [][]string) bool {
	r := hookenv.RepoWith(root, nil)
	for _, args := range asks {
		res, err := r.Run(ctx, 4<<10, args...)
		if hookenv.NoRepo(err) {
			continue
		}
		if err != nil || res.ExitCode != 0 || len(bytes.TrimSpace(res.Stdout)) > 0 {
			return true
		}
	}
	return false
}
