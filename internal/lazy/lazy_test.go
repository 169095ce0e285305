package lazy

import (
	"sync"
	"testing"
)

var table = &Value[map[string]bool]{New: func() map[string]bool {
	builds++
	return map[string]bool{"a": true}
}}

var builds int

func TestValueBuildsOnceOnFirstGet(t *testing.T) {
	if builds != 0 {
		t.Fatalf("built %d times before the first Get", builds)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !table.Get()["a"] {
				t.Error("Get lost the value")
			}
		}()
	}
	wg.Wait()
	if builds != 1 {
		t.Fatalf("built %d times, want 1", builds)
	}
}
