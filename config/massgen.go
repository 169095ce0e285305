package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/internal/suggest"
)

// MassGenVersion is the MassGen release whose config format and file
// conventions this package follows.
const MassGenVersion = "0.1.78"

// A MassGen config file is read as it is. It is recognised by an agent
// whose backend names its type (agents[].backend.type), a field MassGen
// requires and massgen-hook's own format never has. In such a file:
//   - the keys MassGen defines at the top and in an agent are accepted and
//     ignored; a backend's other keys (model, cwd, provider parameters) are
//     too, since MassGen passes them on to the model's API;
//   - a key close to one of massgen-hook's own is still an error (a typo
//     of ours must never pass silently); any other key that is neither
//     ours nor MassGen's is a notice;
//   - a rule without type: is MassGen's Python hook (MassGen's default),
//     skipped with a notice: it runs inside MassGen, not here.

// massgenTopKeys and massgenAgentKeys are the keys MassGen reads at the top
// of its config and in an agent (its config validator and CLI).
var (
	massgenTopKeys   = []string{"agent", "agents", "checkpoint", "hooks", "memory", "orchestrator", "prompt", "session_id", "timeout_settings", "ui"}
	massgenAgentKeys = []string{"backend", "enable_nlip", "id", "main_agent", "memory", "nlip", "subagent_agents", "subtask", "system_message", "voting_sensitivity"}
)

// TypePython is MassGen's only hook type: a Python callable MassGen
// imports. massgen-hook runs programs, so it never runs one.
const TypePython = "python"

// recogniseMassGen reports whether the file is MassGen's: an agent's
// backend, or the backend of MassGen's single-agent form (agent:), names
// its type.
func (c *Config) recogniseMassGen() bool {
	for _, a := range c.Agents {
		if a.Backend.Type != "" {
			return true
		}
	}
	single, ok := c.Other["agent"]
	return ok && mappingKey(mappingKey(&single, "backend"), "type") != nil
}

// mappingKey is the value of key in mapping n, or nil.
func mappingKey(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// checkOtherKeys judges the keys that are not massgen-hook's: errors in
// massgen-hook's own file; in a MassGen file, MassGen's keys pass, a near
// miss of one of ours is an error, and the rest are notices.
func (c *Config) checkOtherKeys(bad func(key, msg string), note func(key, format string, args ...any)) {
	judge := func(prefix string, other map[string]yaml.Node, ours, theirs []string, open bool) {
		for _, k := range sortedKeys(other) {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			near := suggest.Closest(k, ours)
			switch {
			case !c.MassGen:
				msg := fmt.Sprintf("unknown key %q", key)
				if near != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", near)
				} else if strings.HasSuffix(prefix, ".backend") {
					msg += ": a backend's other keys are read as MassGen's only when it names its type (backend.type: codex, claude_code, ...)"
				}
				bad(key, msg)
			case slices.Contains(theirs, k) || open && near == "":
			case near != "":
				bad(key, fmt.Sprintf("unknown key %q (did you mean %q?)", key, near))
			default:
				hint := ""
				if s := suggest.Closest(k, theirs); s != "" {
					hint = fmt.Sprintf(" (did you mean MassGen's %q?)", s)
				}
				note(key, "neither massgen-hook's key nor MassGen %s's: ignored%s", MassGenVersion, hint)
			}
		}
	}
	judge("", c.Other, keysOf("Config"), massgenTopKeys, false)
	for i := range c.Agents {
		a := &c.Agents[i]
		prefix := fmt.Sprintf("agents[%d]", i)
		judge(prefix, a.Other, keysOf("Agent"), massgenAgentKeys, false)
		judge(prefix+".backend", a.Backend.Other, []string{"hooks"}, nil, true)
	}
}

func sortedKeys(m map[string]yaml.Node) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// runLeaf returns name without MassGen's per-run suffix (an underscore
// and 8 lower-case hexadecimal digits), and whether it had one.
func runLeaf(name string) (string, bool) {
	i := len(name) - 9
	if i < 1 || name[i] != '_' {
		return name, false
	}
	for _, r := range name[i+1:] {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return name, false
		}
	}
	return name[:i], true
}

