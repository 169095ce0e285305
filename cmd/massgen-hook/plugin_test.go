package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestPluginManifest keeps the Claude Code plugin installable: a manifest
// with a kebab-case name, and hooks/hooks.json (its content is held equal
// to init's wiring by cli's TestGeneratedWiringFiles).
func TestPluginManifest(t *testing.T) {
	t.Parallel()
	var manifest struct {
		Name, Description, Version string
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", ".claude-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &manifest); err != nil || manifest.Name != "massgen-hook" || manifest.Description == "" {
		t.Fatalf("plugin.json: %v %+v", err, manifest)
	}
	raw, err = os.ReadFile(filepath.Join("..", "..", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks struct {
		Hooks map[string][]struct{ Hooks []struct{ Command string } }
	}
	if err := json.Unmarshal(raw, &hooks); err != nil {
		t.Fatal(err)
	}
	cmd := hooks.Hooks["PreToolUse"][0].Hooks[0].Command
	if cmd != `"${CLAUDE_PLUGIN_ROOT}"/hooks/massgen-hook.sh pre-tool-use` {
		t.Errorf("hooks/hooks.json runs %q", cmd)
	}
}

// TestPluginLauncher runs hooks/massgen-hook.sh: it execs the plugin's
// binary with the hook's arguments and stdin; without one, without a pinned
// release and without Go it fails open (exit 1) with one line naming the
// fix. (TestRelease covers the pinned release and a shipped binary.)
func TestPluginLauncher(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	repo, _ := filepath.Abs(filepath.Join("..", ".."))
	tools := pluginTools(t)
	project := t.TempDir()
	root := pluginRoot(t, repo, "")
	res := launch(root, tools, project, `{"x":1}`)
	want := "massgen-hook plugin: no release binary for " + runtime.GOOS + "/" + runtime.GOARCH + " and Go is not installed to build one; run make build in " + root + "\n"
	if res.code != 1 || res.stdout != "" || res.stderr != want {
		t.Errorf("no binary, no go: exit %d, stdout %q, stderr %q; want exit 1, %q", res.code, res.stdout, res.stderr, want)
	}
	fake := "#!/bin/sh\nprintf '%s|' \"$@\"; cat\n"
	writeFile(t, root, "bin/massgen-hook", fake)
	if err := os.Chmod(filepath.Join(root, "bin", "massgen-hook"), 0o755); err != nil {
		t.Fatal(err)
	}
	res = launchArgs(root, "/usr/bin:/bin", project, `{"x":1}`, []string{"pre-tool-use", "--agent", "a b"})
	if res.code != 0 || res.stdout != `pre-tool-use|--agent|a b|{"x":1}` || res.stderr != "" {
		t.Errorf("with a binary: exit %d, %q, %q", res.code, res.stdout, res.stderr)
	}
}

// TestPluginBuild: with neither a shipped binary nor a pinned release, the
// first call starts one build in the background and, when the build outlasts
// its wait, proceeds without massgen-hook (exit 1) saying so; calls while it
// builds start no second build; once built, calls run the binary. A build
// that fails says where its log is. The go tool is a fake that builds only
// when the test opens its gate.
func TestPluginBuild(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	repo, _ := filepath.Abs(filepath.Join("..", ".."))
	tools := pluginTools(t)
	project := t.TempDir()
	gate := filepath.Join(t.TempDir(), "gate")
	builds := filepath.Join(t.TempDir(), "builds")
	fakeGo := `#!/bin/sh
echo build >>"$BUILDS"
while [ ! -e "$GATE" ]; do sleep 0.05; done
[ "$(cat "$GATE")" = fail ] && { echo "compile error" >&2; exit 1; }
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
printf '#!/bin/sh\necho built "$@"\n' >"$out" && chmod 755 "$out"
`
	if err := os.WriteFile(filepath.Join(tools, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"GATE=" + gate, "BUILDS=" + builds, "MASSGEN_HOOK_BUILD_WAIT=0"}
	root := pluginRoot(t, repo, "")
	bin := filepath.Join(root, "bin", "massgen-hook")
	want := "massgen-hook plugin: building " + bin + " with Go (first use; about 20 s); this call proceeds without massgen-hook\n"
	for i := range 2 {
		if res := launch(root, tools, project, "{}", env...); res.code != 1 || res.stdout != "" || res.stderr != want {
			t.Fatalf("call %d while building: exit %d, stdout %q, stderr %q; want exit 1, %q", i, res.code, res.stdout, res.stderr, want)
		}
	}
	if err := os.WriteFile(gate, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the build's lock to go", func() bool {
		_, err := os.Stat(filepath.Join(root, "bin", ".building"))
		return os.IsNotExist(err)
	})
	if res := launch(root, tools, project, "{}", env...); res.code != 0 || res.stdout != "built pre-tool-use\n" || res.stderr != "" {
		t.Errorf("after the build: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
	if data, _ := os.ReadFile(builds); string(data) != "build\n" {
		t.Errorf("go ran %q, want one build", data)
	}

	// A failing build, waited for: its lock goes, and the call says so.
	root = pluginRoot(t, repo, "")
	if err := os.WriteFile(gate, []byte("fail"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := launch(root, tools, project, "{}", "GATE="+gate, "BUILDS="+builds, "MASSGEN_HOOK_BUILD_WAIT=600")
	want = "massgen-hook plugin: cannot build " + filepath.Join(root, "bin", "massgen-hook") + " (see " + filepath.Join(root, "bin", "build.log") + "); run make build in " + root + "\n"
	if res.code != 1 || res.stderr != want {
		t.Errorf("failed build: exit %d, stderr %q; want exit 1, %q", res.code, res.stderr, want)
	}
	if log, _ := os.ReadFile(filepath.Join(root, "bin", "build.log")); string(log) != "compile error\n" {
		t.Errorf("build.log = %q", log)
	}
}

// waitFor polls cond until it holds, failing after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
