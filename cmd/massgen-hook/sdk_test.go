package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sharedDir finds ../shared beside the repository (CI clones the repository
// with shared/ next to it), or $MASSGEN_HOOK_SHARED. Without it the tests that
// need it skip, except on CI, where its absence is a failure.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MASSGEN_HOOK_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "conformance", "events")); err != nil {
		needed(t, "../shared (conformance events and sdk-typecheck) not found beside the repository")
	}
	abs, _ := filepath.Abs(dir)
	return abs
}

// needed skips a test whose outside material is missing, or fails it on CI.
func needed(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// runSDKTypecheck checks EVENT:FILE hook outputs with ../shared/tools/sdk-typecheck,
// which compiles them against @anthropic-ai/claude-agent-sdk's hook types.
func runSDKTypecheck(t *testing.T, specs []string, extra ...string) {
	t.Helper()
	tool := filepath.Join(sharedDir(t), "tools", "sdk-typecheck")
	if _, err := exec.LookPath("npm"); err != nil {
		needed(t, "sdk-typecheck needs node and npm")
	}
	args := append(append([]string{}, extra...), specs...)
	out, err := exec.Command(tool, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("sdk-typecheck %v failed: %v\n%s", extra, err, out)
	}
	t.Logf("%s", out)
}
