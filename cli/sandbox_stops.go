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
	if ev == nil || ev.ToolName != "Bash" || cfg.Confine.Off {
		return out
	}
	text := ev.Error
	if len(ev.ToolResponse) > 0 {
		text += "\n" + responseText(gjson.ParseBytes(ev.ToolResponse))
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

// configFileOf is the config file the user edits: the one loaded, else
// the project's default place.
func configFileOf(cfg *config.Config, project string) string {
	if cfg.Path != "" {
		return cfg.Path
	}
	return project + "/" + config.DefaultPath
}

// responseText is what a shell tool's result says, in any CLI's shape:
// Claude Code's stdout and stderr, a plain string (Codex), or the string
// fields of an object (Gemini CLI's, Copilot CLI's), one level down.
func responseText(r gjson.Result) string {
	if !r.IsObject() {
		return r.String()
	}
	var parts []string
	r.ForEach(func(_, v gjson.Result) bool {
		switch {
		case v.Type == gjson.String:
			parts = append(parts, v.String())
		case v.IsObject():
			v.ForEach(func(_, w gjson.Result) bool {
				if w.Type == gjson.String {
					parts = append(parts, w.String())
				}
				return true
			})
		}
		return true
	})
	return strings.Join(parts, "\n")
}
