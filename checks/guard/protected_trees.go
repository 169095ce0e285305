package guard

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
)

// Folder reads: `grep -r KEY .`, `tar czf x.tgz .` and a search tool given
// a folder print or pack every file below it that the reader selects, so a
// protected file inside is read though no word names it. Only reads that
// carry a Selection (searchers, archivers, the agents' search tools) are
// walked, so an ordinary call pays nothing; the walk is bounded by entries
// and time, and asks git only about the protected files it found.

// treeBudget is how many folder entries a folder read's walk reads at
// most (a 5,000-file project is about 6,000), and treeTime how long the
// walks of one call may take together; variables, so that a test can run
// out of them.
var (
	treeBudget = 50000
	treeTime   = time.Second
	// treeExpired starts the clock of one call's walks: the function it
	// returns says when the time is spent. A test replaces it.
	treeExpired = func() func() bool {
		end := time.Now().Add(treeTime)
		return func() bool { return time.Now().After(end) }
	}
)

// treeRead is a folder read as protectedPaths judges it: the folder, as
// written and resolved, and what its reader selects.
type treeRead struct {
	word string // the operand as the reader received it
	rp   fspath.Path
	sel  *shellcmd.Selection
}

// tree judges the files below the folder an effect reads: the first
// protected file the reader would read, if any. A word that is not
// known, or not a folder, is judged by word alone.
func (g *guard) tree(ctx context.Context, e shellcmd.Effect, dir string) *finding {
	w := e.Path
	if e.Select == nil || !e.Tree || !w.Known || w.Value == "" {
		return nil
	}
	if dir == "" {
		dir = g.Cwd
	}
	words := []string{w.Value}
	if e.Select.WholeTree {
		// git add -A from a subfolder stages the whole work tree.
		if top := gitTop(g.paths.Resolve(w.Value, dir).Real); top != "" {
			words = []string{top}
		}
	} else if w.Glob {
		pattern := w.Value
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(escapeGlob(dir), pattern)
		}
		if m := globFiles(pattern); len(m) > 0 {
			words = m
		}
	}
	for _, p := range words {
		if strings.HasPrefix(p, "~/") && g.Home != "" {
			p = filepath.Join(g.Home, p[2:])
		}
		t := treeRead{word: p, rp: g.paths.Resolve(p, dir), sel: e.Select}
		if f := g.folder(ctx, t); f != nil {
			return f
		}
	}
	return nil
}

// candidate is a protected file a walk found that the reader's defaults
// and options do not leave out.
type candidate struct {
	rel, pattern string
	forced       bool // an option names it: read even if git ignores it
}

// folder walks one folder read.
func (g *guard) folder(ctx context.Context, t treeRead) *finding {
	if !isDir(t.rp) {
		return nil
	}
	root := t.rp.Real
	if t.sel.Staged && (t.sel.RevertsIgnores && ignoresReverted(ctx, root, t.sel.RevertStashes) || ignoresAsked(ctx, root, t.sel.IgnoreAsks)) {
		s := *t.sel
		s.Ignored = true
		t.sel = &s
	}
	if t.sel.Staged {
		if f, ok := g.staged(ctx, t, root); ok {
			return f
		}
		// git could not answer: the folder is walked (fail-closed).
	}
	found, complete := g.walkTree(t, root, nil)
	if !complete && !t.sel.Ignored {
		// Ignored folders (node_modules, build output) are often most of a
		// project: with them known, a reader that skips them is walked again.
		if skip := ignoredDirs(ctx, root); skip != nil {
			found, complete = g.walkTree(t, root, skip)
		}
	}
	found = g.readBy(ctx, t.sel, root, found)
	if len(found) > 0 {
		c := found[0]
		return &finding{path: g.Project.Display(t.rp), pattern: c.pattern, via: t.sel,
			holds:    g.Project.Display(fspath.Path{Lexical: filepath.Join(t.rp.Lexical, filepath.FromSlash(c.rel))}),
			leaveOut: path.Base(c.rel)}
	}
	if !complete {
		if pat := g.couldRead(t); pat != "" {
			return &finding{path: g.Project.Display(t.rp), pattern: pat, via: t.sel, tooBig: true}
		}
	}
	return nil
}

// staged judges what git add (or commit -a) would stage below root, as
// git itself lists it (ls-files --modified --others --exclude-standard,
// with the command's pathspecs): no walk of the folder, so a work tree of
// any size is judged by what changed in it. ok is false when git could not
// answer.
func (g *guard) staged(ctx context.Context, t treeRead, root string) (f *finding, ok bool) {
	var specs []string
	for _, r := range t.sel.Rules {
		if !r.Pattern.Known {
			specs = nil // a pathspec not known: everything is judged
			break
		}
		if r.Include {
			specs = append(specs, r.Pattern.Value)
		} else {
			specs = append(specs, ":(exclude)"+r.Pattern.Value)
		}
	}
	if len(specs) > 0 && !slices.ContainsFunc(t.sel.Rules, func(r shellcmd.Rule) bool { return r.Include }) {
		specs = append(specs, ".") // only excludes: git adds them to everything
	}
	names, ok := gitNames(ctx, hookenv.RepoWith(root, t.sel.GitOpts), specs, stagedList(t.sel)...)
	if !ok {
		return nil, false
	}
	for _, rel := range names {
		full := filepath.Join(root, filepath.FromSlash(rel))
		if pat := g.protects(g.read, g.formOf(full), t.rp.Fold); pat != "" {
			return &finding{path: g.Project.Display(t.rp), pattern: pat, via: t.sel,
				holds:    g.Project.Display(fspath.Path{Lexical: filepath.Join(t.rp.Lexical, filepath.FromSlash(rel))}),
				leaveOut: path.Base(rel)}, true
		}
	}
	return nil, true
}

