//go:build realcli

package realcli

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// claudePluginFirstUse: Claude Code loads the repository as a plugin
// (--plugin-dir), with nothing wired by init and an empty Go build cache.
// The plugin's first hook call installs its pinned release (a file://
// folder holding the freshly built binary, listed in the plugin's
// hooks/SHA256SUMS) instead of building, so it answers within the hook's
// timeout, and the plugin's guards deny `cat .env`. A build would not do:
// MASSGEN_HOOK_BUILD_WAIT=0 makes the launcher give up on one at once.
func claudePluginFirstUse(t *testing.T, s *Session) {
	plugin := filepath.Join(s.Root, "plugin")
	release := filepath.Join(s.Root, "release")
	for _, rel := range []string{".claude-plugin/plugin.json", "hooks/hooks.json", "hooks/massgen-hook.sh", "hooks/first-use.sh", "scripts/fetch-release.sh"} {
		copyFile(t, filepath.Join("..", rel), filepath.Join(plugin, rel))
	}
	name := fmt.Sprintf("massgen-hook_v0.0.0-realcli_%s_%s", runtime.GOOS, runtime.GOARCH)
	copyFile(t, hookBinary, filepath.Join(release, name))
	data, err := os.ReadFile(hookBinary)
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(data))
	sums := sum + "  " + name + "\n"
	for _, p := range []string{filepath.Join(release, "SHA256SUMS"), filepath.Join(plugin, "hooks", "SHA256SUMS")} {
		if err := os.WriteFile(p, []byte(sums), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.Env = append(s.Env, "MASSGEN_HOOK_RELEASE_URL=file://"+release, "GOCACHE="+filepath.Join(s.Root, "empty-gocache"), "MASSGEN_HOOK_BUILD_WAIT=0")
	s.Args = append(s.Args, "--plugin-dir", plugin)

	s.WriteFile(".env", envSecret)
	m := s.Model
	m.On("cat", All(Main, First), ccBash("toolu_cat", "cat .env"))
	m.On("done", All(Main, After("toolu_cat")), Say("I may not read it."))
	run := s.Run("show me the environment file")

	next := s.Turn("done")
	res, _ := next.ToolResult("toolu_cat")
	if !res.IsError || !strings.Contains(res.Text, "protected path") || !strings.Contains(res.Text, ".env") {
		s.Errorf("the model did not get the plugin guard's reason as the result of cat .env: %+v", res)
	}
	if next.Contains("realcli-secret") {
		s.Errorf("the secret reached the model")
	}
	if installed, err := os.ReadFile(filepath.Join(plugin, "bin", "massgen-hook")); err != nil || fmt.Sprintf("%x", sha256.Sum256(installed)) != sum {
		s.Errorf("the plugin's bin/massgen-hook is not the pinned release (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(s.Project, ".claude", "settings.json")); err == nil {
		s.Errorf("the project has a settings.json: the hooks ran from somewhere other than the plugin")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// copyFile copies src to dst with src's mode, making dst's folder.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}
