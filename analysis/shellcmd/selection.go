package shellcmd

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Selection is which of the files below a folder a recursive read reaches:
// the reader's defaults (rg skips hidden and git-ignored files, git grep
// reads tracked ones, grep -r and tar read everything) and the include and
// exclude options it was given. Searchers and archivers set it on their
// Tree reads, so that a search of "." that would print .env is
// told from one that leaves .env out.
type Selection struct {
	// Reader names the program for messages ("grep -r", "rg", "tar").
	Reader string
	// Hidden: names that start with a dot are read (rg skips them, and
	// everything below such a folder, unless --hidden).
	Hidden bool
	// Ignored: files git ignores are read.
	Ignored bool
	// Untracked: files git does not track are read (git grep reads tracked
	// files only, unless --untracked or --no-index).
	Untracked bool
	// Staged: only the files git would stage are read (git add): those
	// changed since they were committed, and, with Untracked, the
	// untracked ones (git-ignored ones only with Ignored).
	Staged bool
	// WholeTree: the reader reads below the top of the git work tree
	// holding the folder it runs in, not below the folder (git add -A
	// and git commit -a without a pathspec, a :/ pathspec).
	WholeTree bool
	// Follow: links met below the folder are followed (grep -R, rg -L,
	// zip -r); otherwise a link is skipped or stored as a link.
	Follow bool
	// RevertsIgnores: the command line may put the .gitignore files back
	// as committed, or a stash's changes back, before a Staged selection
	// is staged: ignored files count too when a .gitignore differs from
	// its commit or the stash changes one.
	RevertsIgnores bool
	// IgnoreAsks are git commands (arguments) whose output names the
	// .gitignore files a command of the line would change before a
	// Staged selection is staged: ignored files count when one lists any.
	IgnoreAsks [][]string
	// RevertStashes are the stashes the line pops or applies by name
	// (stash@{1}; "" for one not known); none: the latest.
	RevertStashes []string
	// GitOpts are git's own options a git asked what a Staged selection
	// holds must take to answer as the command's git would
	// (--icase-pathspecs, -c core.excludesFile=FILE).
	GitOpts []string
	// Rules are the reader's include and exclude options, in order.
	Rules []Rule
	// Exclude is how to leave one file out with this reader: a format
	// whose %s is the file's name ("--exclude=%s"); "" when it has no
	// such option.
	Exclude string
	combine combine
}

// combine is how a reader weighs its rules when several match.
type combine uint8

const (
	// grepOrder: the last matching rule decides; with none, a file is
	// left out when the first file rule is an include (GNU grep).
	grepOrder combine = iota
	// rgOrder: the last matching glob decides; with none, a file is left
	// out when there is any include (rg -g).
	rgOrder
	// anyRule: a matching exclude leaves a path out; when there are
	// includes, a file must match one (git pathspecs, tar, zip).
	anyRule
)

// Rule is one include or exclude option of a reader.
type Rule struct {
	Style   Style
	Include bool
	Pattern Word
	// Fold: the pattern ignores case (rg --iglob).
	Fold bool
}

// Style is how a rule's pattern is matched, each as its program does.
type Style uint8

const (
	// GrepFile matches a file's base name (grep --include, --exclude).
	GrepFile Style = iota + 1
	// GrepDir matches a folder's base name (grep --exclude-dir).
	GrepDir
	// RgGlob is a gitignore-style glob (rg -g): one without a slash
	// matches a base name at any depth, one with a slash the path from
	// where rg runs; a trailing slash matches folders only. An include
	// reads what it matches whatever rg would skip otherwise.
	RgGlob
	// ToolGlob is an RgGlob whose starting point is not known (the CLIs'
	// search tools run rg where they choose): an include matching any
	// tail of the path counts, an exclude only the path from the folder
	// searched.
	ToolGlob
	// Pathspec is a git pathspec: a path prefix, or a wildcard pattern
	// whose * also matches slashes; :! and :(exclude) exclude.
	Pathspec
	// TarPattern is GNU tar's --exclude: a wildcard pattern, * matching
	// slashes too, that may match any tail of the member's name.
	TarPattern
	// ZipPattern is zip's -x and -i: a wildcard pattern, * matching
	// slashes too, matched against the whole name stored.
	ZipPattern
)

// Pick is what a reader's options make of one path.
type Pick uint8

const (
	// PickDefault: no option decides; the reader's defaults do (Hidden,
	// Ignored, Untracked).
	PickDefault Pick = iota
	// PickSkip: an option leaves the path out.
	PickSkip
	// PickForce: an option names the path, and the reader reads it
	// whatever its defaults (an rg glob reads a hidden or ignored file).
	PickForce
)

