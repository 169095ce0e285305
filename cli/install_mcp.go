package cli

import (
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/install/wiring"
)

// A stdio MCP server runs in a process of its own that the CLI starts,
// where the sandbox of Bash commands does not reach: the guards judge each
// call before the server gets it, and the server's own file access is
// unchecked. init --confine-mcp starts each stdio server of the project's
// .mcp.json through the wrapper's program form (massgen-hook-shell --exec,
// see shell_exec.go), so that the server meets the same kernel rules as a
// confined Bash command; uninstall starts each as it was. Without the
// flag, init says which servers run outside the sandbox.

// mcpServersFile is Claude Code's project file of MCP servers.
func mcpServersFile(project string) string { return filepath.Join(project, ".mcp.json") }

// wireMCPConfinement confines the project's stdio MCP servers through
// prefix, the installed wrapper, when o asks; otherwise it names those
// that run unconfined. The user scope's servers (in ~/.claude.json, which
// Claude Code itself rewrites) are left alone.
func (w *installer) wireMCPConfinement(p placement, prefix string, o installOptions) error {
	if p.scope == "user" {
		return nil
	}
	f, err := wiring.Read(mcpServersFile(p.project))
	if err != nil {
		return w.settingsError(err)
	}
	var open []string
	for _, sv := range wiring.MCPServers(f, isOurPrefix) {
		if !sv.Confined {
			open = append(open, sv.Name)
		}
	}
	if len(open) == 0 {
		return nil
	}
	if !o.confineMCP {
		w.say(f.Path, "MCP servers %s start outside the sandbox: the guards judge each call, not what the server itself opens (init --confine-mcp starts them confined)", strings.Join(open, ", "))
		return nil
	}
	out := *f
	for _, name := range open {
		out.Data = wiring.ConfineMCP(&out, name, prefix, p.project)
	}
	if err := w.settings(f, out.Data, false); err != nil {
		return err
	}
	verb := "start"
	if w.dryRun {
		verb = "would start"
	}
	w.say(f.Path, "MCP servers %s %s confined by bubblewrap, as Bash commands run (uninstall starts them as they were)", strings.Join(open, ", "), verb)
	return nil
}

// unwireMCPConfinement starts every server init confined as it was. A
// server whose wrapped args were changed since is left, and named.
func (w *installer) unwireMCPConfinement(p placement) error {
	if p.scope == "user" {
		return nil
	}
	f, err := wiring.Read(mcpServersFile(p.project))
	if err != nil || !f.Exists {
		return nil
	}
	out := *f
	var restored []string
	for _, sv := range wiring.MCPServers(f, isOurPrefix) {
		if !sv.Confined {
			continue
		}
		data, ok := wiring.UnconfineMCP(&out, sv.Name)
		if !ok {
			w.say(f.Path, "MCP server %s runs %s with arguments that are not init's: left as it is", sv.Name, sv.Command)
			continue
		}
		out.Data = data
		restored = append(restored, sv.Name)
	}
	if len(restored) == 0 {
		return nil
	}
	saved := w.uninstall
	w.uninstall = true
	defer func() { w.uninstall = saved }()
	if err := w.settings(f, out.Data, false); err != nil {
		return err
	}
	w.say(f.Path, "MCP servers %s start as they were, unconfined", strings.Join(restored, ", "))
	return nil
}
