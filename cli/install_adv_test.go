package cli

// Adversarial tests of init's targets: every handler init writes must be
// recognised as ours by the same target's Ours, whatever the binary's path,
// or a second init duplicates it and uninstall leaves it behind.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/install/wiring"
)

// commandOf is the command string of a handler init renders.
func commandOf(t *testing.T, tg target, h any) string {
	t.Helper()
	raw, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	field := tg.spec.CommandField
	if field == "" {
		field = "command"
	}
	s, ok := m[field].(string)
	if !ok {
		t.Fatalf("%s: no %s in %s", tg.name, field, raw)
	}
	return s
}

// Binaries that are named massgen-hook, wherever they are.
var advBinaries = []string{
	`/usr/local/bin/massgen-hook`,
	`/opt/my tools/massgen-hook`,
	`/opt/it's here/massgen-hook`,
	`/opt/"quoted"/massgen-hook`,
	`/opt/$HOME/$(rm -rf ~)/massgen-hook`,
	"/opt/tab\there/massgen-hook",
	`/opt/back\slash/massgen-hook`,
	`/opt/ünïcødé/massgen-hook`,
	`/opt/semi;colon&amp/massgen-hook`,
	`/opt/*glob?[x]/massgen-hook`,
}

func TestAdvEveryWiredCommandIsOurs(t *testing.T) {
	for _, name := range targetNames() {
		tg := targets.Get()[name]
		if tg.plugin {
			continue // TestAdvEveryPluginBinaryReadsBack
		}
		bins := []string{tg.projectVar + "/" + projectBinary}
		for _, b := range advBinaries {
			bins = append(bins, shellQuote(b))
		}
		for _, bin := range bins {
			for _, e := range tg.entries(bin, nil) {
				cmd := commandOf(t, tg, e.Handler)
				key, ok := tg.specFor(bin).Ours(cmd)
				if !ok || key != e.Key {
					t.Errorf("%s: %q not recognised as ours (key %q, ok %v), want key %q", name, cmd, key, ok, e.Key)
				}
			}
			// And through the whole file: install, install again,
			// uninstall.
			out, err := wiring.Install(&wiring.File{Path: "x"}, tg.specFor(bin), tg.entries(bin, nil))
			if err != nil {
				t.Fatal(err)
			}
			f, err := wiring.Parse("x", out, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			again, err := wiring.Install(f, tg.specFor(bin), tg.entries(bin, nil))
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("%s %s: second install changed the file:\n%s\n---\n%s", name, bin, out, again)
			}
			if _, empty := wiring.Uninstall(f, tg.specFor(bin)); !empty {
				t.Errorf("%s %s: uninstall left something", name, bin)
			}
		}
	}
}

// A user-wide binary moved or upgraded: init again updates the command in
// place (the subcommand is the key, not the path).
func TestAdvUserBinaryMovedUpdatesInPlace(t *testing.T) {
	tg := targets.Get()["claude"]
	out, _ := wiring.Install(&wiring.File{Path: "x"}, tg.specFor(shellQuote("/old/massgen-hook")), tg.entries(shellQuote("/old/massgen-hook"), nil))
	f, _ := wiring.Parse("x", out, 0o644)
	upd, err := wiring.Install(f, tg.specFor(shellQuote("/new place/massgen-hook")), tg.entries(shellQuote("/new place/massgen-hook"), nil))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(upd, []byte("/old/")) || bytes.Count(upd, []byte("pre-tool-use")) != 1 {
		t.Errorf("moved binary not updated in place:\n%s", upd)
	}
}

// Regression (found by adversarial tests): --scope user wires the binary by its own path, and Ours accepts only
// a program whose base name is exactly "massgen-hook". A binary named
// otherwise (massgen-hook-v2, a versioned download massgen-hook_linux_amd64,
// massgen-hook.exe on Windows, or os.Executable() of a renamed copy) writes
// commands init itself does not recognise.
// Expected: init twice leaves one handler per event; uninstall removes them.
// Actual: the second init appends a second copy of every hook (each runs
// twice, a deny/inbox delivered twice), and uninstall says "no massgen-hook
// hooks in it".
func TestRegression_UserScopeBinaryNotNamedMassgenHook(t *testing.T) {
	tg := targets.Get()["claude"]
	for _, b := range []string{"/opt/bin/massgen-hook-v2", "/dl/massgen-hook_linux_amd64", `C:\tools\massgen-hook.exe`, "/usr/bin/mgh"} {
		for _, e := range tg.entries(shellQuote(b), nil)[:1] {
			cmd := commandOf(t, tg, e.Handler)
			if _, ok := tg.specFor(shellQuote(b)).Ours(cmd); !ok {
				t.Errorf("init --scope user --binary %s writes %q, which init does not recognise as its own", b, cmd)
			}
		}
	}
}

// The same end to end: init --scope user twice with a binary named mgh.
func TestRegression_UserScopeInitTwiceDuplicates(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(t.TempDir(), "mgh")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_PROJECT_DIR", t.TempDir())
	for range 2 {
		var stdout, stderr bytes.Buffer
		if code := Main([]string{"init", "--scope", "user", "--binary", bin}, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("init: %d %s", code, stderr.String())
		}
	}
	data, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "pre-tool-use"); n != 1 {
		t.Errorf("pre-tool-use wired %d times after two inits:\n%s", n, data)
	}
}

// A plugin names its binary in JavaScript, not in a shell command: read
// back, each wired hook runs exactly the binary init wrote, whatever its
// path holds, and uninstall's binaryUsers and doctor's probes find it.
func TestAdvEveryPluginBinaryReadsBack(t *testing.T) {
	a := &app{getenv: func(string) string { return "" }}
	for _, name := range targetNames() {
		tg := targets.Get()[name]
		if !tg.plugin {
			continue
		}
		for _, bin := range advBinaries {
			data, err := renderPlugin(tg, pluginWiring(tg, placement{scope: "user", program: bin}, nil))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "plugin")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			wf, ok := readPlugin(tg, "user", path)
			if !ok || wf.err != nil || len(wf.ours) != len(tg.wires) {
				t.Fatalf("%s %s: read back %d hooks (ok %v, err %v), want %d", name, bin, len(wf.ours), ok, wf.err, len(tg.wires))
			}
			for _, h := range wf.ours {
				if got := a.wiredProgram(h.Command, "/project"); got != filepath.Clean(bin) {
					t.Errorf("%s: %q runs %q, want %q", name, h.Command, got, bin)
				}
			}
		}
	}
}
