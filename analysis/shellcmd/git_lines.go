package shellcmd

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// GitCommandKeys are the configuration keys whose value git runs as a
// command (by the shell, or as a program with arguments of git's),
// lower-cased, "*" for a subsection.
var GitCommandKeys = []string{
	"core.pager", "pager.*", "core.editor", "sequence.editor", "core.sshcommand", "core.gitproxy",
	"core.fsmonitor", "core.askpass", "core.alternaterefscommand", "credential.helper", "credential.*.helper",
	"diff.external", "diff.*.command", "diff.*.textconv", "merge.*.driver",
	"filter.*.clean", "filter.*.smudge", "filter.*.process", "gpg.program", "gpg.*.program",
	"gpg.ssh.defaultkeycommand", "difftool.*.cmd", "mergetool.*.cmd", "man.*.cmd", "browser.*.cmd",
	"sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "sendemail.smtpserver",
	"trailer.*.command", "trailer.*.cmd", "interactive.difffilter", "remote.*.uploadpack",
	"remote.*.receivepack", "uploadpack.packobjectshook", "imap.tunnel", "submodule.*.update",
}

// GitConfigWrapper opens the wrapper of a command that git runs for
// configuration given with -c (see gitLines).
const GitConfigWrapper = "git -c "

// aliasLine is the git command line an alias (not a "!" one) of the
// subcommand of words, read as g, runs: git, its own options, the words of
// the alias's value, and the arguments after it. git splits the value at
// any white space, a newline included, and takes # and ; as text: each
// word is quoted for the shell.
func aliasLine(words []Word, g Git, value string) string {
	var b strings.Builder
	b.WriteString("git")
	for _, w := range words[1 : 1+g.SubAt] {
		b.WriteString(" " + rawOf(w))
	}
	for _, v := range strings.Fields(value) {
		b.WriteString(" " + shellQuote(v))
	}
	for _, w := range g.Args {
		b.WriteString(" " + rawOf(w))
	}
	return b.String()
}

// rawOf is w as written, or its value quoted for the shell when it has no
// source text.
func rawOf(w Word) string {
	if w.Raw != "" {
		return w.Raw
	}
	return shellQuote(w.Value)
}

// gitCommandVars are the environment variables whose value git runs as a
// command, with the key each stands for.
var gitCommandVars = []struct{ name, key string }{
	{"GIT_SSH_COMMAND", "core.sshcommand"}, {"GIT_EDITOR", "core.editor"},
	{"GIT_SEQUENCE_EDITOR", "sequence.editor"}, {"GIT_PAGER", "core.pager"},
	{"GIT_ASKPASS", "core.askpass"}, {"GIT_EXTERNAL_DIFF", "diff.external"},
	{"GIT_PROXY_COMMAND", "core.gitproxy"},
	// What git falls back on when neither the variable nor the key is set.
	{"EDITOR", "core.editor"}, {"VISUAL", "core.editor"}, {"PAGER", "core.pager"},
	{"SSH_ASKPASS", "core.askpass"},
}

// gitSetting is one configuration setting a git command line gives.
type gitSetting struct{ name, value string }

