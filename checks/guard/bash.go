package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/engine"
)

// shellCall is what the path and command guards need of a call: the
// project, where the call runs (the event's cwd, else the project root),
// and $HOME.
type shellCall struct {
	Project   project
	Cwd, Home string
	// paths resolves every path of the call, for every guard that judges
	// it: each name on the way is asked about once per call (the
	// project's folders come before every word of a command, the home
	// before thirty-odd patterns), and the guards judge one view of the
	// filesystem. nil (in a test's shellCall) remembers nothing.
	paths *fspath.Cache
	// Tmpdir is $TMPDIR in the hook's environment, as the CLI's shell has
	// it, as written; userTmpdir says whether it is a folder of the user's.
	// It is resolved only when a delete asks: most calls delete nothing.
	Tmpdir string
}

type shellCallKey struct{}

// ShellCallOf derives a call's shellCall once, however many guards ask
// (resolving the project's symlinks is a system call or more), with the
// paths cache they share.
func ShellCallOf(call *engine.Call) shellCall {
	return call.Memo(shellCallKey{}, func() any {
		paths := &fspath.Cache{}
		sc := shellCall{Project: newProject(call.Project, paths), Cwd: call.Event.Cwd, Home: envValue(call.Environ, "HOME"), paths: paths}
		if sc.Cwd == "" || !filepath.IsAbs(sc.Cwd) {
			sc.Cwd = call.Project
		}
		sc.Tmpdir = envValue(call.Environ, "TMPDIR")
		return sc
	}).(shellCall)
}

// userTmpdir is the TMPDIR a delete may work in, as it may in /tmp: an
// absolute folder with no symbolic link on its way, that is not the root,
// does not hold the home (a TMPDIR set to ~ would make the whole home
// scratch), and is not one of the shared temporary folders themselves
// (isTemp judges those). The links matter because the agent may write in
// TMPDIR: `rm -rf $TMPDIR; ln -s /etc $TMPDIR` in one call must not make
// /etc scratch for the next. (macOS's TMPDIR, under /var/folders, goes
// through the /var link; the shared folders' rules cover it.)
func userTmpdir(tmpdir, home string) string {
	if tmpdir == "" {
		return ""
	}
	// A relative path or a link resolves to another name: either way,
	// no folder of the user's.
	clean := filepath.Clean(tmpdir)
	real := fspath.Real(clean)
	if real != clean || real == "/" || home != "" && (Within(home, real) || Within(fspath.Real(home), real)) {
		return ""
	}
	for _, t := range sharedTemp {
		if real == t {
			return "" // judged as the folder every program shares
		}
	}
	return real
}

// parsedBash is a Bash call's command as shellcmd reads it.
type parsedBash struct {
	script *shellcmd.Script
	err    error
}

type parsedBashKey struct {
	command, dir, home string
	zsh                bool
}

// bashScript parses a Bash call's command once per call, for every guard
// that reads it. ok is false when the call is not Bash or has no command
// string; err is a command the parser cannot read.
func bashScript(call *engine.Call, sc shellCall) (script *shellcmd.Script, ok bool, err error) {
	if call.Event.ToolName != "Bash" {
		return nil, false, nil
	}
	command := gjson.GetBytes(call.ToolInput, "command")
	if command.Type != gjson.String {
		return nil, false, nil
	}
	key := parsedBashKey{command.Str, sc.Cwd, sc.Home, zshMayRun(call.Environ)}
	p := call.Memo(key, func() any {
		// The CLI's shell has the environment the hook has: a TMPDIR the
		// hook is not given is one the shell does not have either.
		env := map[string]string{"TMPDIR": envValue(call.Environ, "TMPDIR")}
		s, err := shellcmd.Parse(command.Str, shellcmd.Options{Dir: sc.Cwd, Home: sc.Home, Env: env, GitTop: gitTop,
			UserHome: shellcmd.LookupUserHome, Zsh: key.zsh})
		return parsedBash{s, err}
	}).(parsedBash)
	return p.script, true, p.err
}

// zshMayRun reports whether the CLI may run a Bash call's command in zsh:
// CLAUDE_CODE_SHELL names zsh, or, without it, $SHELL does or the machine
// is a Mac, where Claude Code picks zsh even for a user whose login shell
// is bash.
func zshMayRun(environ []string) bool {
	if s := envValue(environ, "CLAUDE_CODE_SHELL"); s != "" {
		return filepath.Base(s) == "zsh"
	}
	return filepath.Base(envValue(environ, "SHELL")) == "zsh" || runtime.GOOS == "darwin"
}

// unparsableRule is the id, in dangerous_commands' pack, of the rule
// that fails closed on a command the parser cannot read: bash runs forms
// the parser rejects (`! ; rm -rf /`), so "cannot read" must not pass as
// "nothing dangerous".
const unparsableRule = "unparsable"

const unparsableInstead = "Rewrite it in plain form: simple commands joined by ;, && or |, with ordinary quoting."

// unparsableWhat says why a command is refused.
func unparsableWhat(err error) string {
	return fmt.Sprintf("this command could not be parsed safely (%v), so what it would run cannot be checked", err)
}

// uncheckedNote is the note when a rule that was told to let unparsable
// commands through does so.
func uncheckedNote(err error) string {
	return fmt.Sprintf("could not read the Bash command (%v); it went unchecked", err)
}

// gitTop is the top of the git work tree holding dir, as git rev-parse
// --show-toplevel prints it: the nearest folder up with a .git (a folder,
// or a file in a worktree or submodule); "" when there is none.
func gitTop(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
