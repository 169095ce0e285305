package lifecycle

import (
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
)

// scratchpadWriters are the tools a scratchpad is written with. Bash is
// not among them: what a command writes cannot be told from its text with
// the certainty a permission needs.
var scratchpadWriters = &lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{"Write": true, "Edit": true, "MultiEdit": true} }}

// PermissionRequest grants the one permission the scratchpad protocol
// needs. Claude Code treats every file under .claude/ as sensitive and asks
// before each write there, even with the tool allowed: headless nobody can
// answer, so a subagent could never write its scratchpad and every one would
// be blocked until the stop cap. The grant covers exactly the calling
// agent's own file for today (the main thread's is the coordinator's), by
// Write, Edit or MultiEdit, judged as the kernel resolves the path (see
// scratchpad.Layout.IsFile), and is recorded in the audit trail. Every
// other request, and plan mode, gets no opinion: Claude Code asks as usual.
func PermissionRequest(env *hookenv.Env, ev *protocol.Event) (protocol.Output, error) {
	if !scratchpadWriters.Get()[ev.ToolName] || ev.PermissionMode == "plan" {
		return protocol.Output{}, nil
	}
	path := protocol.View(ev.ToolInput).Get("file_path")
	if path.Type != gjson.String || path.Str == "" {
		return protocol.Output{}, nil
	}
	file := path.Str
	if !filepath.IsAbs(file) {
		if !filepath.IsAbs(ev.Cwd) {
			return protocol.Output{}, nil
		}
		file = filepath.Join(ev.Cwd, file)
	}
	dir := scratchpad.CoordinatorDir
	if ev.AgentID != "" {
		d, err := scratchpad.DirName(ev.AgentType, env.Config.Scratchpad.DefaultAgent)
		if err != nil {
			return protocol.Output{}, &protocol.InputError{Field: "agent_type", Msg: err.Error()}
		}
		dir = d
	}
	if env.Layout.IsFile(file, dir, env.Today()) != nil {
		return protocol.Output{}, nil
	}
	if !env.DryRun {
		if err := env.State.Audit(grantRecord{
			Time: env.Now.UTC().Format(time.RFC3339Nano), Event: ev.HookEventName, Session: ev.SessionID,
			Agent: scratchpad.DisplayName(dir), AgentID: ev.AgentID, Tool: ev.ToolName,
			File: env.Layout.Rel(file), Decision: protocol.DecisionAllow, Rule: "scratchpad.own_file",
		}); err != nil {
			env.Note("could not record the permission granted for %s: %v", env.Layout.Rel(file), err)
		}
	}
	return protocol.GrantPermission(), nil
}

// grantRecord is the audit line of a granted permission.
type grantRecord struct {
	Time     string `json:"time"`
	Event    string `json:"event"`
	Session  string `json:"session_id"`
	Agent    string `json:"agent"`
	AgentID  string `json:"agent_id"`
	Tool     string `json:"tool"`
	File     string `json:"file"`
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
}
