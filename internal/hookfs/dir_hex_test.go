package hookfs

import (
	"fmt"
	"testing"
)

// hex16 names temporary files as fmt's %016x would.
func TestHex16(t *testing.T) {
	for _, n := range []uint64{0, 1, 0xf, 0x10, 0xdeadbeef, 1<<63 + 5, ^uint64(0)} {
		if got, want := hex16(n), fmt.Sprintf("%016x", n); got != want {
			t.Errorf("hex16(%d) = %q, want %q", n, got, want)
		}
	}
}
