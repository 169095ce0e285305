//go:build realcli

package realcli

import "path/filepath"

// codexCLI is Codex CLI. Installed and wired; its fake model API (streamed
// POST /v1/responses) and headless run are still to come: see
// docs/development-real-clients.md, "Adding a CLI".
var codexCLI = &CLI{
	Name:     "codex",
	Version:  "0.169.0",
	Packages: []string{"@openai/codex@0.169.0"},
	Agent:    "codex",
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", ".bin", "codex")
	},
}

func init() {
	codexCLI.Scenarios = []Scenario{wiredScenario}
	register(codexCLI)
}
