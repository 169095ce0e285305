package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// linked lists the packages a build of pkg links, as `go list -deps` sees
// them for a static build, without the module's own and internal ones.
func linked(t *testing.T, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list -deps %s: %v (the go tool is needed)", pkg, err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/massgen/massgen-hook/") || p == "github.com/massgen/massgen-hook" ||
			strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/") || strings.HasPrefix(p, "vendor/") {
			continue
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// The yardstick is only true while it links what massgen-hook links: a new
// library in the binary must be added here too, and one dropped, removed.
func TestLinksWhatMassgenHookLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped in -short mode")
	}
	hook := linked(t, "github.com/massgen/massgen-hook/cmd/massgen-hook")
	deps := linked(t, "github.com/massgen/massgen-hook/bench/deps")
	for _, p := range hook {
		if !slices.Contains(deps, p) {
			t.Errorf("massgen-hook links %s; bench/deps does not (add a blank import)", p)
		}
	}
	for _, p := range deps {
		if !slices.Contains(hook, p) {
			t.Errorf("bench/deps links %s; massgen-hook does not (remove its import)", p)
		}
	}
}
