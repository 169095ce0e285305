package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// needed skips a test whose outside material is missing, or fails it on CI.
func needed(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// sharedFolder finds ../shared beside the repository, or $MASSGEN_HOOK_SHARED.
func sharedFolder(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MASSGEN_HOOK_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "conformance")); err != nil {
		needed(t, "../shared (peer-guard-corpus.json, conformance/) not found beside the repository; set MASSGEN_HOOK_SHARED to run this test")
	}
	return dir
}

// workParent is a fresh folder, removed after the test, outside every
// temporary folder (the guards treat those as scratch space): under the
// repository's bin/, else the user's cache folder.
func workParent(t *testing.T) string {
	t.Helper()
	var candidates []string
	if abs, err := filepath.Abs(filepath.Join("..", "..", "bin")); err == nil {
		candidates = append(candidates, abs)
	}
	if cache, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, filepath.Join(cache, "massgen-hook"))
	}
	for _, c := range candidates {
		if underTemp(c) {
			continue
		}
		if err := os.MkdirAll(c, 0o755); err != nil {
			continue
		}
		dir, err := os.MkdirTemp(c, "peer-test-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	needed(t, "no writable folder outside the temporary folders (tried "+filepath.Join("..", "..", "bin")+" and the user cache)")
	return ""
}

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// builtHook builds massgen-hook once for the package's tests.
func builtHook(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			goTool = "go"
		}
		if built.dir, built.err = os.MkdirTemp("", "massgen-hook-peer-bin-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "massgen-hook")
		cmd := exec.Command(goTool, "build", "-o", built.bin, "github.com/massgen/massgen-hook/cmd/massgen-hook")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("building massgen-hook: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// cleanupBuilt removes the binary builtHook built.
func cleanupBuilt() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// measureMode runs the benchmark as `make peer -mode mode` would, on a
// fresh binary and setting, and returns its results and report. Each mode
// has a setting of its own, so the modes run in parallel.
func measureMode(t *testing.T, mode string) (results, string) {
	t.Helper()
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	o := options{
		hook:    builtHook(t),
		shared:  sharedFolder(t),
		doc:     filepath.Join("..", "..", "docs", "peer-agreement.md"),
		work:    filepath.Join(workParent(t), "setting"),
		mode:    mode,
		workers: runtime.GOMAXPROCS(0),
		timeout: time.Minute,
	}
	res, err := measure(context.Background(), o)
	t.Cleanup(func() {
		if err := res.set.remove(); err != nil {
			t.Errorf("removing the setting's files outside it: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var report bytes.Buffer
	res.render(&report, o)
	return res, report.String()
}

// TestRealLinesNotDenied replays every shell command the real CLIs sent
// (../shared/conformance) in a plain project: none may be denied unless
// docs/peer-agreement.md gives the reason, and nothing listed there may be
// stale.
func TestRealLinesNotDenied(t *testing.T) {
	res, report := measureMode(t, "real")
	if res.real == nil || res.real.total == 0 {
		t.Fatalf("no real command replayed:\n%s", report)
	}
	if !res.real.ok() {
		t.Errorf("real agent commands denied without a documented reason, or a stale page:\n%s", report)
	}
}
