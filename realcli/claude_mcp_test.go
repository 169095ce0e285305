//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mcpFilesystem is the reference filesystem MCP server, installed from npm
// at a pinned version into the suite's cache as the CLIs are. It is no CLI
// of the table: only scenarios that wire it install it.
var mcpFilesystem = &CLI{
	Name:     "mcp-server-filesystem",
	Version:  "2026.8.31",
	Packages: []string{"@modelcontextprotocol/server-filesystem@2026.8.31"},
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	},
	// The server takes no --version: its package.json says which it is.
	Verify: func(prefix, exe string) error {
		data, err := os.ReadFile(filepath.Join(prefix, "node_modules", "@modelcontextprotocol", "server-filesystem", "package.json"))
		if err != nil {
			return err
		}
		var pkg struct{ Version string }
		if err := json.Unmarshal(data, &pkg); err != nil {
			return err
		}
		if pkg.Version != "2026.8.31" {
			return fmt.Errorf("server-filesystem is version %q, not 2026.8.31", pkg.Version)
		}
		if _, err := os.Stat(exe); err != nil {
			return err
		}
		return nil
	},
}

// wireFilesystemServer installs the filesystem server and wires it, as a
// user does, in the project's .mcp.json, allowed over the project, with
// Claude Code told (in its personal settings, before init adds to them)
// to start the project's servers and to let the model call the two tools
// the scenario uses.
func wireFilesystemServer(s *Session) {
	inst, err := install(mcpFilesystem)
	if err != nil {
		s.need(fmt.Sprintf("the filesystem MCP server cannot be installed: %v", err))
	}
	node, err := exec.LookPath("node")
	if err != nil {
		s.need("node is not installed")
	}
	mcp, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{
		"filesystem": map[string]any{"command": node, "args": []string{inst.Exe, s.Project}},
	}}, "", "  ")
	s.WriteFile(".mcp.json", string(mcp)+"\n")
	local, _ := json.MarshalIndent(map[string]any{
		"enableAllProjectMcpServers": true,
		"permissions":                map[string]any{"allow": []string{"mcp__filesystem__read_text_file", "mcp__filesystem__write_file"}},
	}, "", "  ")
	s.WriteFile(".claude/settings.local.json", string(local)+"\n")
}

const readmeText = "README-7781: how to build\n"

// claudeMCPFilesystem: Claude Code drives the reference filesystem MCP
// server. Reading .env and writing .claude/settings.json through it are
// denied by the default guards, with the guard's reason as the result the
// model reads, and neither file changes or leaks; reading README.md
// through it passes, and its content is what the model reads (the server
// really ran).
func claudeMCPFilesystem(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile("README.md", readmeText)
	wireFilesystemServer(s)
	s.Wire()
	settings, _ := s.ReadFile(".claude/settings.json")

	m := s.Model
	m.On("read-env", All(Main, First), Use("call_mcp_env", "mcp__filesystem__read_text_file", map[string]any{"path": s.Path(".env")}))
	m.On("write-settings", All(Main, After("call_mcp_env")), Use("call_mcp_settings", "mcp__filesystem__write_file",
		map[string]any{"path": s.Path(".claude/settings.json"), "content": "{}\n"}))
	m.On("read-readme", All(Main, After("call_mcp_settings")), Use("call_mcp_readme", "mcp__filesystem__read_text_file", map[string]any{"path": s.Path("README.md")}))
	m.On("done", All(Main, After("call_mcp_readme")), Say("done"))
	run := s.Run("look at the project's files")

	done := s.Turn("done")
	wantDenied(s, done, "call_mcp_env", "protected path", ".env")
	wantDenied(s, done, "call_mcp_settings", "protected path", ".claude/settings.json")
	notDenied(s, done, "call_mcp_readme", "reading README.md through the server")
	if res, ok := done.ToolResult("call_mcp_readme"); !ok || !strings.Contains(res.Text, "README-7781") {
		s.Errorf("the model did not read README.md through the server: %+v", res)
	}
	if got, _ := s.ReadFile(".claude/settings.json"); got != settings {
		s.Errorf(".claude/settings.json changed: %q", got)
	}
	secretsKept(s, ".env")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "mcp__filesystem__read_text_file", "deny")
	s.wantAudit("PreToolUse", "mcp__filesystem__write_file", "deny")
}

// claudeMCPConfined: with the shell prefix wired (bubblewrap is here),
// Claude Code starts the filesystem server through it, confined as Bash
// commands are, and the config turns the default guards off, so the guard
// lets the write to .claude/settings.json through: the kernel refuses it
// all the same (the hooks' wiring is read-only in the sandbox), the model
// reads the server's error, and the file is intact. Reading README.md
// through the confined server still works.
func claudeMCPConfined(t *testing.T, s *Session) {
	needBwrap(s)
	s.WriteFile("README.md", readmeText)
	wireFilesystemServer(s)
	s.Wire()
	if !strings.Contains(s.initOut, "MCP servers filesystem start through the shell prefix, confined as Bash commands are") {
		s.Fatalf("init did not confine the server (confinement unavailable here?): %s", s.initOut)
	}
	s.WriteFile(".claude/massgen-hook.yaml", "default_guards: false\n")
	settings, _ := s.ReadFile(".claude/settings.json")

	m := s.Model
	m.On("write-settings", All(Main, First), Use("call_mcp_settings", "mcp__filesystem__write_file",
		map[string]any{"path": s.Path(".claude/settings.json"), "content": "{}\n"}))
	m.On("read-readme", All(Main, After("call_mcp_settings")), Use("call_mcp_readme", "mcp__filesystem__read_text_file", map[string]any{"path": s.Path("README.md")}))
	m.On("done", All(Main, After("call_mcp_readme")), Say("done"))
	run := s.Run("reset the settings")

	done := s.Turn("done")
	res, ok := done.ToolResult("call_mcp_settings")
	switch {
	case !ok:
		s.Errorf("the model got no result for the write")
	case strings.Contains(res.Text, "protected path"):
		s.Errorf("the guard denied the write, which the config lets through: %q", clip(res.Text, 300))
	case !strings.Contains(strings.ToLower(res.Text), "read-only file system"):
		s.Errorf("the write did not fail in the kernel: %q", clip(res.Text, 300))
	}
	if res, ok := done.ToolResult("call_mcp_readme"); !ok || !strings.Contains(res.Text, "README-7781") {
		s.Errorf("the model did not read README.md through the confined server: %+v", res)
	}
	if got, _ := s.ReadFile(".claude/settings.json"); got != settings {
		s.Errorf(".claude/settings.json changed: %q", got)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
