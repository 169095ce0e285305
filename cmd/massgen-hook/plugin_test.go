package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginManifest keeps the Claude Code plugin installable: a manifest
// with a kebab-case name, and hooks/hooks.json (its content is held equal
// to init's wiring by internal/cli's TestGeneratedWiringFiles).
func TestPluginManifest(t *testing.T) {
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
// built binary with the hook's arguments and stdin, and without one and
// without Go it fails open (exit 1) with one line naming the fix.
func TestPluginLauncher(t *testing.T) {
	launcher, _ := filepath.Abs(filepath.Join("..", "..", "hooks", "massgen-hook.sh"))
	root := t.TempDir()
	run := func(path string) (string, int) {
		cmd := exec.Command(launcher, "pre-tool-use", "--agent", "a b")
		cmd.Env = []string{"CLAUDE_PLUGIN_ROOT=" + root, "PATH=" + path}
		cmd.Stdin = strings.NewReader(`{"x":1}`)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	// A PATH with the shell's tools but no go.
	tools := t.TempDir()
	for _, name := range []string{"mkdir", "rm", "mv", "dirname"} {
		real, err := exec.LookPath(name)
		if err != nil {
			t.Skip(name, "not found")
		}
		if err := os.Symlink(real, filepath.Join(tools, name)); err != nil {
			t.Fatal(err)
		}
	}
	out, code := run(tools)
	if code != 1 || !strings.Contains(out, "cannot build") || strings.Count(strings.TrimSpace(out), "\n") > 1 {
		t.Errorf("no binary, no go: exit %d, %q", code, out)
	}
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\nprintf '%s|' \"$@\"; cat\n"
	if err := os.WriteFile(filepath.Join(root, "bin", "massgen-hook"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	out, code = run("/usr/bin:/bin")
	if code != 0 || out != `pre-tool-use|--agent|a b|{"x":1}` {
		t.Errorf("with a binary: exit %d, %q", code, out)
	}
}
