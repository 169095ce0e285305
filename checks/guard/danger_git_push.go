package guard

import (
	"context"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// The push rule: a forced push or a delete that reaches a protected
// branch. --force-with-lease counts as a force: the lease only checks that
// nobody pushed since the last fetch, and the push still rewrites the
// branch's history for everyone who has it.

const (
	insteadPushAll     = "Push your own branch without --force, and open a pull request."
	insteadPushCurrent = "Never rewrite a protected branch's history: push a new branch and open a pull request."
	insteadPushDelete  = "Protected branches are never deleted from here; ask the user."
	insteadPushForce   = "Push without --force (pull and rebase or merge first), or push a new branch and open a pull request."
)

func pushProtected(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := gitFor(d, c, "push")
	if !ok {
		return "", ""
	}
	for _, p := range g.Readings() {
		if what, instead := d.pushLine(c, g, p); what != "" {
			return what, instead
		}
	}
	return "", ""
}

// pushLine judges one reading of a push's arguments. An option git does
// not know might be a force (a later git's, or a typo git refuses): it
// counts as one where a protected branch is reached.
func (d *dangerCall) pushLine(c *shellcmd.Command, g shellcmd.Git, p shellcmd.Line) (string, string) {
	if p.On('n', "dry-run") {
		return "", "" // git only says what it would do
	}
	unknown := p.Unknown()
	force := p.On('f', "force") || p.On(0, "force-with-lease") || p.On(0, "mirror")
	del := p.On('d', "delete")
	if (p.On(0, "all") || p.On(0, "mirror")) && (force || del || unknown) {
		return fmt.Sprintf("%s force-pushes every branch, %s included", quoteCmd(c), strings.Join(d.branches, " and ")), insteadPushAll
	}
	var refspecs []shellcmd.Word
	if len(p.Operands) > 1 {
		refspecs = p.Operands[1:]
	}
	if len(refspecs) == 0 {
		if !force && !unknown {
			return "", ""
		}
		if g.Dir == "" {
			return unknownRepo(c, g)
		}
		branch := d.branchIn(g.Dir)
		if d.protectedBranch(branch) != "" {
			return fmt.Sprintf("%s force-pushes the current branch %q, which is protected", quoteCmd(c), branch), insteadPushCurrent
		}
		return "", ""
	}
	for _, r := range refspecs {
		if !r.Known {
			if force || del {
				return fmt.Sprintf("%s force-pushes or deletes %s, which cannot be known here, so whether it reaches a protected branch cannot be checked", quoteCmd(c), r.Raw), insteadPushForce
			}
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
			return fmt.Sprintf("%s deletes the protected branch %q on the remote", quoteCmd(c), dst), insteadPushDelete
		case force || plus:
			return fmt.Sprintf("%s force-pushes the protected branch %q, rewriting its history", quoteCmd(c), dst), insteadPushForce
		case unknown:
			return fmt.Sprintf("%s gives git push an option it does not know (%s), so whether it forces the protected branch %q cannot be checked", quoteCmd(c), unknownOpts(g), dst), insteadPushForce
		}
	}
	return "", ""
}

// branchIn is the branch checked out in dir, "" when unknown.
func (d *dangerCall) branchIn(dir string) string {
	if dir == "" {
		return ""
	}
	return hookenv.CurrentBranch(dir)
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
