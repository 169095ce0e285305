package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEndToEnd runs the program for two pairs per case against a freshly
// built massgen-hook and harness: every case measured, and the NATS hooks
// delivered what the file hooks did (no note says otherwise). It checks
// what was delivered, never how long it took.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds massgen-hook and the harness")
	}
	bin := t.TempDir()
	build := func(name, pkg string) string {
		out := filepath.Join(bin, name)
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
		return out
	}
	hook := build("massgen-hook", "../../cmd/massgen-hook")
	harness := build("harness", "../harness")
	self := build("natslatency", ".")

	cmd := exec.Command(self, "-hook", hook, "-harness", harness, "-runs", "2", "-warmup", "1", "-batch", "3", "-batch-runs", "2", "-work", t.TempDir())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("natslatency: %v\nstderr:\n%s", err, stderr.String())
	}
	got := stdout.String()
	for _, name := range cases(3, 2) {
		if !strings.Contains(got, "| "+name.name+" | ") {
			t.Errorf("no row for %q:\n%s", name.name, got)
		}
	}
	if strings.Contains(got, "\n- ") {
		t.Errorf("notes on the measurement (a failure, a stderr line, or answers that differ):\n%s", got)
	}
}
