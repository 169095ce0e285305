package cli

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/protocol"
)

// agentCommandFlag opens the wrapper's rewritten form:
// `massgen-hook-shell --agent-command COMMAND`.
const agentCommandFlag = "--agent-command"

// confineShellCall routes a shell command through massgen-hook's sandbox
// in a CLI that has no prefix setting for it (dialect.ConfineByRewrite):
// once every guard has answered and none denied, the answer rewrites the
// command into one that runs the original under the wrapper init
// installed. Where confinement is off, unavailable here, or the wrapper is
// not installed, the command is left as it is: it runs under the static
// guards alone, which session start and doctor say.
func (a *app) confineShellCall(env *hookenv.Env, ev *protocol.Event, d *dialect.Dialect, out protocol.Output, cfg *config.Config) protocol.Output {
	if d.ConfinesBy != dialect.ConfineByRewrite || ev == nil || ev.ToolName != "Bash" || refuses(out) || cfg.Confine.Off {
		return out
	}
	wrapper, ok := a.installedWrapper()
	if !ok {
		return out
	}
	input := json.RawMessage(ev.ToolInput)
	if h := out.HookSpecificOutput; h != nil && h.UpdatedInput != nil {
		input = h.UpdatedInput // a rule's rewrite, confined in turn
	}
	var fields map[string]any
	if json.Unmarshal(input, &fields) != nil {
		return out
	}
	command, _ := fields["command"].(string)
	if runsNothing(command) || isRewritten(d, command, wrapper, env.Layout.Project) {
		return out
	}
	if !confine.Remembered(env.State, a.sandboxTool(env.Layout.Project, cfg)).OK {
		return out
	}
	fields["command"] = rewrittenCommand(d, wrapper, env.Layout.Project, command)
	raw, err := json.Marshal(fields)
	if err != nil {
		return out
	}
	h := protocol.HookSpecific{}
	if out.HookSpecificOutput != nil {
		h = *out.HookSpecificOutput
	}
	h.UpdatedInput = raw
	out.HookSpecificOutput = &h
	return out
}

// runsNothing reports whether bash reads command as no command at all:
// only its blanks and line breaks. Not strings.TrimSpace: a form feed, a
// no-break space or NEL is space to Go but a word to bash, the name of a
// program it looks up on PATH, which may hold a folder of the project
// (node_modules/.bin under npx, an active virtualenv). Left as written,
// such a command would run that program outside the sandbox.
func runsNothing(command string) bool {
	return strings.Trim(command, " \t\n") == ""
}

// refuses reports whether an answer stops the call (or the agent): a
// command that does not run needs no sandbox.
func refuses(out protocol.Output) bool {
	if out.Continue != nil && !*out.Continue || out.Decision == "block" {
		return true
	}
	h := out.HookSpecificOutput
	return h != nil && h.PermissionDecision == protocol.DecisionDeny
}

// rewrittenCommand is the line the CLI's shell runs instead of command:
// the wrapper, told the project (a command's folder is wherever it was
// started, which the agent chose), runs command under the sandbox with
// its exit code, output and background jobs its own. For a CLI whose own
// shell rules read the rewritten line (d.RulesReadRewrite), the wrapper
// is exec'd and the agent's command follows as words those rules match,
// which never run: exec does not return, and `exit 126` ends the shell
// where it does (a wrapper that cannot be run).
func rewrittenCommand(d *dialect.Dialect, wrapper, project, command string) string {
	return wrapperCall(d, wrapper, project) + agentWord(d, command) + rulesTail(d, command)
}

