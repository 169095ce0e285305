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
	if strings.TrimSpace(command) == "" || isRewritten(command, wrapper, env.Layout.Project) {
		return out
	}
	if !confine.Remembered(env.State, a.sandboxTool(env.Layout.Project, cfg)).OK {
		return out
	}
	fields["command"] = rewrittenCommand(wrapper, env.Layout.Project, command, d.RewriteKeepsCommand)
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

// refuses reports whether an answer stops the call (or the agent): a
// command that does not run needs no sandbox.
func refuses(out protocol.Output) bool {
	if out.Continue != nil && !*out.Continue || out.Decision == "block" {
		return true
	}
	h := out.HookSpecificOutput
	return h != nil && h.PermissionDecision == protocol.DecisionDeny
}

// wrapperVar holds the wrapper's path in the line that keeps the agent's
// command (dialect RewriteKeepsCommand): the path, outside the project, is
// then no program the CLI's path check asks about.
const wrapperVar = "MASSGEN_HOOK_SHELL"

// keptOpen and keptClose enclose the agent's command in that line: the
// body of a function nothing calls.
const (
	keptOpen  = "\nmassgen_hook_agent_command() {\n"
	keptClose = "\n}"
)

// rewrittenCommand is the line the CLI's shell runs instead of command:
// the wrapper, told the project (a command's folder is wherever it was
// started, which the agent chose), runs command under the sandbox with
// its exit code, output and background jobs its own.
//
// keep (a CLI whose own rules judge the line) puts command in the body of
// a function nothing calls, for those rules to read, and once only: bash
// runs a -c string one command at a time, and its first line replaces
// bash with the wrapper, handing it the whole string, from which the
// wrapper takes that body (keptCommand). Once only, because Linux takes at
// most 128 KiB in one argument: a command that runs without the sandbox
// runs with it. Should the exec fail (the wrapper removed since the hook
// looked), a non-interactive bash ends there; where the user set execfail,
// it goes on only to define the function. No `|| exit`: Copilot CLI would
// ask before every command for that word, which no rule of the user's
// allows; and nothing fancier than "$VAR" in the first line, which its
// parser would no longer split into commands.
func rewrittenCommand(wrapper, project, command string, keep bool) string {
	if keep {
		return keptHead(wrapper, project) + keptOpen + command + keptClose
	}
	return plainHead(wrapper, project) + shellQuote(command)
}

// plainHead is what comes before the quoted command in the plain line.
func plainHead(wrapper, project string) string {
	return projectVar + "=" + shellQuote(project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " "
}

// keptHead is the first line of the line that keeps the command.
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

// isRewritten reports whether command is exactly the line this project's
// rewrite makes (a second pre-tool-use hook, or a CLI that asks twice):
// wrapping it again would nest the sandbox for nothing.
func isRewritten(command, wrapper, project string) bool {
	_, ok := agentCommand(command, wrapper, project)
	return ok
}

// agentCommand is the agent's command inside line, when line is exactly
// a line this project's rewrite makes, in either form. Only the exact form
// counts: a line that merely starts like one (`...'--agent-command' 'x';
// rm -rf ~`, or another project's) is no rewrite.
func agentCommand(line, wrapper, project string) (string, bool) {
	if rest, ok := strings.CutPrefix(line, keptHead(wrapper, project)+keptOpen); ok {
		return strings.CutSuffix(rest, keptClose)
	}
	rest, ok := strings.CutPrefix(line, plainHead(wrapper, project))
	if !ok {
		return "", false
	}
	if command, ok := leadingQuoted(rest); ok && rewrittenCommand(wrapper, project, command, false) == line {
		return command, true
	}
	return "", false
}

// leadingQuoted reads the single-quoted word s starts with, as shellQuote
// writes it: a quote inside is closed, escaped and opened again.
func leadingQuoted(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "'")
	if !ok {
		return "", false
	}
	var b strings.Builder
	for {
		end := strings.IndexByte(rest, '\'')
		if end < 0 {
			return "", false
		}
		b.WriteString(rest[:end])
		rest = rest[end+1:]
		after, quote := strings.CutPrefix(rest, `\''`)
		if !quote {
			return b.String(), true
		}
		b.WriteByte('\'')
		rest = after
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

// agentShellCall gives back, in a post-tool-use event whose shell command
// is a line this project's rewrite made, the agent's command: a CLI may
// report the call as it ran it (Copilot CLI does), and the hooks judge,
// note and record what the agent wrote. Any other event is left as it is,
// and so is one that cannot be re-read (the hooks then see the line).
func (a *app) agentShellCall(ev *protocol.Event, project, event string) *protocol.Event {
	if ev == nil || ev.ToolName != "Bash" {
		return ev
	}
	wrapper, err := a.shellPrefixPath()
	if err != nil {
		return ev
	}
	var input, whole map[string]json.RawMessage
	var line string
	if json.Unmarshal(ev.ToolInput, &input) != nil || json.Unmarshal(input["command"], &line) != nil || json.Unmarshal(ev.Raw, &whole) != nil {
		return ev
	}
	command, ok := agentCommand(line, wrapper, project)
	if !ok {
		return ev
	}
	input["command"], _ = json.Marshal(command)
	if whole["tool_input"], err = json.Marshal(input); err != nil {
		return ev
	}
	raw, err := json.Marshal(whole)
	if err != nil {
		return ev
	}
	unwrapped, err := protocol.ParseEvent(raw, event)
	if err != nil {
		return ev
	}
	return unwrapped
}
