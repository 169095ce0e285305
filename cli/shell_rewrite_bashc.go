package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/state"
)

// A CLI whose own shell rules see the rewritten command
// (dialect.RewriteBashC: Gemini CLI 0.61's policy engine, which runs
// after the BeforeTool hooks) gets the rewrite in a form those rules see
// through:
//
//	export MASSGEN_HOOK_PROJECT='<project>'; <dir>/bash -c "<command>"
//
// Its policy engine judges a `.../bash -c "X"` among a line's commands by
// X, unquoted as a shell would, with every rule of the user's: `git push`
// denied stays denied, inside `echo a && git push` too. <dir>/bash is
// sandboxedBash, which init installs beside the wrapper: it hands X to
// the wrapper, which runs it in the sandbox. Neither the rules nor the
// sandbox's shell see anything but the agent's command. The engine sees
// such a bash only at a path it can read unquoted: init wires the route
// only where the data folder's path is plain (plainPath).
//
// The engine also judges the line's frame (the export, the bash call)
// by the user's rules, where no rule allows it: in its default approval
// mode it would ask about every command, and headless (-p) deny it. So
// init adds a policy file of the user's (frameRules) that allows the
// frame alone; the command inside is judged all the same, and the line
// gets the command's decision.
//
// The line never starts with `bash -c`: Gemini CLI strips such a wrapper
// from a whole command and runs what is inside, unconfined.

// sandboxedBashDir is the folder, beside the wrapper, that holds
// sandboxedBash.
const sandboxedBashDir = "sandboxed-bash"

// sandboxedBashPath is where init installs sandboxedBash for wrapper.
func sandboxedBashPath(wrapper string) string {
	return filepath.Join(filepath.Dir(wrapper), sandboxedBashDir, "bash")
}

// sandboxedBash is the `bash` the rewritten line runs: it runs `bash -c
// COMMAND`'s COMMAND through the wrapper. Anything else it refuses: only
// the rewritten line runs it.
func sandboxedBash(wrapper string) string {
	return fmt.Sprintf(`#!/bin/sh
# massgen-hook: the pre-tool-use hook rewrote a shell command to run
# 'bash -c COMMAND' here; COMMAND runs in massgen-hook's sandbox.
if [ "$#" -ne 2 ] || [ "$1" != -c ]; then
	echo "massgen-hook: this bash runs only 'bash -c COMMAND', in the sandbox" >&2
	exit 2
fi
exec %s %s "$2"
`, shellQuote(wrapper), agentCommandFlag)
}

// plainPath reports whether p reads the same unquoted in a shell line.
func plainPath(p string) bool {
	return p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._+-@%,:=") == ""
}

// bashCPrefix is the rewritten line up to the quoted command.
func bashCPrefix(wrapper, project string) string {
	return "export " + projectVar + "=" + shellQuote(project) + "; " + sandboxedBashPath(wrapper) + " -c "
}

// frameRules is Gemini CLI's policy file allowing the rewritten line's
// frame: a line that starts with the export, and the export alone (the
// engine judges the whole line, then each of its commands alone, and
// gives it the strictest decision), and a call of sandboxedBash (judged
// alone too; what it runs is the sandbox's). The export's regex is
// matched against the arguments' JSON after `"command":"`: the project's
// quoted path must end the command or the line's first command (`;`),
// no redirection of its own, since the file is user-wide, for every
// project, and an agent could otherwise get `export
// MASSGEN_HOOK_PROJECT=x > ~/.bashrc` allowed unasked where no hook
// rewrites. Each allow holds only for the frame: the engine judges every
// other command of such a line, and the command inside the bash call, by
// the user's rules. The priority is the highest of the user's tier, so
// that a broad rule of the user's (ask about every shell command) does
// not stop at the frame; an administrator's rules still come first.
func frameRules(wrapper string) string {
	return `# massgen-hook: its pre-tool-use hook rewrites each shell command to run in its
# sandbox, as ` + "`" + `export MASSGEN_HOOK_PROJECT='...'; ` + sandboxedBashPath(wrapper) + ` -c "COMMAND"` + "`" + `.
# These rules allow that frame alone: COMMAND is judged by your rules as before.
# massgen-hook init writes this file; its uninstall leaves it with the sandbox.

[[rule]]
toolName = "run_shell_command"
commandRegex = "export ` + projectVar + `='[^']*'(;|\")"
decision = "allow"
priority = 999
allowRedirection = true

[[rule]]
toolName = "run_shell_command"
commandPrefix = "` + sandboxedBashPath(wrapper) + ` -c"
decision = "allow"
priority = 999
allowRedirection = true
`
}

// doubleQuoted quotes s as one shell word that opens and closes with a
// double quote, which bash and Gemini CLI's policy engine both read back
// as s: `\`, `"` and `$` escaped (both drop the backslash), a backtick
// single-quoted between two double-quoted parts (an escaped one would
// reach the rules as "\`", hiding a substitution from them).
func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\', '"', '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '`':
			b.WriteString(`"'` + "`" + `'"`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// fromDoubleQuoted is the s whose doubleQuoted form is word, when there is
// one.
func fromDoubleQuoted(word string) (string, bool) {
	const tick = `"'` + "`" + `'"`
	if len(word) < 2 || word[0] != '"' || word[len(word)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	rest := word[1 : len(word)-1]
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, tick):
			b.WriteByte('`')
			rest = rest[len(tick):]
		case rest[0] == '\\' && len(rest) > 1 && strings.ContainsRune(`\"$`, rune(rest[1])):
			b.WriteByte(rest[1])
			rest = rest[2:]
		case strings.ContainsRune("\\\"$`", rune(rest[0])):
			return "", false // unescaped: not a word doubleQuoted made
		default:
			b.WriteByte(rest[0])
			rest = rest[1:]
		}
	}
	s := b.String()
	return s, doubleQuoted(s) == word
}

// installBashC installs what the bash -c form needs beside wrapper:
// sandboxedBash, and the user's Gemini CLI policy file of frameRules.
func (w *installer) installBashC(wrapper string) error {
	bash := sandboxedBashPath(wrapper)
	if !plainPath(bash) {
		return fmt.Errorf("its path has characters Gemini CLI's policy rules cannot read a command through (set XDG_DATA_HOME to a plain path)")
	}
	if err := w.writeIfChanged(bash, sandboxedBash(wrapper), 0o755, "the bash that runs rewritten shell commands in the sandbox"); err != nil {
		return err
	}
	return w.writeIfChanged(w.frameRulesPath(), frameRules(wrapper), 0o644, "Gemini CLI policy rules that let your rules judge a rewritten command by the command inside")
}

// frameRulesPath is frameRules' file among the user's Gemini CLI
// policies ($GEMINI_CLI_HOME, else the home, /.gemini/policies).
func (w *installer) frameRulesPath() string {
	home := w.getenv("GEMINI_CLI_HOME")
	if home == "" {
		home = w.getenv("HOME")
	}
	return filepath.Join(home, ".gemini", "policies", "massgen-hook.toml")
}

// writeIfChanged writes content to path, where it is not already there
// as it should be, and says what (what) it wrote.
func (w *installer) writeIfChanged(path, content string, mode os.FileMode, what string) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == content {
		if info, err := os.Stat(path); err == nil && info.Mode().Perm() == mode {
			return nil
		}
	}
	if w.dryRun {
		w.say(path, "would install %s", what)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := state.WriteFileMode(path, []byte(content), mode, true); err != nil {
		return err
	}
	w.say(path, "installed: %s", what)
	return nil
}
