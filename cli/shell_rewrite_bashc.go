package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/state"
)

// A CLI whose own shell rules see the rewritten command
// (dialect.RulesJudgeBashC: Gemini CLI 0.61's policy engine, which runs
// after the BeforeTool hooks) gets the rewrite in a form those rules see
// through:
//
//	export MASSGEN_HOOK_PROJECT='<project>' PATH='<dir>':"$PATH"; bash -c "<command>"
//
// Its policy engine judges a `bash -c "X"` among a line's commands by X,
// unquoted as a shell would, with every rule of the user's: `git push`
// denied stays denied, inside `echo a && git push` too. The bash that runs
// is the first on that PATH, sandboxedBash in <dir>, which init installs
// beside the wrapper: it hands X to the wrapper, which runs it in the
// sandbox. Neither the rules nor the sandbox's shell see anything but the
// agent's command.
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

// sandboxedBash is the `bash` the rewritten line runs: it takes the
// PATH entry the line put first back out (so the command's own bash
// calls find the real one) and runs `bash -c COMMAND`'s COMMAND through
// the wrapper. Anything else it refuses: only the rewritten line runs it.
func sandboxedBash(wrapper string) string {
	return fmt.Sprintf(`#!/bin/sh
# massgen-hook: the pre-tool-use hook rewrote a shell command to run
# 'bash -c COMMAND' here; COMMAND runs in massgen-hook's sandbox.
PATH=${PATH#%s:}
if [ "$#" -ne 2 ] || [ "$1" != -c ]; then
	echo "massgen-hook: this bash runs only 'bash -c COMMAND', in the sandbox" >&2
	exit 2
fi
exec %s %s "$2"
`, shellQuote(filepath.Dir(sandboxedBashPath(wrapper))), shellQuote(wrapper), agentCommandFlag)
}

// bashCPrefix is the rewritten line up to the quoted command.
func bashCPrefix(wrapper, project string) string {
	dir := filepath.Dir(sandboxedBashPath(wrapper))
	return "export " + projectVar + "=" + shellQuote(project) + " PATH=" + shellQuote(dir) + `:"$PATH"; bash -c `
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

// installSandboxedBash writes sandboxedBash beside wrapper, where it is
// not already there as it should be.
func (w *installer) installSandboxedBash(wrapper string) error {
	path := sandboxedBashPath(wrapper)
	want := sandboxedBash(wrapper)
	if old, err := os.ReadFile(path); err == nil && string(old) == want && isExecutableFile(path) {
		return nil
	}
	if w.dryRun {
		w.say(path, "would install the bash that runs rewritten shell commands in the sandbox")
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := state.WriteFileMode(path, []byte(want), 0o755, true); err != nil {
		return err
	}
	w.say(path, "installed: the bash that runs rewritten shell commands in the sandbox")
	return nil
}
