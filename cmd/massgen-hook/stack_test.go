package main

import (
	"runtime"
	"testing"
)

// TestGrowStackGrowsTheStack: growStack's frame is on the goroutine's
// stack (not optimised away, not moved to the heap), so goroutines that
// ran it hold stacks of at least startStack bytes each.
//
// The runtime counts stacks for the whole process, and the package's
// other tests free theirs at any moment (a NATS server shutting down), so
// one reading can come out short: eight goroutines hold their grown stacks
// at once, and any of five attempts that shows all eight passes. With the
// frame off the stack, none does.
func TestGrowStackGrowsTheStack(t *testing.T) {
	stackInUse := func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.StackInuse
	}
	const holders, attempts = 8, 5
	var before, after uint64
	for range attempts {
		before = stackInUse()
		grown, done := make(chan struct{}), make(chan struct{})
		for range holders {
			go func() {
				growStack(3)
				grown <- struct{}{}
				<-done
			}()
		}
		for range holders {
			<-grown
		}
		after = stackInUse()
		close(done)
		if after >= before+holders*startStack {
			return
		}
	}
	t.Fatalf("stack in use went from %d to %d bytes with %d goroutines holding grown stacks; want at least %d more", before, after, holders, holders*startStack)
}
