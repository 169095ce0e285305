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
	wrapper, ok := a.rewriteReady(d)
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
	if _, done := agentCommandOf(d, wrapper, env.Layout.Project, command); done || strings.TrimSpace(command) == "" {
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

// refuses reports whether an answer stops the call (or the agent): a
// command that does not run needs no sandbox.
func refuses(out protocol.Output) bool {
	if out.Continue != nil && !*out.Continue || out.Decision == "block" {
		return true
	}
	h := out.HookSpecificOutput
	return h != nil && h.PermissionDecision == protocol.DecisionDeny
}

// rewrittenCommand is the line d's shell runs instead of command: the
// wrapper, told the project (a command's folder is wherever it was
// started, which the agent chose), runs command under the sandbox with
// its exit code, output and background jobs its own. Where d's own rules
// judge the rewritten line, it keeps a form they see through (see
// shell_rewrite_bashc.go).
func rewrittenCommand(d *dialect.Dialect, wrapper, project, command string) string {
	if d.RulesJudgeBashC {
		return bashCPrefix(wrapper, project) + doubleQuoted(command)
	}
	return projectVar + "=" + shellQuote(project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " " + shellQuote(command)
}

// agentCommandOf is the agent's command, when line is exactly the line
// this project's rewrite makes of it (a second pre-tool-use hook, a CLI
// that asks twice, or the CLI handing the post-tool-use hook the command
// that ran): wrapping it again would nest the sandbox for nothing. Only
// the exact form counts, the original one quoted word: a line that
// merely starts like it (`...'--agent-command' 'x'; rm -rf ~`, or
// another project) is wrapped like any other.
func agentCommandOf(d *dialect.Dialect, wrapper, project, line string) (string, bool) {
	prefix := projectVar + "=" + shellQuote(project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " "
	if d.RulesJudgeBashC {
		prefix = bashCPrefix(wrapper, project)
	}
	rest, ok := strings.CutPrefix(line, prefix)
	if !ok {
		return "", false
	}
	if d.RulesJudgeBashC {
		return fromDoubleQuoted(rest)
	}
	if len(rest) < 2 || rest[0] != '\'' || rest[len(rest)-1] != '\'' {
		return "", false
	}
	inner := strings.ReplaceAll(rest[1:len(rest)-1], `'\''`, "'")
	return inner, shellQuote(inner) == rest
}

// restoreAgentCommand gives the post-tool-use checks (and the audit
// trail) the agent's command where the CLI hands them the rewritten line
// that ran it (Gemini CLI 0.61 hands its AfterTool hooks the input the
// BeforeTool hook gave).
func (a *app) restoreAgentCommand(d *dialect.Dialect, project string, ev *protocol.Event) {
	if d.ConfinesBy != dialect.ConfineByRewrite || ev == nil || ev.ToolName != "Bash" {
		return
	}
	wrapper, err := a.shellPrefixPath()
	if err != nil {
		return
	}
	var fields map[string]any
	if json.Unmarshal(ev.ToolInput, &fields) != nil {
		return
	}
	line, _ := fields["command"].(string)
	command, ok := agentCommandOf(d, wrapper, project, line)
	if !ok {
		return
	}
	fields["command"] = command
	if raw, err := json.Marshal(fields); err == nil {
		ev.ToolInput = raw
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
// the line, the bash that hands the command to it. Without it the line
// would not run.
func (a *app) rewriteReady(d *dialect.Dialect) (string, bool) {
	if a.inOwnSandbox(d) != "" {
		return "", false
	}
	wrapper, ok := a.installedWrapper()
	if ok && d != nil && d.RulesJudgeBashC && (!plainPath(sandboxedBashPath(wrapper)) || !isExecutableFile(sandboxedBashPath(wrapper))) {
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
