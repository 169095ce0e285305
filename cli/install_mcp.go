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
	w.say(f.Path, "MCP servers %s start as they were, not through massgen-hook-shell --exec", strings.Join(restored, ", "))
	return nil
}
