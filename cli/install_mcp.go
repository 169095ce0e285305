package cli

import (
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/install/wiring"
)

// A stdio MCP server runs in a process of its own that the CLI starts,
// where the guards judge each call before the server gets it but not what
// the server itself opens. Claude Code starts every stdio server through
// CLAUDE_CODE_SHELL_PREFIX when it is set (the server's command line is
// the prefix's one argument, as a Bash command's is): with the prefix
// wired, the servers of .mcp.json, and of every other scope, already run
// confined, as Bash commands do. Wrapping one again in the program form
// (massgen-hook-shell --exec, for CLIs without a prefix) would nest one
// sandbox in another, which the kernel refuses: init takes such a wrapper
// out of .mcp.json, and uninstall does too.

// mcpServersFile is Claude Code's project file of MCP servers.
func mcpServersFile(project string) string { return filepath.Join(project, ".mcp.json") }

// claudeMCPConfined says, once the prefix is wired, that the project's
// stdio MCP servers start through it, confined; a server init wrapped in
// the program form is started as it was, since the prefix confines it.
func (w *installer) claudeMCPConfined(p placement) error {
	if p.scope == "user" {
		return nil
	}
	if err := w.unwireMCPConfinement(p); err != nil {
		return err
	}
	f, err := wiring.Read(mcpServersFile(p.project))
	if err != nil || !f.Exists {
		return nil
	}
	var names []string
	for _, sv := range wiring.MCPServers(f, isOurPrefix) {
		names = append(names, sv.Name)
	}
	if len(names) > 0 {
		verb := "start"
		if w.dryRun {
			verb = "would start"
		}
		w.say(f.Path, "MCP servers %s %s through the shell prefix, confined as Bash commands are", strings.Join(names, ", "), verb)
	}
	return nil
}

// unwireMCPConfinement starts every server of .mcp.json wrapped in the
// program form as it was. A server whose wrapped args were changed since
// is left, and named.
func (w *installer) unwireMCPConfinement(p placement) error {
	if p.scope == "user" {
		return nil
	}
	f, err := wiring.Read(mcpServersFile(p.project))
	if err != nil || !f.Exists {
		return nil
	}
	data, restored := w.restoreMCP(f)
	if len(restored) == 0 {
		return nil
	}
	saved := w.uninstall
	w.uninstall = true
	defer func() { w.uninstall = saved }()
	if err := w.settings(f, data, false); err != nil {
		return err
	}
	w.say(f.Path, "MCP servers %s start as they were, not through massgen-hook-shell --exec", strings.Join(restored, ", "))
	return nil
}

// restoreMCP is f's data with every server init started through the
// wrapper's program form started as it was, and those servers' names. A
// server whose wrapped arguments were changed since is left, and named.
func (w *installer) restoreMCP(f *wiring.File) ([]byte, []string) {
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
	return out.Data, restored
}

// projectMCP is out, a CLI's project file of MCP servers as init writes
// it (Gemini CLI's settings, Cursor's .cursor/mcp.json), with the
// project's stdio MCP servers started through the wrapper's program form
// when o asks (these CLIs have no shell prefix to start them through), or
// started as they were on uninstall; otherwise init names the servers
// that start outside the sandbox. Only the project scope's servers are
// confined: the wrapper names the project whose policy applies.
func (w *installer) projectMCP(f *wiring.File, out []byte, p placement, o installOptions, uninstall bool) ([]byte, error) {
	cur := wiring.File{Path: f.Path, Data: out, Exists: true, Mode: f.Mode}
	if p.scope != "project" || len(out) == 0 {
		return out, nil
	}
	if uninstall {
		data, restored := w.restoreMCP(&cur)
		for _, name := range restored {
			w.say(f.Path, "MCP server %s starts as it was, not through massgen-hook-shell --exec", name)
		}
		return data, nil
	}
	var open []string
	for _, sv := range wiring.MCPServers(&cur, isOurPrefix) {
		if !sv.Confined {
			open = append(open, sv.Name)
		}
	}
	if len(open) == 0 {
		return out, nil
	}
	names := strings.Join(open, ", ")
	if !o.confineMCP {
		w.say(f.Path, "MCP servers %s start outside the sandbox: the guards judge each call, not what the server itself opens (init --agent gemini or cursor, with --confine-mcp, starts them confined)", names)
		return out, nil
	}
	// Where they cannot be confined (confine: off, no bubblewrap, no
	// wrapper), the servers start as they are and the user is told; the
	// hooks are wired all the same.
	what := "MCP servers " + names
	prefix, why, err := w.sandboxUsable(p, f.Path, what)
	if err != nil {
		w.say(f.Path, "%s not confined: %v", what, err)
		return out, nil
	}
	if why != "" || !w.installWrapper(o, prefix, f.Path, what) {
		return out, nil
	}
	for _, name := range open {
		cur.Data = wiring.ConfineMCP(&cur, name, prefix, p.project)
	}
	verb := "start"
	if w.dryRun {
		verb = "would start"
	}
	w.say(f.Path, "MCP servers %s %s confined by bubblewrap through massgen-hook-shell --exec, as Bash commands run confined (uninstall starts them as they were)", names, verb)
	return cur.Data, nil
}

// cursorMCPFile is Cursor's project file of MCP servers.
func cursorMCPFile(project string) string { return filepath.Join(project, ".cursor", "mcp.json") }

// cursorMCP confines (or, on uninstall, restores) the stdio MCP servers
// of the project's .cursor/mcp.json, as projectMCP does; a missing file
// is left missing.
func (w *installer) cursorMCP(p placement, o installOptions, uninstall bool) error {
	if p.scope != "project" {
		return nil
	}
	f, err := wiring.Read(cursorMCPFile(p.project))
	if err != nil {
		return w.settingsError(err)
	}
	if !f.Exists {
		return nil
	}
	out, err := w.projectMCP(f, f.Data, p, o, uninstall)
	if err != nil || string(out) == string(f.Data) {
		return err
	}
	saved := w.uninstall
	w.uninstall = uninstall
	defer func() { w.uninstall = saved }()
	return w.settings(f, out, false)
}
