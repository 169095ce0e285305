package main

import (
	"runtime"
	"testing"
)

// TestGrowStackGrowsTheStack: growStack's frame is on the goroutine's
// stack (not optimised away, not moved to the heap), so a goroutine that
// ran it holds a stack of at least startStack bytes.
func TestGrowStackGrowsTheStack(t *testing.T) {
	stackInUse := func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.StackInuse
	}
	before := stackInUse()
	grown, done := make(chan struct{}), make(chan struct{})
	go func() {
		growStack(3)
		close(grown)
		<-done
	}()
	<-grown
	after := stackInUse()
	close(done)
	if after < before+startStack {
		t.Fatalf("stack in use went from %d to %d bytes; want at least %d more", before, after, startStack)
	}
}
