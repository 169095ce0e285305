package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// resetSelfPeakRSS asks Linux to reset the harness's own peak resident set
// size to its current one, by writing 5 to /proc/self/clear_refs. It does
// nothing where that is not possible.
//
// A child's reported peak RSS is never below the harness's own peak at the
// time the child was started (see rss_unix.go), so keeping the harness's peak
// low keeps the children's figures honest.
func resetSelfPeakRSS() {
	f, err := os.OpenFile("/proc/self/clear_refs", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	_, _ = f.WriteString("5")
	_ = f.Close()
}

// selfPeakRSSKiB returns the harness's own peak resident set size in KiB
// (VmHWM in /proc/self/status), or 0 where it cannot be read. A child's
// peak RSS that is not above it says only that the child's true peak is at
// most that much.
func selfPeakRSSKiB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest) // "1234", "kB"
		if len(fields) == 0 {
			return 0
		}
		n, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0
		}
		return n
	}
	return 0
}
