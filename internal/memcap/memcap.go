// Package memcap bounds the memory of a hook's judgement. The guards
// judge what the agent writes, and a shape their budgets miss could make
// them allocate gigabytes within their time (guard_timeout). A hook the
// kernel kills for memory ends by a signal, which every CLI takes as a
// failed hook, and the call goes ahead. Under the cap the Go runtime
// cannot map more heap: it ends the process itself with "fatal error:
// runtime: out of memory", exit 2, which every CLI takes as a block.
//
// The cap is the process's soft limit of data (RLIMIT_DATA), which a
// child would inherit: a child started under the cap is started with it
// lifted (Lifted), so a user's handler or git has the memory it had.
package memcap

import "sync"

var (
	mu sync.Mutex
	// capped is the limit set by Cap (0: none), and before the soft limit
	// it replaced.
	capped, before uint64
)

// Cap lowers the soft limit of the process's data to n bytes, unless it
// is lower already; where there is no such limit it does nothing. The
// cap holds until the process ends.
func Cap(n uint64) {
	mu.Lock()
	defer mu.Unlock()
	if capped != 0 {
		return
	}
	cur, ok := soft()
	if !ok || cur <= n {
		return
	}
	if setSoft(n) {
		capped, before = n, cur
	}
}

// Lifted runs start, which starts a child process, with the cap lifted:
// the child inherits the limit the process had before Cap.
func Lifted(start func() error) error {
	mu.Lock()
	defer mu.Unlock()
	if capped == 0 {
		return start()
	}
	setSoft(before)
	defer setSoft(capped)
	return start()
}