// stagedList is the git command that lists what s's git add would
// stage: the tracked files changed, and with Untracked the untracked ones
// git does not ignore (ignored ones too with Ignored).
func stagedList(s *shellcmd.Selection) []string {
	cmd := []string{"ls-files", "--modified"}
	if s.Untracked {
		cmd = append(cmd, "--others")
		if !s.Ignored {
			cmd = append(cmd, "--exclude-standard")
		}
	}
	return cmd
}

// isDir reports whether rp, resolved following its links, ends at a
// folder: what its walk found, which the call's paths cache already
// holds. A link the walk stopped at (a loop) is asked about as the kernel
// follows it.
func isDir(rp fspath.Path) bool {
	info := rp.Info()
	if info != nil && info.Mode()&fs.ModeSymlink != 0 {
		info, _ = os.Stat(rp.Real)
	}
	return info != nil && info.IsDir()
}

// walkTree lists the protected files below root that t's reader selects,
// skipping the folders it skips (and .git, and the folders in skip,
// relative to root). complete is false when the walk ran out of entries
// or time.
func (g *guard) walkTree(t treeRead, root string, skip map[string]bool) (found []candidate, complete bool) {
	s := t.sel
	hiddenSkipped := func(rel string, dir bool) bool {
		return !s.Hidden && strings.HasPrefix(path.Base(rel), ".") && s.Pick(t.word, rel, dir) != shellcmd.PickForce
	}
	names := newBaseFilter(g.read)
	if g.expired == nil {
		g.expired = treeExpired()
	}
	search := fspath.Search{Root: root, Budget: treeBudget, Expired: g.expired,
		Enter: func(rel string) bool {
			return path.Base(rel) != ".git" && !skip[rel] && !hiddenSkipped(rel, true) &&
				s.Pick(t.word, rel, true) != shellcmd.PickSkip
		}}
	complete = search.Walk(func(rel string, e fs.DirEntry) bool {
		if skip[rel] || hiddenSkipped(rel, false) {
			return true
		}
		full := filepath.Join(root, filepath.FromSlash(rel))
		pat := ""
		switch typ := e.Type(); {
		case typ.IsRegular():
			if names.may(e.Name()) {
				pat = g.protects(g.read, g.formOf(full), t.rp.Fold)
			}
		case typ&fs.ModeSymlink != 0 && s.Follow:
			// A link the reader follows reads its target.
			if f := g.judge(full, root, false, true); f != nil {
				pat = f.pattern
			}
		}
		if pat == "" {
			return true
		}
		switch s.Pick(t.word, rel, false) {
		case shellcmd.PickSkip:
		case shellcmd.PickForce:
			found = append(found, candidate{rel: rel, pattern: pat, forced: true})
		default:
			found = append(found, candidate{rel: rel, pattern: pat})
		}
		return true
	})
	return found, complete
}

// baseFilter knows the last segments of a list of patterns, so that a
// walk matches a file against the patterns only when its name could
// match one: most files of a project match none.
type baseFilter struct {
	names map[string]bool
	globs []string
	all   bool // a last segment that ** or a brace makes hard to read
}

func newBaseFilter(patterns []string) baseFilter {
	b := baseFilter{names: map[string]bool{}}
	for _, pat := range patterns {
		last := strings.ToLower(path.Base(pat))
		switch {
		case last == "**" || strings.ContainsAny(last, "{\\"):
			b.all = true
		case strings.ContainsAny(last, "*?["):
			b.globs = append(b.globs, last)
		default:
			b.names[last] = true
		}
	}
	return b
}

