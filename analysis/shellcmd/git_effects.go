package shellcmd

import (
	"slices"
	"strings"
)

// gitNameOnly says whether sub is a git subcommand that takes paths or
// names without printing what the files hold.
func gitNameOnly(sub string) bool {
	switch sub {
	case "status", "check-ignore", "check-attr", "ls-files",
		"init", "clone", "fetch", "pull", "push", "remote",
		"branch", "switch", "tag", "stash", "reset", "clean",
		"merge", "rebase", "cherry-pick", "revert", "worktree",
		"config", "rev-parse", "describe":
		return true
	}
	return false
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
	case "grep":
		return gitGrepEffects(c, g)
	case "add":
		return gitAddEffects(c, g)
	case "update-index":
		return gitUpdateIndexEffects(c, g)
	case "diff":
		if hasWord(g.Args, "--no-index") {
			// Two paths compared as diff -r compares them: every file
			// below a folder, printed whole when on one side only.
			var ops []Word
			for _, a := range g.Args {
				if !a.IsFlag() {
					ops = append(ops, a)
				}
			}
			return searched(&Selection{Reader: "git diff --no-index", Hidden: true, Ignored: true, Untracked: true}, ops)
		}
	case "commit":
		// Its words may name what it commits (git commit .env) or a
		// message file (-F .env); with -a it stages every tracked file
		// changed, as add -u does.
		reads := argumentReads(g.Args)
		switch l := g.Line; {
		case l.On('a', "all"):
			reads = append(reads, gitStaged(c, g, &Selection{Reader: "git commit -a", Hidden: true, Staged: true, WholeTree: true, combine: anyRule})...)
		case len(l.Operands) > 0:
			// git commit PATHS commits the changed tracked files they
			// select, staged or not.
			s := &Selection{Reader: "git commit", Hidden: true, Staged: true, Exclude: "':(exclude)%s'", combine: anyRule}
			addPathspecs(s, l.Operands)
			reads = append(reads, gitStaged(c, g, s)...)
		}
		return reads
	case "checkout", "restore":
		// Each named file gets its committed content back: a write of that
		// file, not of everything under a folder it names (git restores only
		// tracked files, and the git rules judge what that loses).
		return all(Write, false, gitPathspecs(g))
	}
	if gitNameOnly(g.Sub) {
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

// gitGrepEffects: git grep reads the tracked files below the folder git
// runs in (--untracked adds those git does not ignore, --no-index reads
// every file), limited by its pathspecs. Its other operands may be
// revisions, whose files it reads too (git grep x HEAD:.env), so they
// are read as argumentReads reads them, unless an option that takes no
// revision (--untracked, --no-index, --cached) makes them pathspecs.
func gitGrepEffects(c *Command, g Git) []Effect {
	l := g.Line
	ops := l.Operands
	dash := l.DashAt
	if !l.Has('e', "") && !l.Has('f', "") && len(ops) > 0 {
		ops, dash = ops[1:], dash-1
	}
	noIndex, untracked := l.On(0, "no-index"), l.On(0, "untracked")
	s := &Selection{Reader: "git grep", Hidden: true,
		Untracked: untracked || noIndex,
		Ignored:   noIndex && !l.On(0, "exclude-standard") || untracked && l.On(0, "no-exclude-standard"),
		Exclude:   "':(exclude)%s'", combine: anyRule}
	specs, revs := ops, []Word(nil)
	if !untracked && !noIndex && !l.On(0, "cached") {
		if dash < 0 {
			dash = len(ops)
		}
		specs, revs = ops[max(dash, 0):], ops[:max(dash, 0)]
	}
	for _, w := range specs {
		r := Rule{Style: Pathspec, Include: true, Pattern: w}
		if rest, ok := cutExclude(w.Value); ok && w.Known {
			r.Include, r.Pattern = false, part(w, rest)
		}
		s.Rules = append(s.Rules, r)
	}
	return append([]Effect{{Op: Read, Path: gitRunsIn(c, g), Tree: true, Select: s}}, argumentReads(revs)...)
}

// gitAddEffects: git add stages what its pathspecs name, and a staged
// file's content goes into the index, then a commit and wherever that is
// pushed: each operand is read as argumentReads reads it (git add .env),
// and every file below the folder git runs in that a pathspec selects (.,
// src, *.go) and git would stage is read too: untracked ones git does not
// ignore (-f: ignored ones too; -u: none), and tracked ones changed since
// they were committed (a committed key left as it is stages nothing new).
// -A or -u without a pathspec stages the whole work tree (see
// addPathspecs). A dry run stages nothing; --pathspec-from-file names
// files that are not known, so everything is judged.
func gitAddEffects(c *Command, g Git) []Effect {
	l := g.Line
	if l.On('n', "dry-run") {
		return nil
	}
	update := l.On('u', "update")
	s := &Selection{Reader: "git add", Hidden: true, Untracked: !update, Ignored: l.On('f', "force"), Staged: true,
		Exclude: "':(exclude)%s'", combine: anyRule}
	specs := l.Operands
	if len(specs) == 0 && !l.On('A', "all") && !update && !l.Has(0, "pathspec-from-file") {
		return nil // "Nothing specified, nothing added."
	}
	addPathspecs(s, specs)
	if l.Has(0, "pathspec-from-file") {
		s.Rules = nil
	}
	// The files named come first: a denial names .env itself for git add .env.
	return append(argumentReads(specs), gitStaged(c, g, s)...)
}

// gitUpdateIndexEffects: git update-index --add stages the files it
// names, whatever git ignores: each word is read as argumentReads reads
// it. Names it reads from stdin (--stdin, --index-info), or a word not
// known, may be any file: everything git could stage below the work tree
// is judged, ignored files too.
func gitUpdateIndexEffects(c *Command, g Git) []Effect {
	reads := argumentReads(g.Args)
	if !hasWord(g.Args, "--add") && !hasWord(g.Args, "--index-info") {
		return reads
	}
	fromInput := hasWord(g.Args, "--stdin") || hasWord(g.Args, "--index-info") ||
		slices.ContainsFunc(g.Args, func(w Word) bool { return !w.Known })
	if !fromInput {
		return reads
	}
	s := &Selection{Reader: "git update-index", Hidden: true, Staged: true, Untracked: true, Ignored: true,
		WholeTree: true, combine: anyRule}
	return append(reads, gitStaged(c, g, s)...)
}

// hasWord reports whether words hold the known word w.
func hasWord(words []Word, w string) bool {
	return slices.ContainsFunc(words, func(a Word) bool { return a.Known && a.Value == w })
}

// addPathspecs makes specs s's rules. Without one, git add -A and -u
// stage the whole work tree; so does a pathspec from the top (:/), or
// one not known, judged as selecting everything.
func addPathspecs(s *Selection, specs []Word) {
	for _, w := range specs {
		r := Rule{Style: Pathspec, Include: true, Pattern: w}
		if rest, ok := cutExclude(w.Value); ok && w.Known {
			r.Include, r.Pattern = false, part(w, rest)
		}
		s.Rules = append(s.Rules, r)
	}
	s.WholeTree = len(specs) == 0
	for _, w := range specs {
		if strings.HasPrefix(w.Value, ":/") || strings.HasPrefix(w.Value, ":(top") || !w.Known {
			s.WholeTree, s.Rules = true, nil
		}
	}
}

// gitStaged is the read of what s selects below the folder git runs in,
// made to answer for the command line's own git (see stagedBy).
func gitStaged(c *Command, g Git, s *Selection) []Effect {
	return []Effect{{Op: Read, Path: stagedBy(c, g, s), Tree: true, Select: s}}
}

// gitRunsIn is the folder git runs in, as a word: the command's own (.),
// or where -C leads (not known when -C's folder is not).
func gitRunsIn(c *Command, g Git) Word {
	if g.Dir != c.Dir {
		return Word{Value: g.Dir, Known: g.Dir != ""}
	}
	return Word{Value: ".", Known: true}
}