// agentWord quotes the agent's command as the one word the line hands
// the wrapper. Where the CLI's rules read the line (Codex), it is
// shellQuote's word, which those rules read; its line is safe in any
// shell, as its exec runs first. Elsewhere the line may be run by
// whichever shell the CLI picks, fish included, which takes a backslash
// before a quote or a backslash inside single quotes as an escape: there
// the word closes early and the rest of the command runs after the
// wrapper, outside the sandbox. So no backslash is left inside single
// quotes: each becomes '"\\"', which bash, zsh, dash and fish all read
// as one backslash.
func agentWord(d *dialect.Dialect, command string) string {
	if d.RulesReadRewrite {
		return shellQuote(command)
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(command); i++ {
		switch c := command[i]; c {
		case '\'':
			b.WriteString(`'\''`)
		case '\\':
			b.WriteString(backslashWord)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// backslashWord is a backslash between two single-quoted parts of a word.
const backslashWord = `'"\\"'`

// wrapperCall is a rewritten line up to the agent's command, quoted. For a
// CLI whose rules read the line, the project goes through env as one
// quoted word: an assignment before the command (VAR=value cmd) makes
// Codex's rule parser give up on the whole line, and its rules with it.
func wrapperCall(d *dialect.Dialect, wrapper, project string) string {
	if d.RulesReadRewrite {
		return "exec /usr/bin/env " + shellQuote(projectVar+"="+project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " "
	}
	return projectVar + "=" + shellQuote(project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " "
}

// rulesTail is what follows the quoted command in a rewritten line: for a
// CLI whose rules read the line, the command again, as words.
func rulesTail(d *dialect.Dialect, command string) string {
	if d.RulesReadRewrite {
		return "; exit 126; " + command
	}
	return ""
}

// isRewritten reports whether command is exactly the line this project's
// rewrite makes (a second pre-tool-use hook, or a CLI that asks twice):
// wrapping it again would nest the sandbox for nothing.
func isRewritten(d *dialect.Dialect, command, wrapper, project string) bool {
	_, ok := agentCommand(d, command, wrapper, project)
	return ok
}

// agentCommand is the agent's command inside a line this project's rewrite
// made. Only the exact form counts, the original one quoted word (and,
// where the CLI's rules read the line, that same original after it): a
// line that merely starts like it (`...'--agent-command' 'x'; rm -rf ~`,
// or another project) is not one.
func agentCommand(d *dialect.Dialect, command, wrapper, project string) (string, bool) {
	rest, ok := strings.CutPrefix(command, wrapperCall(d, wrapper, project))
	if !ok {
		return "", false
	}
	inner, tail, ok := cutQuoted(rest)
	if !ok || tail != rulesTail(d, inner) || rest != agentWord(d, inner)+tail {
		return "", false
	}
	return inner, true
}

// unwrapShellCall gives a post-tool-use event the shell command as the
// agent wrote it, where the pre-tool-use hook rewrote it: the CLI hands
// the post hook the rewritten line (Codex 0.169 does), and the checks,
// the rules and the audit trail judge the agent's command, not the
// wrapper's. Any other event, or a line the rewrite did not make, is
// left as it is.
func (a *app) unwrapShellCall(ev *protocol.Event, d *dialect.Dialect, project string) {
	if ev == nil || d.ConfinesBy != dialect.ConfineByRewrite || ev.ToolName != "Bash" {
		return
	}
	wrapper, ok := a.installedWrapper()
	if !ok {
		return
	}
	var fields map[string]any
	if json.Unmarshal(ev.ToolInput, &fields) != nil {
		return
	}
	command, _ := fields["command"].(string)
	inner, ok := agentCommand(d, command, wrapper, project)
	if !ok {
		return
	}
	fields["command"] = inner
	if raw, err := json.Marshal(fields); err == nil {
		ev.ToolInput = raw
	}
}

// cutQuoted reads the one word shellQuote or agentWord makes at the
// start of s: its text, and what follows it. ok is false when s does not
// start with such a word, or the word is not quoted the way they quote.
func cutQuoted(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; ; {
		end := strings.IndexByte(s[i:], '\'')
		if end < 0 {
			return "", "", false
		}
		b.WriteString(s[i : i+end])
		i += end
		if strings.HasPrefix(s[i:], `'\''`) {
			b.WriteByte('\'')
			i += len(`'\''`)
			continue
		}
		if strings.HasPrefix(s[i:], backslashWord) {
			b.WriteByte('\\')
			i += len(backslashWord)
			continue
		}
		return b.String(), s[i+1:], true
	}
}

// installedWrapper is the wrapper init installed (the prefix binary, which
// also takes the rewritten form), when it is there to run.
func (a *app) installedWrapper() (string, bool) {
	path, err := a.shellPrefixPath()
	if err != nil {
		return "", false
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return "", false
	}
	return path, true
}
