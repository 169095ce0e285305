//go:build realcli

package realcli

import "path/filepath"

// geminiCLI is Gemini CLI. Installed and wired; its fake model API
// (streamGenerateContent, SSE) and headless run are still to come: see
// docs/development-real-clients.md, "Adding a CLI".
var geminiCLI = &CLI{
	Name:     "gemini-cli",
	Version:  "0.61.0",
	Packages: []string{"@google/gemini-cli@0.61.0"},
	Agent:    "gemini",
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", ".bin", "gemini")
	},
}

func init() {
	geminiCLI.Scenarios = []Scenario{wiredScenario}
	register(geminiCLI)
}
