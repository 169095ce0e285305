package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Machine describes the computer the measurements were taken on.
type Machine struct {
	GOOS     string `json:"goos"`
	GOARCH   string `json:"goarch"`
	NumCPU   int    `json:"num_cpu"`
	CPUModel string `json:"cpu_model,omitempty"`
	Kernel   string `json:"kernel,omitempty"`
	Go       string `json:"go"`
}

// describeMachine gathers the Machine the harness runs on. The CPU model and
// kernel release are read from /proc and left empty where it is unreadable.
func describeMachine() Machine {
	return Machine{
		GOOS:     runtime.GOOS,
		GOARCH:   runtime.GOARCH,
		NumCPU:   runtime.NumCPU(),
		CPUModel: cpuModel("/proc/cpuinfo"),
		Kernel:   kernelRelease("/proc/sys/kernel/osrelease"),
		Go:       runtime.Version(),
	}
}

// String renders m as one sentence for the report.
func (m Machine) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s, %d CPUs", m.GOOS, m.GOARCH, m.NumCPU)
	if m.CPUModel != "" {
		fmt.Fprintf(&b, " (%s)", m.CPUModel)
	}
	if m.Kernel != "" {
		fmt.Fprintf(&b, ", kernel %s", m.Kernel)
	}
	fmt.Fprintf(&b, ", harness built with %s", m.Go)
	return b.String()
}

// cpuModel returns the first "model name" value in the cpuinfo file at path,
// or "" if there is none.
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.Join(strings.Fields(value), " ")
		}
	}
	return ""
}

// kernelRelease returns the content of the osrelease file at path without
// surrounding space, or "" if it cannot be read.
func kernelRelease(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
