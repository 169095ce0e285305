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
	if strings.TrimSpace(command) == "" || isRewritten(command, wrapper, env.Layout.Project) {
		return out
	}
	if !confine.Remembered(env.State, a.sandboxTool(env.Layout.Project, cfg)).OK {
		return out
	}
	fields["command"] = rewrittenCommand(wrapper, env.Layout.Project, command)
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

// rewrittenCommand is the line the CLI's shell runs instead of command:
// the wrapper, told the project (a command's folder is wherever it was
// started, which the agent chose), runs command under the sandbox with
// its exit code, output and background jobs its own.
func rewrittenCommand(wrapper, project, command string) string {
	return projectVar + "=" + shellQuote(project) + " " + shellQuote(wrapper) + " " + agentCommandFlag + " " + shellQuote(command)
}

// isRewritten reports whether command is exactly the line this project's
// rewrite makes (a second pre-tool-use hook, or a CLI that asks twice):
// wrapping it again would nest the sandbox for nothing. Only the exact
// form counts, the original one quoted word: a line that merely starts
// like it (`...'--agent-command' 'x'; rm -rf ~`, or another project) is
// wrapped like any other.
func isRewritten(command, wrapper, project string) bool {
	rest, ok := strings.CutPrefix(command, projectVar+"="+shellQuote(project)+" "+shellQuote(wrapper)+" "+agentCommandFlag+" ")
	if !ok || len(rest) < 2 || rest[0] != '\'' || rest[len(rest)-1] != '\'' {
		return false
	}
	inner := strings.ReplaceAll(rest[1:len(rest)-1], `'\''`, "'")
	return shellQuote(inner) == rest
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
