package confine

import (
	"bufio"
	"os"
	"strings"
)

// InsideAnother reports whether this process runs inside another sandbox
// that bubblewrap cannot nest in: a seccomp filter is already in force
// (Codex's own sandbox, in its read-only and workspace-write modes, denies
// bubblewrap the user namespace it needs) and bwrap, tried here, cannot
// make a sandbox. A command started there is held by that sandbox; bwrap
// would only make it fail. Outside a seccomp filter nothing is tried:
// a command pays one small file read.
func InsideAnother(bwrap string) bool {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil || !seccompFiltered(string(data)) {
		return false
	}
	return !Probe(bwrap).OK
}

// seccompFiltered reports whether a /proc/<pid>/status text says a
// seccomp mode is in force (1 strict, 2 filter).
func seccompFiltered(status string) bool {
	sc := bufio.NewScanner(strings.NewReader(status))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Seccomp:"); ok {
			v = strings.TrimSpace(v)
			return v != "" && v != "0"
		}
	}
	return false
}
