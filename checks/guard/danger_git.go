package guard

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// The git rules deny the git commands that lose work git cannot give
// back, and only when there is something to lose: uncommitted changes,
// untracked files, commits that only a branch or the reflog remembers,
// stash entries. Each reads the command line with shellcmd's git option
// tables, so abbreviations (--har), bundles (-fd) and --opt=value are read
// as git reads them, and looks at the repository with read-only git calls
// (never a shell; killed on timeout). A git that fails or hangs is a note,
// not a silent pass; a repository, option or word that cannot be known
// where it matters fails closed.

// gitFor reads c as git running one of subs. A command that only shows
// help is not one.
func gitFor(d *dangerCall, c *shellcmd.Command, subs ...string) (shellcmd.Git, bool) {
	g, ok := c.Git("")
	if !ok || g.Help || !slices.Contains(subs, g.Sub) {
		return g, false
	}
	return g, true
}

// unknownRepo is the denial of a command that could lose work in a
// repository that cannot be known: -C $DIR, a cd to one, or an option of
// git's own that git does not know.
func unknownRepo(c *shellcmd.Command, g shellcmd.Git) (string, string) {
	if g.Unknown {
		return fmt.Sprintf("%s gives git an option of its own that git does not know, so what the command would do cannot be checked", quoteCmd(c)),
			"Write git's own options as git documents them (git -C DIR, git -c NAME=VALUE)."
	}
	return fmt.Sprintf("%s works in a directory that cannot be known here, so what it would throw away cannot be checked", quoteCmd(c)),
		"Use a literal directory (cd DIR first, or git -C DIR)."
}

// unknownWord is the denial of a command whose target cannot be known.
func unknownWord(c *shellcmd.Command, w shellcmd.Word, what string) (string, string) {
	return fmt.Sprintf("%s names %s %s, which cannot be known here, so what it would throw away cannot be checked", quoteCmd(c), what, w.Raw),
		"Name it literally."
}

// unknownOpts lists the arguments that hold options the table does not know.
func unknownOpts(g shellcmd.Git) string {
	var words []string
	for _, o := range g.Line.Opts {
		if o.Unknown && o.At < len(g.Args) && !slices.Contains(words, g.Args[o.At].Raw) {
			words = append(words, g.Args[o.At].Raw)
		}
	}
	return strings.Join(words, " ")
}

// mode returns the last of the options modes that line gives (git keeps
// the last one), "" if none. An abbreviation that could be several
// (--m: --mixed or --merge) is the most destructive of them: modes are in
// that order, least first.
func mode(l shellcmd.Line, modes ...string) string {
	got := ""
	for _, o := range l.Opts {
		best := -1
		for i, m := range modes {
			if o.Is(0, m) {
				best = i
			}
		}
		if best >= 0 {
			got = modes[best]
		}
	}
	return got
}

func resetHard(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "reset")
	if !ok {
		return "", ""
	}
	for _, l := range g.Readings() {
		if what, instead := d.reset(ctx, c, g, l); what != "" {
			return what, instead
		}
	}
	return "", ""
}

const insteadReset = "Commit or stash them first (git stash), or discard only the files you mean with git restore <file>."

// reset judges git reset --hard, --merge and --keep: --hard throws away
// every uncommitted change to tracked files, --merge the staged ones, and
// all three leave behind the commits between HEAD and a target that
// nothing else keeps. --soft, --mixed and paths keep the work in the tree.
func (d *dangerCall) reset(ctx context.Context, c *shellcmd.Command, g shellcmd.Git, l shellcmd.Line) (string, string) {
	m := mode(l, "soft", "mixed", "keep", "merge", "hard")
	if m != "hard" && m != "merge" && m != "keep" {
		return "", ""
	}
	if g.Dir == "" || g.Unknown {
		return unknownRepo(c, g)
	}
	r := hookenv.RepoOf(g)
	switch m {
	case "hard":
		lines, err := r.Status(ctx, nil, "--untracked-files=no")
		if d.failed(c, err) {
			return "", ""
		}
		if len(lines) > 0 {
			return fmt.Sprintf("%s would throw away uncommitted changes to %d tracked file(s) (%s)", quoteCmd(c), len(lines), statusPreview(lines)), insteadReset
		}
	case "merge":
		lines, err := r.Status(ctx, nil, "--untracked-files=no")
		if d.failed(c, err) {
			return "", ""
		}
		if staged := filterStatus(lines, stagedChange); len(staged) > 0 {
			return fmt.Sprintf("%s would throw away the staged changes to %d file(s) (%s)", quoteCmd(c), len(staged), statusPreview(staged)), insteadReset
		}
	}
	if len(l.Operands) == 0 {
		return "", ""
	}
	target := l.Operands[0]
	if !target.Known {
		return unknownWord(c, target, "the commit")
	}
	return d.resetCommits(ctx, c, r, target.Value)
}

