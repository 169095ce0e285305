package cli

import (
	"os"
	"path/filepath"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/install/codextrust"
)

// codexDefaultSandbox is the sandbox Codex CLI 0.169 runs a trusted
// project's shell commands in when neither its config nor its flags name
// one.
const codexDefaultSandbox = "workspace-write"

// ownSandbox is the mode of the CLI's own sandbox that holds its shell
// commands in project ("read-only", "workspace-write"), or "" where it
// runs them without one, and massgen-hook's sandbox holds them: bubblewrap
// cannot run inside Codex's, so in those modes a command runs in Codex's
// alone (see confine.InsideAnother). Only Codex has one. A session's
// transcript says what it runs with, its flags included; elsewhere
// (doctor, a transcript not written yet) the config's sandbox_mode, the
// project's over the user's, says what a run gets unless its flags say
// otherwise.
func (a *app) ownSandbox(cli, project, transcript string) string {
	if cli != dialect.Codex.Name {
		return ""
	}
	mode, ok := "", false
	if transcript != "" {
		mode, ok = codextrust.SessionSandbox(transcript)
	}
	if !ok {
		mode = a.codexConfiguredSandbox(project)
	}
	if mode == codextrust.NoSandbox {
		return ""
	}
	return mode
}

// codexConfiguredSandbox is the sandbox_mode Codex's config gives a run in
// project: the project's .codex/config.toml, where Codex trusts the
// project, else the user's, else Codex's default.
func (a *app) codexConfiguredSandbox(project string) string {
	user, err := codextrust.ReadConfig(codextrust.Home(a.getenv("CODEX_HOME"), a.getenv("HOME")))
	if err == nil && user.ProjectTrusted(project) {
		var local struct {
			SandboxMode string `toml:"sandbox_mode"`
		}
		data, err := os.ReadFile(filepath.Join(project, ".codex", "config.toml"))
		if err == nil && toml.Unmarshal(data, &local) == nil && local.SandboxMode != "" {
			return local.SandboxMode
		}
	}
	if user.SandboxMode != "" {
		return user.SandboxMode
	}
	return codexDefaultSandbox
}
