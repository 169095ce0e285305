package shellcmd

import (
	"path"
	"slices"
	"strings"
)

// stagedBy makes s, what git add or commit would stage, answer for the
// command line's own git rather than for a plain git in the same folder,
// and returns the folder whose files it selects:
//   - another repository, work tree or index (--git-dir, --work-tree,
//     --bare, GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ..., given to it or
//     exported by the line): a plain git would list another repository's
//     changes, so the folder is walked instead (not Staged) and every file
//     in it counted (Ignored, Untracked): the work tree named (its
//     pathspecs dropped unless it is the folder git runs in: they are
//     relative to that folder), or, with a git folder but no work tree
//     named, the folder git runs in, which git then takes for the top of
//     its work tree;
//   - an excludes file of its own (see ownExcludes);
//   - --icase-pathspecs or GIT_ICASE_PATHSPECS is passed on: .ENV then
//     names .env.
func stagedBy(c *Command, g Git, s *Selection) Word {
	where := gitRunsIn(c, g)
	if (len(g.Repo) > 0 || len(g.RepoEnv) > 0) && !g.plainRepo() {
		s.Staged, s.Ignored, s.Untracked = false, true, true
		if tree, named := g.workTree(); named {
			s.WholeTree = false
			if g.Dir == "" && c.Dir == "" && !path.IsAbs(tree.Value) {
				// Where git runs is the call's folder, as for the
				// folder itself (gitRunsIn): in a function's body.
				s.Rules = nil
				return tree
			}
			dir := chdir(g.Dir, tree)
			if dir != g.Dir {
				s.Rules = nil
			}
			return Word{Value: dir, Known: dir != ""}
		}
		if _, named := g.gitDir(); named {
			s.WholeTree = false
		}
		return where
	}
	if g.icasePathspecs() {
		s.GitOpts = append(s.GitOpts, "--icase-pathspecs")
	}
	s.GitOpts = append(s.GitOpts, g.ownExcludes()...)
	return where
}

// NoExcludesFile is what the guard's git is given for a command that may
// read another excludes file than the user's: none. The patterns of
// .gitignore files and .git/info/exclude take precedence over those of
// core.excludesFile, so no excludes file can make git stage a file that
// git without one would not: what is listed without one is the most the
// command may stage.
var NoExcludesFile = []string{"-c", "core.excludesFile=/dev/null"}

// ownExcludes are the options that make the guard's git read the
// excludes file the command's git reads, where that may not be the
// user's: the command's own -c core.excludesFile when it names an
// absolute file (or one in ~); NoExcludesFile when it names one another
// way (relative to a folder git chooses, not known), or when the command
// may set it where the guard's git must not look (an include, a
// --config-env, a HOME, XDG_CONFIG_HOME or GIT_CONFIG_* of its own: a
// configuration file the command chose may name programs to run).
func (g Git) ownExcludes() []string {
	own := false
	var opts []string
	for _, w := range g.Config {
		name, value, _ := strings.Cut(w.Value, "=")
		switch {
		case strings.ContainsAny(name, "$`\\\"'") || !w.Known && !strings.Contains(w.Value, "="):
			own = true // the key is not known
		case !IgnoreConfigKey(name):
		case strings.EqualFold(name, "core.excludesfile") && w.Known && (path.IsAbs(value) || strings.HasPrefix(value, "~/")):
			opts = append(opts, "-c", "core.excludesFile="+value)
		default:
			own = true
		}
	}
	for _, w := range g.ConfigEnv {
		name, _, _ := strings.Cut(w.Value, "=")
		own = own || !w.Known || IgnoreConfigKey(name)
	}
	for _, e := range g.Env {
		name, _, _ := strings.Cut(e.Value, "=")
		own = own || movesGitConfig(name)
	}
	if own {
		return NoExcludesFile
	}
	return opts
}

// plainRepo reports whether the repository options name only what git
// finds by itself in the folder it runs in, when that folder holds the
// .git folder: --git-dir=.git, --work-tree=. (git rev-parse would fail
// elsewhere, and the command with it).
func (g Git) plainRepo() bool {
	if g.Dir == "" {
		return false
	}
	for _, r := range append(slices.Clip(g.Repo), g.RepoEnv...) {
		name, v, _ := strings.Cut(r, "=")
		switch name {
		case "--git-dir", "GIT_DIR":
			if chdir(g.Dir, Word{Value: v, Known: true}) != path.Join(g.Dir, ".git") {
				return false
			}
		case "--work-tree", "GIT_WORK_TREE":
			if chdir(g.Dir, Word{Value: v, Known: true}) != g.Dir {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// workTree is the work tree the command names (--work-tree, else
// GIT_WORK_TREE), and whether it names one.
func (g Git) workTree() (Word, bool) { return g.repoValue("--work-tree", "GIT_WORK_TREE") }

// gitDir is the git folder the command names (--git-dir, else GIT_DIR).
func (g Git) gitDir() (Word, bool) { return g.repoValue("--git-dir", "GIT_DIR") }

// repoValue is the value of git's option opt, or else of the variable
// env, as the command gives them; an option given twice takes the last.
func (g Git) repoValue(opt, env string) (w Word, named bool) {
	for _, r := range g.Repo {
		if v, ok := strings.CutPrefix(r, opt+"="); ok {
			w, named = Word{Value: v, Known: true}, true
		}
	}
	if named {
		return w, true
	}
	for _, r := range g.RepoEnv {
		if v, ok := strings.CutPrefix(r, env+"="); ok {
			w, named = Word{Value: v, Known: true}, true
		}
	}
	return w, named
}

// icasePathspecs reports whether the command's pathspecs match without
// case: --icase-pathspecs, or GIT_ICASE_PATHSPECS set to anything but a
// known false.
func (g Git) icasePathspecs() bool {
	if g.Icase {
		return true
	}
	v, set := g.Lookup("GIT_ICASE_PATHSPECS")
	if !set {
		return false
	}
	switch strings.ToLower(v.Value) {
	case "", "0", "false", "no", "off":
		return !v.Known
	}
	return true
}

// IgnoreConfigKey reports whether a git configuration key may change
// which files git ignores: core.excludesFile, or an include of another
// configuration file that may set it.
func IgnoreConfigKey(key string) bool {
	k := strings.ToLower(key)
	return k == "core.excludesfile" || k == "include.path" || strings.HasPrefix(k, "includeif.")
}

// movesGitConfig reports whether an environment variable changes which
// configuration files git reads, or adds settings of its own.
func movesGitConfig(name string) bool {
	switch name {
	case "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT":
		return true
	}
	return strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}
