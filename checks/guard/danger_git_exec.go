package guard

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// The git-runs-command rule: configuration, environment and options that
// make git run a command line the agent wrote (git -c core.pager=...,
// GIT_SSH_COMMAND=..., an alias with "!", --upload-pack, rebase --exec,
// submodule foreach). That command line is judged by the whole pack, as
// if it had been typed; one that cannot be known or parsed is denied, as
// is --exec-path, which swaps git's own programs for a folder's.

// gitCommandVars are the environment variables whose value git runs.
var gitCommandVars = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_PAGER": true, "PAGER": true, "GIT_EDITOR": true,
		"EDITOR": true, "VISUAL": true, "GIT_SEQUENCE_EDITOR": true, "GIT_EXTERNAL_DIFF": true,
		"GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true,
	}
}}

// gitCommandOpt is an option, by its short or long name.
type gitCommandOpt struct {
	short byte
	long  string
}

// gitCommandOpts are, per subcommand, the options whose argument git runs.
var gitCommandOpts = &lazy.Value[map[string][]gitCommandOpt]{New: func() map[string][]gitCommandOpt {
	return map[string][]gitCommandOpt{
		"fetch":     {{0, "upload-pack"}},
		"pull":      {{0, "upload-pack"}},
		"clone":     {{'u', "upload-pack"}},
		"ls-remote": {{0, "upload-pack"}, {0, "exec"}},
		"push":      {{0, "receive-pack"}, {0, "exec"}},
		"archive":   {{0, "exec"}},
		"rebase":    {{'x', "exec"}},
		"difftool":  {{'x', "extcmd"}},
		"grep":      {{'O', "open-files-in-pager"}},
	}
}}

// maxGitNesting bounds how deep command lines inside git command lines
// (an alias running git with a pager running git ...) are followed.
const maxGitNesting = 4

func gitRunsCommand(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g, ok := c.Git("")
	if !ok || g.Help {
		return "", ""
	}
	dir := g.Dir
	if dir == "" {
		dir = d.dir(c)
	}
	j := gitJudge{d: d, c: c, g: g, dir: dir}
	if g.HasExecPath {
		return j.deny(fmt.Sprintf("makes git run its own programs from %s", g.ExecPath.Value),
			"Leave --exec-path alone; run the program you mean directly.")
	}
	for _, step := range []func(context.Context) (string, string){j.env, j.config, j.options, j.alias} {
		if what, instead := step(ctx); what != "" {
			return what, instead
		}
	}
	return "", ""
}

// gitJudge judges what one git command line makes git run.
type gitJudge struct {
	d   *dangerCall
	c   *shellcmd.Command
	g   shellcmd.Git
	dir string // where git runs, for the command lines it starts
}

func (j gitJudge) deny(what, instead string) (string, string) {
	return fmt.Sprintf("%s %s", quoteCmd(j.c), what), instead
}

func (j gitJudge) env(ctx context.Context) (string, string) {
	env := j.g.Env // the command's own and what the line exports
	vars := map[string]shellcmd.Word{}
	for _, e := range env {
		name, value, _ := strings.Cut(e.Value, "=")
		vars[name] = partOf(e, value)
	}
	for _, e := range env {
		name, _, _ := strings.Cut(e.Value, "=")
		value := vars[name]
		switch {
		case gitCommandVars.Get()[name]:
			if what, instead := j.line(ctx, value, name); what != "" {
				return what, instead
			}
		case name == "GIT_EXEC_PATH":
			return j.deny(fmt.Sprintf("makes git run its own programs from %s (GIT_EXEC_PATH)", value.Value),
				"Leave GIT_EXEC_PATH alone; run the program you mean directly.")
		case name == "GIT_CONFIG_PARAMETERS":
			return j.deny("sets git configuration through GIT_CONFIG_PARAMETERS, which is not read here",
				"Use git -c NAME=VALUE.")
		case strings.HasPrefix(name, "GIT_CONFIG_KEY_"):
			val, ok := vars["GIT_CONFIG_VALUE_"+strings.TrimPrefix(name, "GIT_CONFIG_KEY_")]
			if !value.Known {
				return j.deny(fmt.Sprintf("sets a git configuration key that cannot be known here (%s)", value.Raw), "Use git -c NAME=VALUE with literal words.")
			}
			if !ok {
				continue
			}
			if what, instead := j.setting(ctx, value.Value, val, false); what != "" {
				return what, instead
			}
		}
	}
	return "", ""
}

