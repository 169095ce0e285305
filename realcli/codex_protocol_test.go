//go:build realcli

package realcli

import (
	"strings"
)

// codexStopRuns: codex exec shows each Stop hook run: three blocks, then
// the release.
func codexStopRuns(s *Session, run *Run) {
	var stops []string
	for _, r := range codexHookRuns(run) {
		if strings.HasPrefix(r, "Stop ") {
			stops = append(stops, r)
		}
	}
	if want := "Stop Blocked, Stop Blocked, Stop Blocked, Stop Completed"; strings.Join(stops, ", ") != want {
		s.Errorf("Codex shows the Stop hook runs %q, want %q", strings.Join(stops, ", "), want)
	}
}
