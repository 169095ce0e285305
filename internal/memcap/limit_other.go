//go:build !linux

package memcap

// Elsewhere the data limit does not count the Go heap's mappings: no cap.
func soft() (uint64, bool) { return 0, false }

func setSoft(uint64) bool { return false }