// partOf is the word for value, a piece of w (NAME=VALUE).
func partOf(w shellcmd.Word, value string) shellcmd.Word {
	return shellcmd.Word{Raw: w.Raw, Value: value, Known: w.Known, Glob: w.Glob, Inner: w.Inner}
}

// config judges -c, --config-env, clone -c and the settings git config
// writes (they run at every later git command).
func (j gitJudge) config(ctx context.Context) (string, string) {
	for _, w := range j.g.Config {
		name, value, _ := strings.Cut(w.Value, "=")
		if what, instead := j.named(ctx, name, partOf(w, value), false); what != "" {
			return what, instead
		}
	}
	for _, w := range j.g.ConfigEnv {
		name, envVar, _ := strings.Cut(w.Value, "=")
		value, set := j.g.Lookup(envVar)
		if !set || !w.Known {
			value = shellcmd.Word{Raw: "$" + envVar, Value: "$" + envVar}
		}
		if what, instead := j.named(ctx, name, value, false); what != "" {
			return what, instead
		}
	}
	l := j.g.Line
	if j.g.Sub == "clone" {
		for _, w := range l.Vals('c', "config") {
			name, value, _ := strings.Cut(w.Value, "=")
			if what, instead := j.named(ctx, name, partOf(w, value), true); what != "" {
				return what, instead
			}
		}
	}
	if j.g.Sub == "config" && configWrites(l) {
		if what, instead := j.named(ctx, l.Operands[0].Value, l.Operands[1], true); what != "" {
			return what, instead
		}
	}
	return "", ""
}

// named judges a setting whose name came from the command line: a name
// with a parameter in it cannot be known.
func (j gitJudge) named(ctx context.Context, name string, value shellcmd.Word, persist bool) (string, string) {
	if strings.ContainsAny(name, "$`") {
		return j.deny(fmt.Sprintf("sets a git configuration key that cannot be known here (%s)", name), "Name the key literally.")
	}
	return j.setting(ctx, name, value, persist)
}

// configWrites reports whether git config sets NAME VALUE: two operands
// and no action other than --add or --replace-all.
func configWrites(l shellcmd.Line) bool {
	if len(l.Operands) < 2 {
		return false
	}
	for _, a := range []string{"get", "get-all", "get-regexp", "get-urlmatch", "unset", "unset-all",
		"rename-section", "remove-section", "list", "edit", "get-color", "get-colorbool"} {
		if l.On(0, a) {
			return false
		}
	}
	return !l.On('l', "list") && !l.On('e', "edit")
}

// setting judges one configuration setting. An alias counts when this
// command runs it, or when it is written for later commands (persist).
func (j gitJudge) setting(ctx context.Context, name string, value shellcmd.Word, persist bool) (string, string) {
	key := strings.ToLower(name)
	if alias, ok := strings.CutPrefix(key, "alias."); ok {
		if !persist && alias != strings.ToLower(j.g.Sub) {
			return "", ""
		}
		return j.aliasValue(ctx, value, name, !persist)
	}
	if key == "protocol.ext.allow" || key == "protocol.allow" {
		if v := strings.ToLower(value.Value); !value.Known || v == "always" || v == "user" {
			return j.deny(fmt.Sprintf("lets ext:: remote URLs run commands (%s)", name), "Leave the ext transport off; use an ssh or https remote.")
		}
		return "", ""
	}
	if !commandKey(key) {
		return "", ""
	}
	if value.Known && (strings.HasPrefix(key, "pager.") || key == "core.fsmonitor") && isGitBool(strings.ToLower(value.Value)) {
		return "", "" // on or off, not a command
	}
	if strings.HasPrefix(key, "submodule.") || strings.HasPrefix(key, "credential.") {
		// "!command" is a shell command line; a submodule's other update
		// modes are git's own, a credential helper's name runs git
		// credential-NAME.
		rest, bang := strings.CutPrefix(value.Value, "!")
		if value.Known && !bang && strings.HasPrefix(key, "submodule.") {
			return "", ""
		}
		value = partOf(value, rest)
	}
	return j.line(ctx, value, name)
}

