// Package testrace tells a test whether it was built with the race
// detector. A test that starts no goroutine sharing state has nothing for
// the detector to find, and runs several times slower under it; such a
// test calls Skip, which skips it under -race, saying so, and `make test`
// runs it in a job built without the detector (the Makefile's NORACE_RUN
// and NORACE_PKGS, which TestMakefileRunsEverySkippedTest keeps in step).
package testrace

import "testing"

// Skip skips t when the binary is built with the race detector.
func Skip(t testing.TB) {
	t.Helper()
	if Enabled {
		t.Skip("runs without the race detector (make test's NORACE_RUN): it starts no goroutine sharing state")
	}
}
