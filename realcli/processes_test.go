//go:build realcli

package realcli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The processes a scenario's commands leave running, seen from outside
// the CLI: background jobs, and whether they run inside the sandbox.

// sleepsIn are the `sleep 30` processes running in dir: the scenario's
// own background job, told from any other sleep on the machine by its
// working directory.
func sleepsIn(dir string) []int { return processes("sleep\x0030\x00", dir) }

// processes are the pids of the processes whose command line is cmdline
// (NUL-separated) and, unless dir is "", whose working directory is dir.
func processes(cmdline, dir string) []int {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, p := range procs {
		got, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		cwd, _ := os.Readlink(filepath.Join(p, "cwd"))
		if string(got) == cmdline && (dir == "" || cwd == dir) {
			pid, _ := strconv.Atoi(filepath.Base(p))
			out = append(out, pid)
		}
	}
	return out
}

// outsideSandbox says which of the running processes pids run outside
// the sandbox, with their parents.
func outsideSandbox(pids []int) []string {
	var out []string
	for _, pid := range pids {
		if !inSandbox(pid) {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			out = append(out, fmt.Sprintf("the background job %q (pid %d) runs outside the sandbox (in the test's own mount namespace); its parents: %s",
				strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " ")), pid, parents(pid)))
		}
	}
	return out
}

// inSandbox reports whether process pid runs in a mount namespace other
// than the test's: bubblewrap's, the only one a CLI's command gets.
func inSandbox(pid int) bool {
	theirs, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", pid))
	ours, err2 := os.Readlink("/proc/self/ns/mnt")
	return err == nil && err2 == nil && theirs != ours
}

// parents names the processes above pid, nearest first.
func parents(pid int) string {
	var out []string
	for range 8 {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			break
		}
		m := regexp.MustCompile(`(?m)^PPid:\s*(\d+)`).FindSubmatch(status)
		if m == nil {
			break
		}
		pid, _ = strconv.Atoi(string(m[1]))
		if pid <= 1 {
			break
		}
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		out = append(out, clip(strings.ReplaceAll(string(comm), "\x00", " "), 80))
	}
	return strings.Join(out, " < ")
}

// awaitProcess waits, up to 10 s, for a process processes finds: a job
// started in the background may not have replaced its shell with its
// program yet when its command returned (nohup, then sleep). It returns
// the pids found (none: the job is not there).
func awaitProcess(cmdline, dir string) []int {
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if pids := processes(cmdline, dir); len(pids) > 0 || time.Now().After(deadline) {
			return pids
		}
		<-tick.C
	}
}
