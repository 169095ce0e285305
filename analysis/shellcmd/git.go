package shellcmd

import (
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Git is a git command line read as git 2.39 reads it: its own options
// first (-C DIR moves it, -c NAME=VALUE sets configuration, --git-dir and
// --work-tree choose the repository), then the subcommand, its action for
// the subcommands that take one (stash drop, worktree remove), and the
// arguments, read against the subcommand's option table.
type Git struct {
	Sub string
	// Verb is the action of a subcommand that takes one (stash, worktree,
	// reflog, submodule, bisect): "drop" in git stash drop; "push" for a
	// bare `git stash` or `git stash -p`. "" for other subcommands.
	Verb string
	Args []Word // the words after Sub (and Verb)
	// SubAt is the index in the command's Args of the subcommand.
	SubAt int
	// Dir is the directory git starts in, after -C, from the command's
	// own directory; "" when it cannot be known (-C $X, an option of
	// git's own that git does not know).
	Dir string
	// Repo lists git's own options that choose the repository or its
	// work tree (--git-dir, --work-tree, --bare, --namespace) as given,
	// and RepoEnv the variables of the command's environment that do
	// (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ...), so that a read-only
	// git started in Dir with them looks at the same repository.
	Repo, RepoEnv []string
	// Config lists the -c NAME=VALUE words; ConfigEnv the --config-env
	// NAME=ENVVAR words (the value is the variable's).
	Config, ConfigEnv []Word
	// ExecPath is the directory of --exec-path=DIR, where git looks for
	// its own programs; HasExecPath says it was given.
	ExecPath    Word
	HasExecPath bool
	// Env is the command's environment: what the line exports
	// (Command.LineEnv), then its own (Command.Env).
	Env []Word
	// Icase: --icase-pathspecs, pathspecs match without case.
	Icase bool
	// Unknown: an option of git's own that git 2.39 does not know. git
	// refuses it, but another version may read it (and the words after
	// it) in a way we cannot tell.
	Unknown bool
	// Help: the command only shows help (git help, -h, --help).
	Help bool
	// Line is Args read against the option table of the subcommand (and
	// verb); Known is false when there is no table for them.
	Line  Line
	Known bool
}

// IsGit reports whether a program name is git's: git, or one of its own
// programs run directly (git-add), which Command.Git reads as git.
func IsGit(base string) bool {
	return base == "git" || strings.HasPrefix(base, "git-") && len(base) > len("git-")
}

// Git reads c as a git command line. ok is false when c is not git or
// names no subcommand that can be known.
func (c *Command) Git(dir string) (g Git, ok bool) {
	args := c.Args
	if base := c.Base(); base != "git" {
		if !IsGit(base) {
			return Git{}, false
		}
		sub := strings.TrimPrefix(base, "git-")
		// One of git's own programs run directly
		// (/usr/lib/git-core/git-add -A) is that subcommand.
		args = append([]Word{{Raw: c.Name.Raw, Value: sub, Known: true}}, c.Args...)
	}
	if c.Dir != "" {
		dir = c.Dir
	}
	g.Env = c.Env
	if len(c.LineEnv) > 0 {
		g.Env = append(c.LineEnv, c.Env...) // its own assignments last: they win
	}
	known := true // dir is known
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value // an unknown word keeps its source text: --git-dir=$G

		// value reads the argument of an option that takes one, attached
		// (--git-dir=X) or as the next word (--git-dir X).
		value := func(name string) (Word, bool) {
			if rest, ok := strings.CutPrefix(v, name+"="); ok {
				return part(a, rest), true
			}
			if v == name && i+1 < len(args) {
				i++
				return args[i], true
			}
			return Word{}, false
		}
		if w, ok := value("--config-env"); ok {
			g.ConfigEnv = append(g.ConfigEnv, w)
			continue
		}
		if w, ok := value("--git-dir"); ok {
			g.addRepo("--git-dir", w, &known)
			continue
		}
		if w, ok := value("--work-tree"); ok {
			g.addRepo("--work-tree", w, &known)
			continue
		}
		if w, ok := value("--namespace"); ok {
			g.addRepo("--namespace", w, &known)
			continue
		}
		if _, ok := value("--super-prefix"); ok {
			continue
		}
		switch {
		case v == "-C" && i+1 < len(args):
			i++
			if !args[i].Known {
				known = false
			}
			dir = chdir(dir, args[i])
		case v == "-c" && i+1 < len(args):
			i++
			g.Config = append(g.Config, args[i])
		case strings.HasPrefix(v, "--exec-path="):
			g.ExecPath, g.HasExecPath = part(a, v[len("--exec-path="):]), true
		case v == "--exec-path" || v == "--html-path" || v == "--man-path" || v == "--info-path" ||
			strings.HasPrefix(v, "--list-cmds="):
			return Git{}, false // prints and exits
		case v == "--bare":
			g.Repo = append(g.Repo, v)
		case v == "--icase-pathspecs":
			g.Icase = true
		case gitFlag(v):
		case v == "-h" || v == "--help" || v == "-v" || v == "--version":
			g.Sub, g.Help = "help", true
			return g, true
		case len(v) > 0 && v[0] == '-':
			g.Unknown = true
		case !a.Known:
			return Git{}, false // the subcommand cannot be known
		default:
			if v == "stage" {
				v = "add" // git stage is git add by another name
			}
			g.Sub, g.SubAt, g.Args = v, i, args[i+1:]
			g.readEnv(&known)
			if known && !g.Unknown {
				g.Dir = dir
			}
			g.readSub()
			return g, true
		}
	}
	return Git{}, false
}

