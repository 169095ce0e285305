package shellcmd

import (
	"path"
	"strings"
)

// stagedBy makes s, what git add or commit would stage, answer for the
// command line's own git rather than for a plain git in the same folder,
// and returns the folder whose files it selects:
//   - another repository, work tree or index (--git-dir, --work-tree,
//     --bare, GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ...): a plain git
//     would list another repository's changes, so the folder is walked
//     instead (not Staged) and every file in it counted (Ignored,
//     Untracked): the work tree named (its pathspecs dropped unless it is
//     the folder git runs in: they are relative to that folder), or, with
//     a git folder but no work tree named, the folder git runs in, which
//     git then takes for the top of its work tree;
//   - ignore rules of its own: a -c core.excludesFile naming a known file
//     is passed on (GitOpts); one not known, an include, a --config-env, or
//     a variable that moves git's configuration files (HOME,
//     XDG_CONFIG_HOME, GIT_CONFIG_*) counts ignored files too, since the
//     guard's git must not read configuration the command chose (it may
//     name programs to run);
//   - --icase-pathspecs or GIT_ICASE_PATHSPECS is passed on: .ENV then
//     names .env.
func stagedBy(c *Command, g Git, s *Selection) Word {
	where := gitRunsIn(c, g)
	if len(g.Repo) > 0 || len(g.RepoEnv) > 0 {
		s.Staged, s.Ignored, s.Untracked = false, true, true
		if tree, named := g.workTree(); named {
			dir := chdir(g.Dir, tree)
			s.WholeTree = false
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
	opts, own := g.ownExcludes()
	s.GitOpts = append(s.GitOpts, opts...)
	if own {
		s.Ignored = true
	}
	return where
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

// ownExcludes reads the command's own ignore configuration: the options
// that pass a known core.excludesFile on, and own true when the command
// may set ignore rules the guard's git cannot be given (see stagedBy).
func (g Git) ownExcludes() (opts []string, own bool) {
	for _, w := range g.Config {
		name, value, _ := strings.Cut(w.Value, "=")
		switch {
		case !w.Known:
			own = true
		case strings.EqualFold(name, "core.excludesfile"):
			if !strings.HasPrefix(value, "~") && !path.IsAbs(value) {
				value = chdir(g.Dir, Word{Value: value, Known: true})
			}
			if value == "" {
				own = true
				continue
			}
			opts = append(opts, "-c", "core.excludesFile="+value)
		case IgnoreConfigKey(name):
			own = true
		}
	}
	for _, w := range g.ConfigEnv {
		name, _, _ := strings.Cut(w.Value, "=")
		own = own || !w.Known || IgnoreConfigKey(name)
	}
	for _, e := range g.Env {
		name, _, _ := strings.Cut(e.Value, "=")
		own = own || !e.Known || movesGitConfig(name)
	}
	return opts, own
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