// may reports whether a file named name could match a pattern. Case is
// ignored, as on a case-insensitive folder: a "may" that is wrong only
// costs the full match.
func (b baseFilter) may(name string) bool {
	if b.all {
		return true
	}
	name = strings.ToLower(name)
	if b.names[name] {
		return true
	}
	for _, g := range b.globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// readBy keeps the candidates the reader reads once git has its say: not
// those git ignores when the reader honours .gitignore (unless an option
// names them; a tracked file is never ignored, which errs towards
// denying for rg), not the untracked ones when it reads tracked files
// only, and for git add only what it would stage.
// When git cannot answer, every candidate stays (fail-closed); outside a
// repository git ignores and tracks nothing.
func (g *guard) readBy(ctx context.Context, s *shellcmd.Selection, root string, found []candidate) []candidate {
	if len(found) == 0 || s.Ignored && s.Untracked && !s.Staged {
		return found
	}
	var asked []string
	for _, c := range found {
		if !c.forced {
			asked = append(asked, c.rel)
		}
	}
	if len(asked) == 0 {
		return found
	}
	r := hookenv.RepoWith(root, s.GitOpts)
	drop := map[string]bool{}
	if s.Staged {
		// The walk's finds that git add would stage.
		if staged, ok := gitNames(ctx, r, asked, stagedList(s)...); ok {
			keep := map[string]bool{}
			for _, n := range staged {
				keep[n] = true
			}
			for _, n := range asked {
				drop[n] = !keep[n]
			}
		}
		return keptBy(found, drop)
	}
	if !s.Ignored {
		if ignored, ok := gitNames(ctx, r, asked, "check-ignore"); ok {
			for _, n := range ignored {
				drop[n] = true
			}
		}
	}
	if !s.Untracked {
		if tracked, ok := gitNames(ctx, r, asked, "ls-files"); ok {
			keep := map[string]bool{}
			for _, n := range tracked {
				keep[n] = true
			}
			for _, n := range asked {
				drop[n] = drop[n] || !keep[n]
			}
		}
	}
	return keptBy(found, drop)
}

// keptBy is found without the candidates drop names (a forced one stays).
func keptBy(found []candidate, drop map[string]bool) []candidate {
	var out []candidate
	for _, c := range found {
		if c.forced || !drop[c.rel] {
			out = append(out, c)
		}
	}
	return out
}

// gitNames runs `git check-ignore` or `git ls-files` (cmd) on names,
// relative to r's folder, and returns the names it prints. ok is false
// when git could not answer; outside a repository it answers nothing.
func gitNames(ctx context.Context, r hookenv.GitRepo, names []string, cmd ...string) (out []string, ok bool) {
	sub, sep := cmd[0], "\x00"
	args := append([]string{"-c", "core.quotePath=false"}, cmd...)
	if sub == "ls-files" {
		args = append(args, "-z")
	} else {
		// check-ignore takes -z only with --stdin: a name git quotes even
		// so (a control character in it) matches none asked, and stays.
		sep = "\n"
	}
	res, err := r.Run(ctx, 1<<20, append(append(args, "--"), names...)...)
	switch {
	case hookenv.NoRepo(err):
		return nil, true
	case err != nil, res.Oversize: // a list cut short is no answer
		return nil, false
	case sub == "check-ignore" && res.ExitCode > 1, sub == "ls-files" && res.ExitCode != 0:
		return nil, false
	}
	for _, n := range strings.Split(string(res.Stdout), sep) {
		if n != "" {
			out = append(out, n)
		}
	}
	return out, true
}

// ignoredDirs lists the folders and files git ignores below root, relative to it;
// nil outside a repository or when git cannot say.
func ignoredDirs(ctx context.Context, root string) map[string]bool {
	res, err := hookenv.GitRepo{Dir: root}.Run(ctx, 4<<20, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil || res.ExitCode != 0 {
		return nil
	}
	out := map[string]bool{}
	for _, n := range strings.Split(string(res.Stdout), "\x00") {
		if n != "" {
			out[strings.TrimSuffix(n, "/")] = true
		}
	}
	return out
}

// couldRead returns a read pattern a file the reader selects could match,
// "" when its options leave out every file the patterns protect: a walk
// that ran out decides fail-closed only then. Each pattern is tried on a
// file named as it names one (**/*.pem as x.pem).
func (g *guard) couldRead(t treeRead) string {
	for _, pat := range g.read {
		name := path.Base(pat)
		if strings.ContainsAny(name, "{[\\") {
			return pat // too rich to name a sample of: it could match
		}
		name = strings.NewReplacer("*", "x", "?", "x").Replace(name)
		for _, rel := range []string{name, "x/" + name} {
			hidden := !t.sel.Hidden && strings.HasPrefix(name, ".")
			switch t.sel.Pick(t.word, rel, false) {
			case shellcmd.PickForce:
				return pat
			case shellcmd.PickDefault:
				if !hidden {
					return pat
				}
			}
		}
	}
	return ""
}

// treeReason is the denial of a folder read that reaches a protected
// file, saying how to leave it out.
func treeReason(f *finding) string {
	s := f.via
	if f.tooBig {
		return fmt.Sprintf("⚠️ BLOCKED: %s reads the files below '%s', and that folder is too big to check for protected files (more than %d entries, or %s) such as those of rule %q. "+
			"Search named files or a smaller folder instead, or leave protected files out with the reader's options.",
			s.Reader, f.path, treeBudget, treeTime, f.pattern)
	}
	how := "search or pack named files, or a folder that does not hold it"
	if s.Exclude != "" {
		how = fmt.Sprintf("leave it out with %s, or %s", fmt.Sprintf(s.Exclude, f.leaveOut), how)
	}
	return fmt.Sprintf("⚠️ BLOCKED: %s reads the files below '%s', and would read %s, a protected path (rule %q). Leave it alone: %s; if you really need what is in it, ask the user.",
		s.Reader, f.path, f.holds, f.pattern, how)
}