// gitFlag says whether opt is one of git's own options that take no
// argument and do not change which repository it works on.
func gitFlag(opt string) bool {
	switch opt {
	case "-p", "--paginate", "-P", "--no-pager", "--no-replace-objects",
		"--literal-pathspecs", "--no-literal-pathspecs", "--glob-pathspecs",
		"--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks":
		return true
	}
	return false
}

// addRepo notes a repository option; an unknown value leaves the
// repository unknown.
func (g *Git) addRepo(name string, w Word, known *bool) {
	if !w.Known {
		*known = false
		return
	}
	g.Repo = append(g.Repo, name+"="+w.Value)
}

// repoVars are the environment variables that choose the repository, its
// work tree or its index.
var repoVars = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_NAMESPACE": true,
		"GIT_COMMON_DIR": true, "GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true,
		"GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true,
	}
}}

// readEnv takes the repository variables from the command's environment,
// each as it is last given (the command's own over what the line
// exports).
func (g *Git) readEnv(known *bool) {
	for i, e := range g.Env {
		name, _, _ := strings.Cut(e.Value, "=")
		if !repoVars.Get()[name] || setLater(g.Env[i+1:], name) {
			continue
		}
		if !e.Known {
			*known = false
			continue
		}
		g.RepoEnv = append(g.RepoEnv, e.Value)
	}
}

// setLater reports whether env gives name a value.
func setLater(env []Word, name string) bool {
	return slices.ContainsFunc(env, func(e Word) bool { return strings.HasPrefix(e.Value, name+"=") })
}

// Lookup returns the value of the environment variable name in the
// command's environment: set says it is assigned there.
func (g Git) Lookup(name string) (value Word, set bool) {
	for _, e := range g.Env {
		if n, v, ok := strings.Cut(e.Value, "="); ok && n == name {
			value, set = part(e, v), true
		}
	}
	return value, set
}

// gitVerbs lists, for the subcommands that take an action, the actions
// (ok false for the others). A stash without one (git stash, git stash -p)
// is a push.
func gitVerbs(sub string) (verbs string, ok bool) {
	switch sub {
	case "stash":
		return "list show drop pop apply branch push save clear create store", true
	case "worktree":
		return "add list lock move prune remove repair unlock", true
	case "reflog":
		return "show expire delete exists", true
	case "submodule":
		return "add status init deinit update set-branch set-url summary foreach sync absorbgitdirs", true
	case "bisect":
		return "help start bad good new old terms skip next reset visualize view replay log run", true
	case "sparse-checkout":
		return "list set add reapply disable init check-rules", true
	}
	return "", false
}

// readSub finds the verb and reads the arguments against their table.
func (g *Git) readSub() {
	key := g.Sub
	if verbs, ok := gitVerbs(g.Sub); ok {
		args := g.Args
		if g.Sub == "submodule" {
			// git submodule [--quiet] [--cached] VERB ...
			for len(args) > 0 && args[0].Known && (args[0].Value == "--quiet" || args[0].Value == "-q" || args[0].Value == "--cached") {
				args = args[1:]
			}
		}
		switch {
		case len(args) > 0 && args[0].Known && hasField(verbs, args[0].Value):
			g.Verb, g.Args = args[0].Value, args[1:]
		case g.Sub == "stash" && (len(args) == 0 || args[0].IsFlag()):
			g.Verb = "push"
		case g.Sub == "reflog" && (len(args) == 0 || args[0].IsFlag()):
			g.Verb = "show"
		}
		key = g.Sub + " " + g.Verb
	}
	if g.Sub == "help" {
		g.Help = true
		return
	}
	t := gitOptions.get(key)
	if t == nil {
		return
	}
	g.Line, g.Known = t.Parse(g.Args), true
	for _, o := range g.Line.Opts {
		// parse-options answers -h and --help itself, unless the command
		// has an option of that name (grep -h).
		if o.Unknown && (o.Short == 'h' || o.Long == "help" || o.Long == "help-all") {
			g.Help = true
		}
	}
}

func hasField(fields, s string) bool {
	for _, f := range strings.Fields(fields) {
		if f == s {
			return true
		}
	}
	return false
}

// Readings returns the ways git may read the arguments: the table's, and,
// when an option is not in the table, also the one where each such
// option takes the word after it as its argument, so that a rule can
// judge the worst of them (git checkout --unknown main file.txt may check
// out file.txt from main, or main and file.txt from the index).
func (g Git) Readings() []Line {
	if !g.Known || !g.Line.Unknown() {
		return []Line{g.Line}
	}
	drop := map[int]bool{}
	opts := g.Line.Opts
	for k, o := range opts {
		lastInWord := k+1 == len(opts) || opts[k+1].At != o.At
		if o.Unknown && !o.HasVal && lastInWord && o.At+1 < len(g.Args) {
			drop[o.At+1] = true
		}
	}
	if len(drop) == 0 {
		return []Line{g.Line}
	}
	var rest []Word
	for i, a := range g.Args {
		if !drop[i] {
			rest = append(rest, a)
		}
	}
	key := g.Sub
	if g.Verb != "" {
		key += " " + g.Verb
	}
	return []Line{g.Line, gitOptions.get(key).Parse(rest)}
}