const insteadLostCommits = "Keep them on a branch first (git branch backup), or undo commits with git revert, which keeps history."

// resetCommits denies moving the current branch to target when commits
// only it has would be left behind.
func (d *dangerCall) resetCommits(ctx context.Context, c *shellcmd.Command, r hookenv.GitRepo, target string) (string, string) {
	if target == "HEAD" || target == "@" {
		return "", ""
	}
	head, err := r.HeadRef(ctx)
	if d.failed(c, err) {
		return "", ""
	}
	var gone []string
	if head != "" {
		gone = []string{head}
	}
	n, bad, err := r.LostCommits(ctx, []string{"HEAD"}, []string{target}, gone, true)
	if d.failed(c, err) || bad || n == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would leave %d commit(s) that no other branch, tag or remote has (only the reflog would remember them)", quoteCmd(c), n), insteadLostCommits
}

func gitClean(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	gc, ok := gitFor(d, c, "clean")
	if !ok {
		return "", ""
	}
	g := gc.Line
	if !g.On('f', "force") || g.On('n', "dry-run") || g.On('i', "interactive") {
		return "", ""
	}
	if gc.Dir == "" || gc.Unknown {
		return unknownRepo(c, gc)
	}
	extra := []string{"--untracked-files=all"}
	ignored := g.Has('x', "") || g.Has('X', "")
	if ignored {
		extra = append(extra, "--ignored")
	}
	lines, err := hookenv.RepoOf(gc).Status(ctx, cleanPaths(g), extra...)
	if d.failed(c, err) {
		return "", ""
	}
	var doomed []string
	for _, l := range lines {
		if strings.HasPrefix(l, "?? ") || ignored && strings.HasPrefix(l, "!! ") {
			doomed = append(doomed, l)
		}
	}
	if len(doomed) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would delete %d untracked or ignored file(s) for good (%s)", quoteCmd(c), len(doomed), statusPreview(doomed)),
		"Run it with -n first to see the list, and delete only what you mean (ignored files often include .env and local config)."
}

// cleanPaths are the pathspecs git clean is limited to; nil (the whole
// tree) when one cannot be known.
func cleanPaths(l shellcmd.Line) []string {
	var paths []string
	for _, w := range l.Operands {
		if !w.Known {
			return nil
		}
		paths = append(paths, w.Value)
	}
	return paths
}

func statusPreview(lines []string) string {
	const show = 3
	var names []string
	for i, l := range lines {
		if i == show {
			names = append(names, fmt.Sprintf("and %d more", len(lines)-show))
			break
		}
		names = append(names, strings.TrimSpace(l[min(3, len(l)):]))
	}
	return strings.Join(names, ", ")
}

// A `git status --porcelain` line is "XY PATH": X the index's change, Y
// the work tree's ("??" untracked, "!!" ignored; U, or AA and DD, unmerged).

func unmerged(l string) bool {
	xy := l[:min(2, len(l))]
	return strings.Contains(xy, "U") || xy == "AA" || xy == "DD"
}

// stagedChange: the index holds content the work tree may not (a deletion
// staged loses nothing: the file comes back from HEAD).
func stagedChange(l string) bool {
	return len(l) > 1 && strings.IndexByte("MTARC", l[0]) >= 0 || unmerged(l)
}

// unstagedChange: the work tree holds content the index does not (a file
// deleted from the work tree loses nothing when it is restored).
func unstagedChange(l string) bool {
	return len(l) > 1 && strings.IndexByte("MT", l[1]) >= 0 || unmerged(l)
}

func filterStatus(lines []string, keep func(string) bool) []string {
	var out []string
	for _, l := range lines {
		if keep(l) {
			out = append(out, l)
		}
	}
	return out
}

func noVerify(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	gc, ok := gitFor(d, c, "commit", "push", "merge", "rebase", "am", "cherry-pick", "revert", "pull")
	if !ok {
		return "", ""
	}
	switch g := gc.Line; {
	case gc.Sub == "commit" && g.On('n', "no-verify"),
		gc.Sub != "commit" && g.On(0, "no-verify"):
		return fmt.Sprintf("%s skips the project's git hooks", quoteCmd(c)), "Run it without --no-verify and fix what the hooks report."
	}
	for _, w := range gc.Config {
		if name, _, _ := strings.Cut(w.Value, "="); strings.EqualFold(name, "core.hooksPath") {
			return fmt.Sprintf("%s replaces the project's git hooks (core.hooksPath)", quoteCmd(c)), "Run it without -c core.hooksPath and fix what the hooks report."
		}
	}
	return "", ""
}
