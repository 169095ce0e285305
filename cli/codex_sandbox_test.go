package cli

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOwnSandboxIsCodexsModeFromItsTranscriptElseItsConfig(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := &app{getenv: func(k string) string { return map[string]string{"HOME": home}[k] }}
	check := func(what, cli, transcript, want string) {
		t.Helper()
		if got := a.ownSandbox(cli, project, transcript); got != want {
			t.Errorf("%s: got %q, want %q", what, got, want)
		}
	}
	check("no config: Codex's default", "codex", "", "workspace-write")
	check("not Codex", "gemini", "", "")

	write(filepath.Join(home, ".codex", "config.toml"), "sandbox_mode = \"danger-full-access\"\n")
	check("the user's config: no sandbox", "codex", "", "")
	// The project's config counts only where Codex trusts the project.
	write(filepath.Join(project, ".codex", "config.toml"), "sandbox_mode = \"read-only\"\n")
	check("an untrusted project's config", "codex", "", "")
	write(filepath.Join(home, ".codex", "config.toml"), "sandbox_mode = \"danger-full-access\"\n[projects.\""+project+"\"]\ntrust_level = \"trusted\"\n")
	check("a trusted project's config", "codex", "", "read-only")

	// The session's own record wins: it holds what the run's flags made.
	full := filepath.Join(dir, "full.jsonl")
	write(full, `{"type":"turn_context","payload":{"sandbox_policy":{"type":"danger-full-access"}}}`+"\n")
	check("a transcript without a sandbox", "codex", full, "")
	early := filepath.Join(dir, "early.jsonl")
	write(early, `{"type":"session_meta","payload":{}}`+"\n")
	check("a transcript with no turn yet: the config", "codex", early, "read-only")
}
