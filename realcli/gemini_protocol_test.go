//go:build realcli

package realcli

import (
	"os"
	"path/filepath"
	"strings"
)

// geminiScribe declares the scribe as a user's agent: Gemini CLI runs a
// project's agents (.gemini/agents) only once the user has acknowledged
// them in its interface.
func geminiScribe(s *Session) {
	if err := os.MkdirAll(filepath.Join(s.Home, ".gemini", "agents"), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Home, ".gemini", "agents", "scribe.md"), []byte(scribeGeminiAgent), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// geminiStopRuns: AfterAgent runs exactly once per stop: four, three
// blocks and the release, then the run ends (no loop); and the release's
// systemMessage is printed on stderr under -p as a hook's system message.
func geminiStopRuns(s *Session, run *Run) {
	if n := len(geminiCaptured(s, "AfterAgent")); n != 4 {
		s.Errorf("AfterAgent ran %d times, want 4 (three blocks and the release)", n)
	}
	const told = "let the session stop after 3 blocked attempts"
	if !strings.Contains(string(run.Stderr), "Hook system message: massgen-hook: "+told) {
		s.Errorf("the release was not shown to the user (no \"Hook system message\" on stderr saying %q)", told)
	}
}
