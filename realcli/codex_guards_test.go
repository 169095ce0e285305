//go:build realcli

package realcli

import (
	"slices"
	"strings"
)

// Codex's default guards, through its own tools: the shell (exec_command,
// which hooks see as Bash) and apply_patch (a patch naming its files).

// codexPatchPassed: the patch passed cleanly: the hook said nothing
// (Codex rejects an explicit allow), and Codex shows the PreToolUse hook
// that ran and let it through.
func codexPatchPassed(s *Session, run *Run) {
	res, _ := s.Turn("done").ToolResult("call_add")
	if !strings.Contains(res.Text, "Success") || strings.Contains(strings.ToLower(res.Text), "hook") {
		s.Errorf("the patch did not pass cleanly: the model got %q", res.Text)
	}
	if !slices.Contains(codexHookRuns(run), "PreToolUse Completed") {
		s.Errorf("Codex shows no PreToolUse hook that ran and let the patch through: %v", codexHookRuns(run))
	}
}

// codexConfigProtected: the denial of the patch to massgen-hook's own
// config names it a protected path.
func codexConfigProtected(s *Session, run *Run) {
	wantDenied(s, s.Turn("done"), "call_config", "protected path")
}
