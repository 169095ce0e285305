//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSKiB returns the peak resident set size of the exited process ps in
// KiB, or 0 if the system does not report it.
//
// On Linux the figure is ru_maxrss, which the kernel carries across exec: a
// child started by Go (which forks with CLONE_VM|CLONE_VFORK) reports at
// least the harness's own peak RSS at the time it was started. See
// https://github.com/golang/go/issues/32054. The harness therefore resets its
// own peak before each case and reports it (see selfpeak.go), so that a figure
// not above it can be shown as an upper bound only.
func maxRSSKiB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) / 1024 // bytes there
	}
	return int64(ru.Maxrss)
}