// configSettings are the known settings of g's command line, names
// lower-cased: -c NAME=VALUE, --config-env NAME=VAR, the
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n pairs of its environment, and
// the variables git reads in place of a command key (GIT_SSH_COMMAND for
// core.sshCommand, ...: gitCommandVars), a variable's value as the
// command or, when it does not set it, the line gives it. A setting not
// known is left to git-runs-command, which denies it. elsewhere names a
// variable of those that the line assigns but that does not reach git
// here as far as the walk knows: in a function's body, which runs where
// it is called, the line may set it before the call (f(){ git x; };
// export GIT_CONFIG_KEY_0=alias.x ...; f); "" when there is none.
func (w *walker) configSettings(g Git) (out []gitSetting, elsewhere string) {
	env := func(name string) (Word, bool) {
		if v, set := g.Lookup(name); set {
			return v, true
		}
		if v, ok := w.vars[name]; ok {
			return v, true
		}
		return Word{}, false
	}
	add := func(name string, value Word) {
		if value.Known && name != "" {
			out = append(out, gitSetting{strings.ToLower(name), value.Value})
		}
	}
	for _, cw := range g.Config {
		if name, value, ok := strings.Cut(cw.Value, "="); ok && cw.Known {
			add(name, Word{Value: value, Known: true})
		}
	}
	for _, cw := range g.ConfigEnv {
		if name, envVar, ok := strings.Cut(cw.Value, "="); ok && cw.Known {
			if v, set := env(envVar); set {
				add(name, v)
			}
		}
	}
	for _, v := range gitCommandVars {
		if value, set := env(v.name); set {
			add(v.key, value)
		}
	}
	for i := 0; ; i++ {
		key, set := env(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))
		if !set {
			break
		}
		value, _ := env(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))
		if key.Known {
			add(key.Value, value)
		}
	}
	for name := range w.assigned {
		if !gitConfigVar(name) {
			continue
		}
		if _, set := env(name); !set && (elsewhere == "" || name < elsewhere) {
			elsewhere = name
		}
	}
	return out, elsewhere
}

// gitConfigVar reports whether an environment variable gives git any
// setting it names (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, ...): an alias that
// runs a command among them. The variables of gitCommandVars are not
// counted: a pager or an editor exported around a function that runs git
// is everyday, and one set outside the body is not judged there
// (SECURITY.md).
func gitConfigVar(name string) bool {
	return name == "GIT_CONFIG_COUNT" || name == "GIT_CONFIG_PARAMETERS" ||
		strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// gitLines lists, as commands of their own, the command lines that the
// configuration given on git's command line makes it run: an alias of
// the subcommand (one that starts with "!" is a shell command line, any
// other a git one: git -c alias.x=add x -A runs git add -A), and the keys
// of GitCommandKeys (git -c core.pager='cat .env' log), however the
// setting is given (configSettings). Every guard then sees them as if
// they had been typed. Their wrapper names the key ("git -c core.pager"):
// the dangerous-command rules leave them to git-runs-command, which judges
// them with the whole pack and says that git runs them. What git reads
// from its config files is judged by that rule alone, which asks git.
func (w *walker) gitLines(words []Word, redirs []Redirect, c ctx, wrappers []string, dir string) {
	g, ok := (&Command{Name: words[0], Args: words[1:], Dir: dir, Env: c.env}).Git(dir)
	if !ok {
		return
	}
	settings, elsewhere := w.configSettings(g)
	if elsewhere != "" && c.fn != "" {
		w.refuse("git in function %s may be given a setting by %s, which the line sets outside it: write git -c NAME=VALUE", c.fn, elsewhere)
		return
	}
	for _, set := range settings {
		name, value := set.name, set.value
		src, run := value, false
		if name == "alias."+strings.ToLower(g.Sub) {
			src, run = strings.CutPrefix(strings.TrimLeft(value, " \t"), "!")
			if !run {
				// An alias of another subcommand runs git again, with the
				// same options and the arguments after the alias.
				if strings.ContainsAny(value, `'"\`) {
					w.refuse("git %s quotes words in its alias, which git splits otherwise than the shell", name)
					return
				}
				src, run = aliasLine(words, g, value), true
			}
		} else {
			for _, k := range GitCommandKeys {
				if m, _ := path.Match(k, name); m {
					run = true
				}
			}
		}
		if !run || w.depth >= maxDepth {
			continue
		}
		if _, err := parse(src, syntax.LangBash, false); err != nil {
			continue // git-runs-command denies what cannot be read, saying where it is
		}
		tag := GitConfigWrapper + name
		saved := w.saveVars()
		w.vars = nil // git runs it with a shell of its own
		w.inner(tag, src, syntax.LangBash, w.innerCtx(tag, redirs, c, wrappers), dir)
		w.vars = saved
	}
}