// Pick says what the rules make of the path rel (slash-separated) below
// the operand the reader was given, a folder when dir. A pattern whose
// value is not known includes everything and excludes nothing.
func (s *Selection) Pick(operand, rel string, dir bool) Pick {
	if len(s.Rules) == 0 {
		return PickDefault
	}
	p := place{operand: operand, rel: rel, dir: dir}
	switch s.combine {
	case anyRule:
		included, includes := false, false
		for _, r := range s.Rules {
			if !r.applies(dir) {
				continue
			}
			m := r.matches(p)
			if !r.Include && m {
				return PickSkip
			}
			if r.Include {
				includes = true
				included = included || m
			}
		}
		if includes && !included && !dir {
			return PickSkip
		}
		return PickDefault
	}
	first, anyInclude := Rule{}, false
	for i := len(s.Rules) - 1; i >= 0; i-- {
		r := s.Rules[i]
		if !r.applies(dir) {
			continue
		}
		if r.matches(p) {
			return r.pick()
		}
		first, anyInclude = r, anyInclude || r.Include
	}
	if dir {
		return PickDefault
	}
	if s.combine == grepOrder && first.Include || s.combine == rgOrder && anyInclude {
		return PickSkip
	}
	return PickDefault
}

// place is one path below a reader's operand.
type place struct {
	operand, rel string
	dir          bool
}

// name is the path from where the reader runs: the operand and rel,
// cleaned ("./src" and "src/" are "src").
func (p place) name() string { return path.Clean(path.Join(p.operand, p.rel)) }

func (p place) base() string { return path.Base(p.rel) }

// applies reports whether the rule looks at folders or files like this
// one: grep's file rules never judge a folder, nor --exclude-dir a file.
func (r Rule) applies(dir bool) bool {
	switch r.Style {
	case GrepFile, ZipPattern, Pathspec:
		return !dir
	case GrepDir:
		return dir
	}
	return true
}

func (r Rule) pick() Pick {
	switch {
	case !r.Include:
		return PickSkip
	case r.Style == RgGlob || r.Style == ToolGlob:
		return PickForce
	}
	return PickDefault
}

// matches reports whether the rule's pattern matches p, as the reader
// would match it.
func (r Rule) matches(p place) bool {
	if !r.Pattern.Known {
		return r.Include
	}
	pat := r.Pattern.Value
	switch r.Style {
	case GrepFile, GrepDir:
		ok, _ := path.Match(pat, p.base())
		return ok
	case RgGlob, ToolGlob:
		return r.globMatches(pat, p)
	case Pathspec:
		if strings.HasPrefix(pat, ":") {
			return r.Include // magic other than exclude: not judged
		}
		return pathspecMatches(pat, p.name())
	case TarPattern:
		return anyTail(p.operand+"/"+p.rel, func(s string) bool { return wildMatch(pat, s) })
	case ZipPattern:
		return wildMatch(pat, strings.TrimPrefix(p.name(), "./"))
	}
	return false
}

// globMatches matches a gitignore-style glob of rg.
func (r Rule) globMatches(pat string, p place) bool {
	if BraceHeavy(pat) {
		// Too many alternatives to try in time: an include selects
		// everything and an exclude leaves nothing out.
		return r.Include
	}
	dirOnly := strings.HasSuffix(pat, "/")
	pat = strings.TrimSuffix(pat, "/")
	if dirOnly && !p.dir {
		return false
	}
	name, base := p.name(), p.base()
	if r.Fold {
		pat, name, base = strings.ToLower(pat), strings.ToLower(name), strings.ToLower(base)
	}
	anchored, _ := strings.CutPrefix(pat, "/")
	if !strings.Contains(anchored, "/") && anchored == pat {
		ok, _ := doublestar.Match(pat, base)
		return ok
	}
	if r.Style == ToolGlob {
		// Where the tool runs rg is its own choice: an include counts if
		// any reading of it matches, an exclude only the plainest one.
		if !r.Include {
			rel, _ := doublestar.Match(anchored, path.Clean(p.rel))
			full, _ := doublestar.Match(anchored, name)
			return rel && full
		}
		return anyTail(name, func(s string) bool { ok, _ := doublestar.Match(anchored, s); return ok })
	}
	ok, _ := doublestar.Match(anchored, name)
	return ok
}

// pathspecMatches matches a git pathspec without magic against name,
// the path from where git runs.
func pathspecMatches(spec, name string) bool {
	spec = strings.TrimPrefix(path.Clean(spec), "./")
	if spec == "." || spec == name || strings.HasPrefix(name, spec+"/") {
		return true
	}
	return strings.ContainsAny(spec, "*?[") && wildMatch(spec, name)
}

// cutExclude strips the exclude magic of a pathspec (:!x, :^x,
// :(exclude)x).
func cutExclude(spec string) (string, bool) {
	for _, magic := range []string{":!", ":^", ":(exclude)"} {
		if rest, ok := strings.CutPrefix(spec, magic); ok {
			return rest, true
		}
	}
	return spec, false
}

// anyTail reports whether match accepts name or any tail of it that
// starts after a slash.
func anyTail(name string, match func(string) bool) bool {
	for {
		if match(name) {
			return true
		}
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return false
		}
		name = name[i+1:]
	}
}

// wildMatch is fnmatch without FNM_PATHNAME: * and ? match slashes too,
// as git pathspecs, tar and zip patterns do.
func wildMatch(pattern, name string) bool {
	// path.Match stops * at a slash: with slashes made ordinary
	// characters in both, it does not.
	const sep = "\x00"
	ok, _ := path.Match(strings.ReplaceAll(pattern, "/", sep), strings.ReplaceAll(name, "/", sep))
	return ok
}
