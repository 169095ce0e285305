package memcap

import "golang.org/x/sys/unix"

// soft is the soft limit of the process's data.
func soft() (uint64, bool) {
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_DATA, &r) != nil {
		return 0, false
	}
	return r.Cur, true
}

// setSoft sets the soft limit of the process's data, its hard limit kept.
func setSoft(n uint64) bool {
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_DATA, &r) != nil {
		return false
	}
	r.Cur = min(n, r.Max)
	return unix.Setrlimit(unix.RLIMIT_DATA, &r) == nil
}
