package shellcmd

// gitNameOnly are the git subcommands that take paths or names without
// printing what the files hold.
var gitNameOnly = map[string]bool{
	"status": true, "check-ignore": true, "check-attr": true, "ls-files": true,
	"init": true, "clone": true, "fetch": true, "pull": true, "push": true, "remote": true,
	"branch": true, "switch": true, "tag": true, "stash": true, "reset": true, "clean": true,
	"merge": true, "rebase": true, "cherry-pick": true, "revert": true, "worktree": true,
	"config": true, "rev-parse": true, "describe": true,
}

// gitEffects: git rm deletes its paths from the work tree (unless
// --cached), git mv moves them, git checkout and restore overwrite the
// paths they name. The other subcommands that only take names are in
// gitNameOnly; any other may print what its arguments name (git show
// HEAD:.env, git diff, git log -p, git add stages it), so their words are
// read as argumentReads reads an unknown program's.
func gitEffects(c *Command) []Effect {
	g, ok := c.Git("")
	if !ok {
		return nil
	}
	switch g.Sub {
	case "rm":
		l := g.Line
		if l.Has(0, "cached") || l.Has('n', "dry-run") {
			return nil
		}
		return all(Delete, l.Has('r', ""), l.Operands)
	case "mv":
		l := g.Line
		if len(l.Operands) < 2 {
			return nil
		}
		srcs, dest := l.Operands[:len(l.Operands)-1], l.Operands[len(l.Operands)-1:]
		return append(append(all(Move, true, srcs), all(Write, true, dest)...), all(Read, true, srcs)...)
	case "checkout", "restore":
		// Each named file gets its committed content back: a write of that
		// file, not of everything under a folder it names (git restores only
		// tracked files, and the git rules judge what that loses).
		return all(Write, false, gitPathspecs(g))
	}
	if gitNameOnly[g.Sub] {
		return nil
	}
	return argumentReads(g.Args)
}

// gitPathspecs are the paths after a "--" of a git command line.
func gitPathspecs(g Git) []Word {
	for i, a := range g.Args {
		if a.Known && a.Value == "--" {
			return g.Args[i+1:]
		}
	}
	return nil
}