// massgenLeaf is the folder name MassGen suffixes: it renames a
// "workspaceN" leaf to "workspace" first, so the folder does not tell
// agents apart by number.
func massgenLeaf(leaf string) string {
	digits := strings.TrimPrefix(leaf, "workspace")
	if digits == leaf || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return leaf
	}
	return "workspace"
}

// WorkspaceDir is the folder where MassGen keeps the agent's files and its
// injection files (.codex/, .gemini/), in project: the agent's
// workspace: when given (relative to the project unless absolute), else
// where MassGen puts backend.cwd, "" when neither is set. MassGen routes a
// relative cwd under .massgen/workspaces/ and adds a per-run suffix
// (workspace1 becomes workspace_1a2b3c4d): the folder is cwd (the one the
// hook runs in) when it is the routed folder with a suffix; else the one
// such folder list (reading a folder's names; nil reads none) finds beside
// it; else the routed folder itself. Two agents whose cwd MassGen renames
// alike (workspace1, workspace2) cannot be told apart by their folders:
// there only cwd, or workspace:, finds the agent's.
func (a *Agent) WorkspaceDir(project, cwd string, list func(dir string) []string) string {
	if a.Workspace != "" {
		return absIn(project, a.Workspace)
	}
	if a.Backend.Cwd == "" {
		return ""
	}
	base := a.Backend.Cwd
	if !filepath.IsAbs(base) && !strings.HasPrefix(filepath.ToSlash(filepath.Clean(base)), ".massgen/") {
		base = filepath.Join(".massgen", "workspaces", base)
	}
	base = absIn(project, base)
	parent, want := filepath.Dir(base), massgenLeaf(filepath.Base(base))
	if cwd != "" {
		cwd = filepath.Clean(cwd)
		if leaf, ok := runLeaf(filepath.Base(cwd)); ok && filepath.Dir(cwd) == parent && leaf == want {
			return cwd
		}
	}
	if list == nil {
		return base
	}
	found := ""
	for _, name := range list(parent) {
		if leaf, ok := runLeaf(name); ok && leaf == want {
			if found != "" {
				return base // several runs' folders: none is surely this one
			}
			found = filepath.Join(parent, name)
		}
	}
	if found == "" {
		return base
	}
	return found
}

func absIn(project, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(project, p)
}

// AgentAt returns the id of the one MassGen agent whose workspace holds
// dir (the folder a hook runs in), or "": MassGen runs each agent's CLI in
// its workspace, so where a hook runs tells which agent it serves. None
// when two agents could own the folder (MassGen names workspace1 and
// workspace2 alike), or outside a MassGen config.
func (c *Config) AgentAt(project, dir string) string {
	if !c.MassGen || dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	found := ""
	for i := range c.Agents {
		a := &c.Agents[i]
		ws := a.WorkspaceDir(project, walkToWorkspace(dir, a, project), nil)
		if ws == "" || dir != ws && !strings.HasPrefix(dir, ws+string(filepath.Separator)) {
			continue
		}
		if found != "" {
			return ""
		}
		found = a.ID
	}
	return found
}

// walkToWorkspace is the folder of dir directly under the folder MassGen
// routes a's workspace into, so a hook that runs in a subfolder of a run
// folder (workspace_1a2b3c4d/src) is still placed in it.
func walkToWorkspace(dir string, a *Agent, project string) string {
	if a.Workspace != "" || a.Backend.Cwd == "" {
		return dir
	}
	parent := filepath.Dir(a.WorkspaceDir(project, "", nil))
	rel, err := filepath.Rel(parent, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return dir
	}
	first, _, _ := strings.Cut(rel, string(filepath.Separator))
	return filepath.Join(parent, first)
}

// AgentByID returns the agent configured as id, or nil.
func (c *Config) AgentByID(id string) *Agent {
	for i := range c.Agents {
		if c.Agents[i].ID == id {
			return &c.Agents[i]
		}
	}
	return nil
}
