package checks

import (
	"context"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/massgen/massgen-hook/shellcmd"
)

// The git rules: force pushes and deletes of protected branches, and the
// commands that throw away work git cannot give back. Each reads the
// command line with shellcmd's git option tables, so abbreviations
// (--har), bundles (-fd) and --opt=value are read as git reads them.

func pushProtected(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := c.Git(d.cwd)
	if !ok || g.Sub != "push" {
		return "", ""
	}
	p := g.Line
	force := p.Has('f', "force") || p.Has(0, "force-with-lease") || p.Has(0, "mirror")
	del := p.Has('d', "delete")
	var refspecs []shellcmd.Word
	if len(p.Operands) > 1 {
		refspecs = p.Operands[1:]
	}
	if (p.Has(0, "all") || p.Has(0, "mirror")) && (force || del) {
		return fmt.Sprintf("%s force-pushes every branch, %s included", quoteCmd(c), strings.Join(d.branches, " and ")), "Push your own branch without --force, and open a pull request."
	}
	if len(refspecs) == 0 {
		if !force {
			return "", ""
		}
		branch := d.branchIn(g.Dir)
		if d.protectedBranch(branch) != "" {
			return fmt.Sprintf("%s force-pushes the current branch %q, which is protected", quoteCmd(c), branch), "Never rewrite a protected branch's history: push a new branch and open a pull request."
		}
		return "", ""
	}
	for _, r := range refspecs {
		if !r.Known {
			continue
		}
		spec := r.Value
		plus := strings.HasPrefix(spec, "+")
		spec = strings.TrimPrefix(spec, "+")
		src, dst, hasColon := strings.Cut(spec, ":")
		if !hasColon {
			dst = src
		}
		if dst == "HEAD" || dst == "" && !hasColon {
			dst = d.branchIn(g.Dir)
		}
		dst = strings.TrimPrefix(dst, "refs/heads/")
		deleting := del || (hasColon && src == "")
		hit := d.protectedBranch(dst)
		if hit == "" {
			continue
		}
		dst = hit
		switch {
		case deleting:
			return fmt.Sprintf("%s deletes the protected branch %q on the remote", quoteCmd(c), dst), "Protected branches are never deleted from here; ask the user."
		case force || plus:
			return fmt.Sprintf("%s force-pushes the protected branch %q, rewriting its history", quoteCmd(c), dst), "Push without --force (pull and rebase or merge first), or push a new branch and open a pull request."
		}
	}
	return "", ""
}

// branchIn is the branch checked out in dir, "" when unknown.
func (d *dangerCall) branchIn(dir string) string {
	if dir == "" {
		return ""
	}
	return currentBranch(dir)
}

// protectedBranch returns the protected branch a push to branch reaches,
// "" if none. A wildcard refspec (refs/heads/*) reaches every branch that
// matches it.
func (d *dangerousCommands) protectedBranch(branch string) string {
	if branch == "" {
		return ""
	}
	for _, b := range d.branches {
		if ok, _ := doublestar.Match(b, branch); ok {
			return branch
		}
		if strings.Contains(branch, "*") {
			if ok, _ := doublestar.Match(branch, b); ok {
				return b
			}
		}
	}
	return ""
}

func resetHard(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := c.Git(d.cwd)
	if !ok || g.Sub != "reset" || g.Dir == "" || !g.Line.Has(0, "hard") {
		return "", ""
	}
	lines, err := gitStatus(ctx, g.Dir, "--untracked-files=no")
	if err != nil {
		d.unchecked(c, err)
	}
	if len(lines) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would throw away uncommitted changes to %d tracked file(s) (%s)", quoteCmd(c), len(lines), statusPreview(lines)),
		"Commit or stash them first (git stash), or discard only the files you mean with git restore <file>."
}

func gitClean(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	gc, ok := c.Git(d.cwd)
	if !ok || gc.Sub != "clean" || gc.Dir == "" {
		return "", ""
	}
	g := gc.Line
	if !g.Has('f', "force") || g.Has('n', "dry-run") || g.Has('i', "interactive") {
		return "", ""
	}
	extra := []string{"--untracked-files=all"}
	ignored := g.Has('x', "") || g.Has('X', "")
	if ignored {
		extra = append(extra, "--ignored")
	}
	lines, err := gitStatus(ctx, gc.Dir, extra...)
	if err != nil {
		d.unchecked(c, err)
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

func noVerify(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	gc, ok := c.Git(d.cwd)
	if !ok {
		return "", ""
	}
	switch g := gc.Line; {
	case gc.Sub == "commit" && g.Has('n', "no-verify"),
		(gc.Sub == "push" || gc.Sub == "merge" || gc.Sub == "rebase" || gc.Sub == "am") && g.Has(0, "no-verify"):
		return fmt.Sprintf("%s skips the project's git hooks", quoteCmd(c)), "Run it without --no-verify and fix what the hooks report."
	}
	return "", ""
}
