package testrace

import (
	"runtime/debug"
	"testing"
)

// Enabled must say what the binary was built with: a wrong answer would
// skip a test in every run, or run it under the detector it avoids.
func TestEnabledIsTheBuildsRaceFlag(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information in this test binary")
	}
	race := false
	for _, s := range info.Settings {
		if s.Key == "-race" {
			race = s.Value == "true"
		}
	}
	if Enabled != race {
		t.Errorf("Enabled = %v, but the binary's -race setting is %v", Enabled, race)
	}
}