func commandKey(key string) bool {
	for _, k := range shellcmd.GitCommandKeys {
		if ok, _ := path.Match(k, key); ok {
			return true
		}
		// A subsection may hold dots: diff.my.driver.textconv.
		if pre, post, star := strings.Cut(k, ".*."); star && strings.HasPrefix(key, pre+".") && strings.HasSuffix(key, "."+post) {
			return true
		}
	}
	return false
}

func isGitBool(v string) bool {
	switch v {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// options judges the options whose argument git runs, and the
// subcommands that run a command line of their own.
func (j gitJudge) options(ctx context.Context) (string, string) {
	l := j.g.Line
	for _, o := range gitCommandOpts.Get()[j.g.Sub] {
		for _, v := range l.Vals(o.short, o.long) {
			if what, instead := j.line(ctx, v, "--"+o.long); what != "" {
				return what, instead
			}
		}
	}
	args := j.g.Args
	switch {
	case j.g.Sub == "submodule" && j.g.Verb == "foreach":
		for len(args) > 0 && args[0].Known && (args[0].Value == "--recursive" || args[0].Value == "--quiet" || args[0].Value == "-q") {
			args = args[1:]
		}
		return j.words(ctx, args, "git submodule foreach")
	case j.g.Sub == "bisect" && j.g.Verb == "run":
		return j.words(ctx, args, "git bisect run")
	}
	return "", ""
}

// words judges a command given as words: one word is a shell command
// line, more are a command and its arguments.
func (j gitJudge) words(ctx context.Context, args []shellcmd.Word, where string) (string, string) {
	switch len(args) {
	case 0:
		return "", ""
	case 1:
		return j.line(ctx, args[0], where)
	}
	raw := make([]string, len(args))
	known := true
	for i, a := range args {
		raw[i] = a.Raw
		known = known && a.Known
	}
	src := strings.Join(raw, " ")
	return j.line(ctx, shellcmd.Word{Raw: src, Value: src, Known: known}, where)
}

// alias judges a subcommand git does not have, when the repository's or
// the user's configuration makes it an alias.
func (j gitJudge) alias(ctx context.Context) (string, string) {
	sub := j.g.Sub
	if isGitCommand(sub) || strings.HasPrefix(sub, "-") || configSet(j.g.Config, "alias."+sub) || j.g.Dir == "" {
		return "", ""
	}
	value, err := hookenv.RepoOf(j.g).Alias(ctx, sub)
	if j.d.failed(j.c, err) || value == "" {
		return "", ""
	}
	return j.aliasValue(ctx, shellcmd.Word{Raw: value, Value: value, Known: true}, "alias."+sub, true)
}

// aliasValue judges an alias: "!" makes it a shell command line; anything
// else is a git command line, run with the arguments that follow when
// withArgs.
func (j gitJudge) aliasValue(ctx context.Context, value shellcmd.Word, name string, withArgs bool) (string, string) {
	if !value.Known {
		return j.deny(fmt.Sprintf("defines %s as a command that cannot be known here", name), "Write the alias literally.")
	}
	if rest, ok := strings.CutPrefix(strings.TrimLeft(value.Value, " \t"), "!"); ok {
		return j.line(ctx, shellcmd.Word{Raw: rest, Value: rest, Known: true}, name)
	}
	src := "git " + value.Value
	if withArgs {
		for _, a := range j.g.Args {
			src += " " + a.Raw
		}
	}
	return j.line(ctx, shellcmd.Word{Raw: src, Value: src, Known: true}, name)
}

// line judges src, a command line git would run: every command in it
// goes through the whole pack, as if it had been typed.
func (j gitJudge) line(ctx context.Context, src shellcmd.Word, where string) (string, string) {
	if !src.Known {
		return j.deny(fmt.Sprintf("makes git run a command (%s) that cannot be known here: %s", where, src.Value),
			"Write the command literally, or run it yourself instead of through git.")
	}
	if strings.TrimSpace(src.Value) == "" {
		return "", ""
	}
	if j.d.depth >= maxGitNesting {
		return j.deny(fmt.Sprintf("nests command lines too deep to check (%s)", where), "Run the command directly.")
	}
	script, err := shellcmd.Parse(src.Value, shellcmd.Options{Dir: j.dir, Home: j.d.Home, UserHome: shellcmd.LookupUserHome})
	if err != nil {
		return j.deny(fmt.Sprintf("makes git run a command (%s) that cannot be parsed: %v", where, err),
			"Write the command in plain form, or run it yourself instead of through git.")
	}
	inner := *j.d
	inner.script, inner.depth = script, j.d.depth+1
	id, what, instead := inner.judge(ctx)
	j.d.notes = inner.notes
	if id == "" {
		return "", ""
	}
	return j.deny(fmt.Sprintf("makes git run `%s` (%s), and %s (rule %s)", hookenv.OneLine(src.Value, 80), where, what, id), instead)
}

// gitCommands are git 2.39's own commands (git --list-cmds=main and the
// scripts packaged apart), sorted: no alias can take their name. A sorted
// list costs nothing to start, where a map of them cost every Bash call
// that runs git a tenth of a millisecond to build.
var gitCommands = []string{
	"add", "am", "annotate", "apply", "archimport", "archive", "bisect", "blame", "branch", "bugreport",
	"bundle", "cat-file", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout",
	"checkout-index", "cherry", "cherry-pick", "citool", "clean", "clone", "column", "commit", "commit-graph",
	"commit-tree", "config", "count-objects", "credential", "credential-cache", "credential-store",
	"cvsexportcommit", "cvsimport", "cvsserver", "daemon", "describe", "diagnose", "diff", "diff-files",
	"diff-index", "diff-tree", "difftool", "fast-export", "fast-import", "fetch", "fetch-pack", "filter-branch",
	"fmt-merge-msg", "for-each-ref", "for-each-repo", "format-patch", "fsck", "fsck-objects", "gc",
	"get-tar-commit-id", "grep", "gui", "hash-object", "help", "hook", "http-backend", "http-fetch",
	"http-push", "imap-send", "index-pack", "init", "init-db", "instaweb", "interpret-trailers", "log",
	"ls-files", "ls-remote", "ls-tree", "mailinfo", "mailsplit", "maintenance", "merge", "merge-base",
	"merge-file", "merge-index", "merge-octopus", "merge-one-file", "merge-ours", "merge-recursive",
	"merge-recursive-ours", "merge-recursive-theirs", "merge-resolve", "merge-subtree", "merge-tree",
	"mergetool", "mktag", "mktree", "multi-pack-index", "mv", "name-rev", "notes", "p4", "pack-objects",
	"pack-redundant", "pack-refs", "patch-id", "pickaxe", "prune", "prune-packed", "pull", "push",
	"quiltimport", "range-diff", "read-tree", "rebase", "receive-pack", "reflog", "remote", "remote-ext",
	"remote-fd", "remote-ftp", "remote-ftps", "remote-http", "remote-https", "repack", "replace",
	"request-pull", "rerere", "reset", "restore", "rev-list", "rev-parse", "revert", "rm", "send-email",
	"send-pack", "shell", "shortlog", "show", "show-branch", "show-index", "show-ref", "sparse-checkout",
	"stage", "stash", "status", "stripspace", "submodule", "subtree", "svn", "switch", "symbolic-ref", "tag",
	"unpack-file", "unpack-objects", "update-index", "update-ref", "update-server-info", "upload-archive",
	"upload-pack", "var", "verify-commit", "verify-pack", "verify-tag", "version", "web--browse", "whatchanged",
	"worktree", "write-tree",
}

// isGitCommand reports whether sub is one of git's own commands.
func isGitCommand(sub string) bool {
	_, found := slices.BinarySearch(gitCommands, sub)
	return found
}
