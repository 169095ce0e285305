//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// geminiMCPTool is the name Gemini CLI 0.61 gives the filesystem server's
// tool: mcp_<server>_<tool>.
func geminiMCPTool(tool string) string { return "mcp_filesystem_" + tool }

// geminiMCPConfined: init --agent gemini --confine-mcp starts the
// filesystem server of the project's .gemini/settings.json through
// massgen-hook-shell --exec. Reading .env through it is denied by the
// guard; with the default guards off, the server's write to
// .gemini/settings.json fails in the kernel (the hooks' wiring is
// read-only in the sandbox) and the file is intact; reading README.md
// through the confined server works.
func geminiMCPConfined(t *testing.T, s *Session) {
	needBwrap(s)
	inst, err := install(mcpFilesystem)
	if err != nil {
		s.need(fmt.Sprintf("the filesystem MCP server cannot be installed: %v", err))
	}
	node, err := exec.LookPath("node")
	if err != nil {
		s.need("node is not installed")
	}
	s.WriteFile("README.md", readmeText)
	s.WriteFile(".env", envSecret)
	settings, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{
		"filesystem": map[string]any{"command": node, "args": []string{inst.Exe, s.Project}},
	}}, "", "  ")
	s.WriteFile(".gemini/settings.json", string(settings)+"\n")
	s.Wire("--confine-mcp")
	if !strings.Contains(s.initOut, "MCP servers filesystem start confined by bubblewrap") {
		s.Fatalf("init did not confine the server: %s", s.initOut)
	}
	wired, _ := s.ReadFile(".gemini/settings.json")

	m := s.Model
	m.On("read-env", All(Main, First), Use("call_mcp_env", geminiMCPTool("read_text_file"), map[string]any{"path": s.Path(".env")}))
	// The guards go off before the write, as a user who told them to
	// allow it: only the sandbox stands in its way.
	m.On("write-settings", All(Main, After("call_mcp_env")), Use("call_mcp_settings", geminiMCPTool("write_file"),
		map[string]any{"path": s.Path(".gemini/settings.json"), "content": "{}\n"})).Before = func(*Request) error {
		s.WriteFile(".claude/massgen-hook.yaml", "default_guards: false\n")
		return nil
	}
	m.On("read-readme", All(Main, After("call_mcp_settings")), Use("call_mcp_readme", geminiMCPTool("read_text_file"), map[string]any{"path": s.Path("README.md")}))
	m.On("done", All(Main, After("call_mcp_readme")), Say("done"))
	run := s.Run("look at the project's files")

	done := s.Turn("done")
	wantDenied(s, done, "call_mcp_env", "protected path", ".env")
	if res, ok := done.ToolResult("call_mcp_settings"); !ok || !strings.Contains(strings.ToLower(res.Text), "read-only file system") {
		s.Errorf("the write did not fail in the kernel: %+v", res)
	}
	if res, ok := done.ToolResult("call_mcp_readme"); !ok || !strings.Contains(res.Text, "README-7781") {
		s.Errorf("the model did not read README.md through the confined server: %+v", res)
	}
	if got, _ := s.ReadFile(".gemini/settings.json"); got != wired {
		s.Errorf(".gemini/settings.json changed: %q", got)
	}
	secretsKept(s, ".env")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
