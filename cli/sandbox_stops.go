package cli

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/protocol"
)

// noteSandboxStops tells the agent, after a Bash command the sandbox
// stopped, which path was masked or read-only, and that the user can widen
// confine.writable where that is the way; in the context of the hook
// right after the command (PostToolUse, or PostToolUseFailure for a
// command that failed). Only where init wired the sandbox, and only when
// the output holds a refusal: the plan is worked out only then.
func (a *app) noteSandboxStops(env *hookenv.Env, ev *protocol.Event, d *dialect.Dialect, out protocol.Output, cfg *config.Config) protocol.Output {
	if ev == nil || ev.ToolName != "Bash" || d.ConfinesBy == "" || cfg.Confine.Off {
		return out
	}
	text := ev.Error
	if len(ev.ToolResponse) > 0 {
		text += "\n" + commandOutput(gjson.ParseBytes(ev.ToolResponse))
	}
	if !strings.Contains(strings.ToLower(text), "denied") && !strings.Contains(strings.ToLower(text), "read-only") &&
		!strings.Contains(text, "not permitted") && !strings.Contains(text, "Errno") {
		return out
	}
	project := env.Layout.Project
	if !a.sandboxWired(d, project) {
		return out
	}
	p, err := confine.PolicyFor(cfg, project, a.getenv("HOME"), a.environ())
	if err != nil {
		return out
	}
	cwd := ev.Cwd
	if cwd == "" {
		cwd = project
	}
	msg := confine.Explain(p.Plan().Stops(text, cwd), relTo(project, configFileOf(cfg, project)))
	if msg == "" {
		return out
	}
	if out.HookSpecificOutput == nil {
		out.HookSpecificOutput = &protocol.HookSpecific{}
	}
	out.HookSpecificOutput.AdditionalContext = protocol.Paragraphs(out.HookSpecificOutput.AdditionalContext, msg)
	return out
}

// commandOutput is a shell call's output in its response: Claude Code's
// stdout and stderr, else the text fields the CLI hands over (Gemini CLI's
// llmContent, the text for the model, which holds both).
func commandOutput(r gjson.Result) string {
	if r.Get("stdout").Exists() || r.Get("stderr").Exists() {
		return r.Get("stdout").String() + "\n" + r.Get("stderr").String()
	}
	if r.Type == gjson.String {
		return r.String()
	}
	var parts []string
	r.ForEach(func(_, v gjson.Result) bool {
		if v.Type == gjson.String {
			parts = append(parts, v.String())
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// configFileOf is the config file the user edits: the one loaded, else
// the project's default place.
func configFileOf(cfg *config.Config, project string) string {
	if cfg.Path != "" {
		return cfg.Path
	}
	return project + "/" + config.DefaultPath
}
