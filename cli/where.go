package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/scratchpad"
	"github.com/massgen/massgen-hook/state"
)

// resolveProject finds the project root: --project-dir, else
// $CLAUDE_PROJECT_DIR (it stays put when the session cds; Cursor and Gemini
// CLI set it too), else the dialect's own variable, each taken as given;
// else the root found above the event's cwd, or above the working
// directory (findProjectRoot), so a command run in a subdirectory works on
// the project it is in. It must be an existing directory.
func (a *app) resolveProject(eventCwd string, dialectEnv ...string) (string, error) {
	return a.locateProject(eventCwd, true, dialectEnv...)
}

// resolveProjectHere is resolveProject without the walk up: init and
// uninstall act on the directory they are run in, as git init does, since
// they make or remove the markers the walk looks for.
func (a *app) resolveProjectHere() (string, error) {
	return a.locateProject("", false)
}

func (a *app) locateProject(eventCwd string, walk bool, dialectEnv ...string) (string, error) {
	dir, from := a.projectDir, "--project-dir"
	for _, name := range append([]string{"CLAUDE_PROJECT_DIR"}, dialectEnv...) {
		if dir == "" && name != "" {
			dir, from = a.getenv(name), name
		}
	}
	named := dir != ""
	if dir == "" {
		dir, from = eventCwd, "the event's cwd"
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("finding the project: no --project-dir, CLAUDE_PROJECT_DIR or event cwd, and no working directory: %w", err)
		}
		dir, from = wd, "the working directory"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("project directory %q (from %s): %w", dir, from, err)
	}
	info, err := os.Stat(abs)
	if err != nil || !info.IsDir() {
		return "", fmt.Errorf("project directory %s (from %s) is not an existing directory", abs, from)
	}
	if named || !walk {
		return abs, nil
	}
	return findProjectRoot(abs, a.getenv("HOME")), nil
}

// layoutOf places the scratchpad root of cfg in project.
func layoutOf(project string, cfg config.Config) scratchpad.Layout {
	root := cfg.Scratchpad.Root
	if !filepath.IsAbs(root) {
		root = filepath.Join(project, root)
	}
	return scratchpad.NewLayout(project, filepath.Clean(root))
}

// commandState is what a command run by hand (send, inbox, round) works
// on: the project's runtime directory and "now". A project or clock that
// cannot be had is a usage error.
func (a *app) commandState() (*state.Dir, time.Time, error) {
	project, err := a.resolveProject("")
	if err != nil {
		return nil, time.Time{}, &usageError{err: err}
	}
	now, err := a.clock()
	if err != nil {
		return nil, time.Time{}, &usageError{err: err}
	}
	return a.stateDir(project), now, nil
}

// clock is "now": $MASSGEN_HOOK_NOW (RFC 3339) when set, so tests and
// replays are repeatable, else the real clock. Dates are taken in the local
// time zone (TZ is respected).
func (a *app) clock() (time.Time, error) {
	v := a.getenv("MASSGEN_HOOK_NOW")
	if v == "" {
		return a.now(), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("MASSGEN_HOOK_NOW=%q is not an RFC 3339 time (like 2026-11-20T09:30:00Z)", v)
	}
	return t, nil
}

// resolveAgent is the agent whose rules apply: --agent, else the MassGen
// agent a MassGen HookEvent names, else $MASSGEN_AGENT_ID (set it per agent
// process; MassGen itself does not), else the MassGen agent whose
// workspace the event's cwd is in (massgenAgentAt), else the event's
// agent_type (a Claude Code subagent), else "" (the main thread, which has
// only the global rules).
func (a *app) resolveAgent(ev *protocol.Event, cfg *config.Config, project string) string {
	if a.agent != "" {
		return a.agent
	}
	if ev != nil && ev.MassGenAgent != "" {
		return ev.MassGenAgent
	}
	if id := a.getenv("MASSGEN_AGENT_ID"); id != "" {
		return id
	}
	if ev == nil {
		return ""
	}
	if id := cfg.AgentAt(project, ev.Cwd); id != "" {
		return id
	}
	return ev.AgentType
}

// resolveRecipient is who the inbox delivers to: the agent whose context
// this hook's answer reaches. --agent names it outright, and a MassGen
// HookEvent's agent_id names a MassGen agent (never a subagent). Inside a
// Claude Code subagent (its agent_id) it is the subagent's type (the
// configured default agent for an empty one), even when $MASSGEN_AGENT_ID
// names the orchestrated agent that started it: context added there
// reaches the subagent, and the agent's own messages must wait for the
// agent. Otherwise it is $MASSGEN_AGENT_ID, the MassGen agent whose
// workspace the event's cwd is in, the main thread's agent_type (claude
// --agent), or the coordinator.
func (a *app) resolveRecipient(ev *protocol.Event, cfg *config.Config, project string) string {
	if a.agent != "" {
		return a.agent
	}
	if ev == nil {
		return inbox.Coordinator
	}
	if ev.MassGenAgent != "" {
		return ev.MassGenAgent
	}
	subagent := ev.AgentID != "" || ev.HookEventName == protocol.SubagentStart || ev.HookEventName == protocol.SubagentStop
	switch {
	case subagent && ev.AgentType != "":
		return ev.AgentType
	case subagent:
		return cfg.Scratchpad.DefaultAgent
	}
	if id := a.getenv("MASSGEN_AGENT_ID"); id != "" {
		return id
	}
	if id := cfg.AgentAt(project, ev.Cwd); id != "" {
		return id
	}
	if ev.AgentType != "" {
		return ev.AgentType
	}
	return inbox.Coordinator
}
