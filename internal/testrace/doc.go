// Package testrace tells a test whether it was built with the race
// detector. A test that starts no goroutine and shares no state has
// nothing for the detector to find, and runs several times slower under
// it; such a test skips itself under -race, saying so, and `make test`
// runs it in a job built without the detector (the Makefile's NORACE).
package testrace
