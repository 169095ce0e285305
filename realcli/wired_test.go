//go:build realcli

package realcli

import (
	"os"
	"testing"
)

// wiredScenario is every CLI's first row: the pinned version installs and
// starts (`--version`), and `massgen-hook init` wires a project whose path
// has a space and a quote.
var wiredScenario = Scenario{Name: "install/wire", Project: quoted, Run: func(t *testing.T, s *Session) {
	s.Wire()
	file := map[string]string{
		"claude":  ".claude/settings.json",
		"gemini":  ".gemini/settings.json",
		"codex":   ".codex/hooks.json",
		"copilot": ".github/hooks/massgen-hook.json",
		"pi":      piExtension,
	}[s.CLI.Agent]
	if _, err := os.Stat(s.Path(file)); err != nil {
		s.Errorf("init --agent %s did not write %s: %v", s.CLI.Agent, file, err)
	}
	if _, err := os.Stat(s.Path(".claude/hooks/massgen-hook")); err != nil {
		s.Errorf("init did not install the binary the hooks run: %v", err)
	}
}}
