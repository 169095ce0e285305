package cli

import (
	"slices"
	"testing"
)

func TestHookBinariesAreTheWiredMassgenHooks(t *testing.T) {
	got := hookBinaries([]string{
		`"$CLAUDE_PROJECT_DIR"/.claude/hooks/massgen-hook pre-tool-use`,
		`'/opt/my tools/massgen-hook' stop`,
		`/home/u/go/bin/massgen-hook-v2 session-start --agent x`,
		`"${CLAUDE_PROJECT_DIR}"/scripts/lint.sh`,
		`massgen-hook pre-tool-use`, // on PATH: not a path to keep
		`python3 hook.py`,
	}, "/p")
	want := []string{"/p/.claude/hooks/massgen-hook", "/opt/my tools/massgen-hook", "/home/u/go/bin/massgen-hook-v2"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
