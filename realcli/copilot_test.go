//go:build realcli

package realcli

import "path/filepath"

// copilotCLI is GitHub Copilot CLI. Installed and wired; its fake model API
// (streamed POST /v1/chat/completions in bring-your-own-key mode) and
// headless run are still to come: see docs/development-real-clients.md,
// "Adding a CLI".
var copilotCLI = &CLI{
	Name:     "copilot-cli",
	Version:  "1.0.102",
	Packages: []string{"@github/copilot@1.0.102"},
	Agent:    "copilot",
	Executable: func(prefix string) string {
		return filepath.Join(prefix, "node_modules", ".bin", "copilot")
	},
	// On first start Copilot unpacks about 235 MB under XDG_CACHE_HOME:
	// keep that beside the install, so every run shares it.
	Env: func(prefix string) []string {
		return []string{"XDG_CACHE_HOME=" + filepath.Join(prefix, "xdg-cache"), "COPILOT_OFFLINE=true"}
	},
}

func init() {
	copilotCLI.Scenarios = []Scenario{wiredScenario}
	register(copilotCLI)
}
