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
// `massgen-hook-shell --agent-command COMMAND`; agentLineFlag the form
// that hands it the whole line that keeps the command (keptCommand).
const (
	agentCommandFlag = "--agent-command"
	agentLineFlag    = "--agent-line"
)

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
	wrapper, ok := a.rewriteReady(d)
	if !ok {
		return out
	}
	input := json.RawMessage(ev.ToolInput)
	if h := out.HookSpecificOutput; h != nil && h.UpdatedInput != nil {
		input = h.UpdatedInput // a rule's rewrite, confined in turn
	}
	project := env.Layout.Project
	raw, ok := withCommand(input, func(command string) (string, bool) {
		if runsNothing(command) || isRewritten(d, command, wrapper, project) ||
			!confine.Remembered(env.State, a.sandboxTool(project, cfg)).OK {
			return "", false
		}
		return rewrittenCommand(d, wrapper, project, command), true
	})
	if !ok {
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
// its exit code, output and background jobs its own. The line's form is
// the CLI's (dialect.RewriteForm), so that its own shell rules, which
// judge this line, still judge the agent's command:
//   - plain: the wrapper and the command, one quoted word;
//   - exec-tail: the wrapper exec'd, and the command after it as words
//     those rules match, which never run: exec does not return, and
//     `exit 126` ends the shell where it does (a wrapper that cannot be
//     run);
//   - kept: keptHead's, the command in a function nothing calls;
//   - bash -c: shell_rewrite_bashc.go's.
func rewrittenCommand(d *dialect.Dialect, wrapper, project, command string) string {
	switch d.RewriteForm {
	case dialect.RewriteBashC:
		return bashCPrefix(wrapper, project) + doubleQuoted(command)
	case dialect.RewriteKept:
		return keptHead(wrapper, project) + keptOpen + command + keptClose
	case dialect.RewriteExecTail:
		return quotedHead(d, wrapper, project) + shellQuote(command) + execTail + command
	}
	return quotedHead(d, wrapper, project) + agentWord(d, command)
}

// execTail stands between the quoted command and its words in an
// exec-tail line.
const execTail = "; exit 126; "

// wrapperVar holds the wrapper's path in the line that keeps the agent's
// command: the path, outside the project, is then no program the CLI's
// path check asks about.
const wrapperVar = "MASSGEN_HOOK_SHELL"

// keptOpen and keptClose enclose the agent's command in that line: the
// body of a function nothing calls.
const (
	keptOpen  = "\nmassgen_hook_agent_command() {\n"
	keptClose = "\n}"
)

// keptHead is the first line of the line that keeps the agent's command
// (dialect.RewriteKept: Copilot CLI), which puts the command in the body of a
// function nothing calls, for the CLI's rules to read, and once only: bash
// runs a -c string one command at a time, and its first line replaces
// bash with the wrapper, handing it the whole string, from which the
// wrapper takes that body (keptCommand). Once only, because Linux takes
// at most 128 KiB in one argument: a command that runs without the
// sandbox runs with it. Should the exec fail (the wrapper removed since
// the hook looked), a non-interactive bash ends there; where the user set
// execfail, it goes on only to define the function. No `exit`: Copilot
// CLI would ask before every command for that word, which no rule of the
// user's allows; and nothing fancier than "$VAR" in the first line, which
// its parser would no longer split into commands.
func keptHead(wrapper, project string) string {
	return wrapperVar + "=" + shellQuote(wrapper) + "; " + projectVar + "=" + shellQuote(project) +
		` exec "$` + wrapperVar + `" ` + agentLineFlag + ` "$BASH_EXECUTION_STRING"`
}

// keptCommand is the agent's command in a line that keeps it: the body of
// the function that opens at the line's first keptOpen (its first line
// holds no line break) and closes at its end.
func keptCommand(line string) (string, bool) {
	_, rest, ok := strings.Cut(line, keptOpen)
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, keptClose)
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
	if d.RewriteForm == dialect.RewriteExecTail {
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

// quotedHead is a plain or exec-tail line up to the agent's command,
// quoted. In exec-tail, the project goes through env as one quoted word:
// an assignment before the command (VAR=value cmd) makes Codex's rule
// parser give up on the whole line, and its rules with it.
func quotedHead(d *dialect.Dialect, wrapper, project string) string {
	if d.RewriteForm == dialect.RewriteExecTail {
		return "exec /usr/bin/env " + shellQuote(projectVar+"="+project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " "
	}
	return projectVar + "=" + shellQuote(project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " "
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
// in an exec-tail line, that same original after it): a
// line that merely starts like it (`...'--agent-command' 'x'; rm -rf ~`,
// or another project) is not one.
func agentCommand(d *dialect.Dialect, command, wrapper, project string) (string, bool) {
	switch d.RewriteForm {
	case dialect.RewriteBashC:
		rest, ok := strings.CutPrefix(command, bashCPrefix(wrapper, project))
		if !ok {
			return "", false
		}
		return fromDoubleQuoted(rest)
	case dialect.RewriteKept:
		rest, ok := strings.CutPrefix(command, keptHead(wrapper, project)+keptOpen)
		if !ok {
			return "", false
		}
		return strings.CutSuffix(rest, keptClose)
	}
	// The plain and exec-tail forms hold the command as one quoted word:
	// made again from it, the line must come out the same.
	rest, ok := strings.CutPrefix(command, quotedHead(d, wrapper, project))
	if !ok {
		return "", false
	}
	inner, _, ok := cutQuoted(rest)
	if !ok || rewrittenCommand(d, wrapper, project, inner) != command {
		return "", false
	}
	return inner, true
}

// unwrapShellCall gives a post-tool-use event the shell command as the
// agent wrote it, where the pre-tool-use hook rewrote it: the CLI hands
// the post hook the rewritten line (Codex 0.169 and Gemini CLI 0.61 do), and the checks,
// the rules and the audit trail judge the agent's command, not the
// wrapper's (Copilot CLI 1.0.102 does too). Any other event, or a line the rewrite did not make, is
// left as it is.
func (a *app) unwrapShellCall(ev *protocol.Event, d *dialect.Dialect, project string) {
	if ev == nil || d.ConfinesBy != dialect.ConfineByRewrite || ev.ToolName != "Bash" {
		return
	}
	wrapper, ok := a.installedWrapper()
	if !ok {
		return
	}
	if raw, ok := withCommand(ev.ToolInput, func(command string) (string, bool) {
		return agentCommand(d, command, wrapper, project)
	}); ok {
		ev.ToolInput = raw
	}
}

// withCommand is input, a shell tool's arguments, with its command
// replaced by what change makes of it, every other field kept; ok is false
// where input is no object or change leaves the command as it is.
func withCommand(input json.RawMessage, change func(command string) (string, bool)) (json.RawMessage, bool) {
	var fields map[string]any
	if json.Unmarshal(input, &fields) != nil {
		return nil, false
	}
	command, _ := fields["command"].(string)
	changed, ok := change(command)
	if !ok {
		return nil, false
	}
	fields["command"] = changed
	raw, err := json.Marshal(fields)
	return raw, err == nil
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
	if err != nil || !isExecutableFile(path) {
		return "", false
	}
	return path, true
}

// rewriteReady is the wrapper d's rewrite runs, when what the rewritten
// line needs is installed: the wrapper, and for a CLI whose rules judge
// the line, the bash that hands the command to it, at a path those rules
// can read. Without it the line would not run. Inside the CLI's own
// container sandbox none of it is there.
func (a *app) rewriteReady(d *dialect.Dialect) (string, bool) {
	if a.inOwnSandbox(d) != "" {
		return "", false
	}
	wrapper, ok := a.installedWrapper()
	if ok && d != nil && d.RewriteForm == dialect.RewriteBashC && (!plainPath(sandboxedBashPath(wrapper)) || !isExecutableFile(sandboxedBashPath(wrapper))) {
		return "", false
	}
	return wrapper, ok
}

// inOwnSandbox is the name of the CLI's own container sandbox this hook
// runs in (dialect.OwnSandboxVar), "" outside one.
func (a *app) inOwnSandbox(d *dialect.Dialect) string {
	if d == nil || d.OwnSandboxVar == "" {
		return ""
	}
	return a.getenv(d.OwnSandboxVar)
}

// isExecutableFile reports whether path is a file that can be run.
func isExecutableFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
