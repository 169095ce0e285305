package confine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/state"
)

// fixture is a project and a home directory with the files the policy
// cares about.
type fixture struct {
	root, project, home string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{root: root, project: filepath.Join(root, "proj"), home: filepath.Join(root, "home")}
	for path, text := range map[string]string{
		"proj/.env":                   "PROJECT_SECRET=1\n",
		"proj/.env.example":           "TEMPLATE=1\n",
		"proj/src/main.go":            "package main\n",
		"proj/src/deep/server.key":    "KEY\n",
		"proj/.claude/settings.json":  "{}\n",
		"proj/.claude/scratchpad/x":   "notes\n",
		"proj/node_modules/p/.env":    "not searched\n",
		"home/.git-credentials":       "https://u:HOME_SECRET@example.com\n",
		"home/.ssh/id_ed25519":        "SSH_SECRET\n",
		"home/.ssh/id_ed25519.pub":    "ssh-ed25519 AAAA public\n",
		"home/.aws/credentials":       "AWS_SECRET\n",
		"home/.config/gh/hosts.yml":   "GH_SECRET\n",
		"home/notes.txt":              "mine\n",
		"home/.cache/go-build/README": "cache\n",
	} {
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// policy is the policy of the config yaml for f, with the environment
// PATH (npm installed, cargo not) and env.
func (f fixture) policy(t *testing.T, yaml string, env ...string) *Policy {
	t.Helper()
	cfg := config.Default()
	if yaml != "" {
		var err error
		if cfg, err = config.Parse("c.yaml", []byte(yaml)); err != nil {
			t.Fatal(err)
		}
	}
	// npm is installed, cargo is not.
	bin := filepath.Join(f.root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := PolicyFor(&cfg, f.project, f.home, append([]string{"PATH=" + bin}, env...))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Writable, "/tmp") || !slices.Contains(p.Writable, "/var/tmp") {
		t.Fatalf("the temporary folders are not writable: %q", p.Writable)
	}
	// The fixture lives under /tmp, which would hold all of it.
	p.Writable = slices.DeleteFunc(p.Writable, func(w string) bool { return w == "/tmp" || w == "/var/tmp" })
	return &p
}

func (f fixture) rel(paths []string) []string {
	var out []string
	for _, p := range paths {
		if r, err := filepath.Rel(f.root, p); err == nil && !strings.HasPrefix(r, "..") {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

func TestPlanMasksTheReadListAndNothingElse(t *testing.T) {
	f := newFixture(t)
	pl := f.policy(t, "").Plan()
	want := []string{"home/.aws/credentials", "home/.config/gh/hosts.yml", "home/.git-credentials", "home/.ssh/id_ed25519", "proj/.env", "proj/src/deep/server.key"}
	if got := f.rel(pl.MaskFiles); !slices.Equal(got, want) {
		t.Errorf("masked files\n got %q\nwant %q", got, want)
	}
	if len(pl.MaskDirs) != 0 {
		t.Errorf("masked folders: %q", pl.MaskDirs)
	}
}

func TestPlanWritesOnlyTheProjectTempAndCaches(t *testing.T) {
	f := newFixture(t)
	pl := f.policy(t, "").Plan()
	got := f.rel(pl.Writable)
	// The home's other files (notes.txt) stay read-only: only its caches
	// are writable. npm's cache is created (its parent, home, exists);
	// cargo's is not (no ~/.cargo).
	want := []string{"home/.cache/go-build", "home/.npm", "proj"}
	if !slices.Equal(got, want) {
		t.Errorf("writable\n got %q\nwant %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(f.home, ".cargo")); err == nil {
		t.Error("a cache folder was created where its tool has no folder")
	}
}

func TestPlanKeepsTheWiringReadOnly(t *testing.T) {
	f := newFixture(t)
	for _, d := range []string{"proj/.github/hooks", "proj/.gemini", "home/.claude", "proj/.opencode/plugins"} {
		if err := os.MkdirAll(filepath.Join(f.root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	named := filepath.Join(f.root, "massgen.yaml")
	if err := os.WriteFile(named, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	p, err := PolicyFor(&cfg, f.project, f.home, []string{"MASSGEN_HOOK_CONFIG=" + named})
	if err != nil {
		t.Fatal(err)
	}
	got := f.rel(p.Plan().ReadOnly)
	// .opencode whole: an opencode.json created there would name plugins.
	want := []string{"home/.claude", "massgen.yaml", "proj/.claude", "proj/.gemini", "proj/.github/hooks", "proj/.opencode"}
	if !slices.Equal(got, want) {
		t.Errorf("read-only\n got %q\nwant %q", got, want)
	}
}

func TestPlanFollowsTheConfig(t *testing.T) {
	f := newFixture(t)
	extra := filepath.Join(f.root, "opt-cache")
	if err := os.MkdirAll(filepath.Join(f.project, "secrets", "db"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	pl := f.policy(t, "confine:\n  writable: ["+extra+"]\nhooks:\n  PreToolUse:\n    - type: builtin\n      handler: protected_paths\n      options:\n        add: {read: [\"secrets/**\"], except: [\"**/server.key\"]}\n").Plan()
	if got := f.rel(pl.MaskDirs); !slices.Equal(got, []string{"proj/secrets"}) {
		t.Errorf("masked folders %q", got)
	}
	if slices.Contains(f.rel(pl.MaskFiles), "proj/src/deep/server.key") {
		t.Error("an except entry was masked")
	}
	if !slices.Contains(pl.Writable, extra) {
		t.Errorf("confine.writable not writable: %q", pl.Writable)
	}
	off := f.policy(t, "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: protected_paths\n      enabled: false\n").Plan()
	if len(off.MaskFiles)+len(off.MaskDirs) != 0 {
		t.Errorf("protected_paths switched off, yet masks %q %q", off.MaskFiles, off.MaskDirs)
	}
}

func TestArgsOrder(t *testing.T) {
	pl := Plan{Writable: []string{"/p"}, ReadOnly: []string{"/p/.claude"}, MaskFiles: []string{"/p/.env"}, MaskDirs: []string{"/p/sec"}}
	got := strings.Join(Argv("/usr/bin/bwrap", pl, "/p/.claude/massgen-hook/masked", 3, "/bin/bash", "echo hi"), " ")
	want := "/usr/bin/bwrap --cap-drop ALL --seccomp 3 --ro-bind / / --dev-bind /dev /dev --bind /p /p --ro-bind /p/.claude /p/.claude" +
		" --ro-bind /p/.claude/massgen-hook/masked /p/.env --perms 0000 --tmpfs /p/sec --remount-ro /p/sec -- /bin/bash -c echo hi"
	if got != want {
		t.Errorf("argv\n got %s\nwant %s", got, want)
	}
}

func TestOutermost(t *testing.T) {
	got := outermost([]string{"/tmp/x", "/tmp", "/a/b/", "/a/bc", "/a/b/c"})
	if want := []string{"/a/b", "/a/bc", "/tmp"}; !slices.Equal(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestPlanKeepsRuleHandlersReadOnly(t *testing.T) {
	f := newFixture(t)
	script := filepath.Join(f.project, "scripts", "check.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	pl := f.policy(t, "hooks:\n  PreToolUse:\n    - type: command\n      handler: ./scripts/check.sh\n    - type: command\n      handler: jq\n").Plan()
	if !slices.Contains(pl.ReadOnly, script) {
		t.Errorf("the rule's handler is not read-only: %q", pl.ReadOnly)
	}
}

// Claude Code writes its working-directory file (`pwd -P >|
// $CLAUDE_CODE_TMPDIR/claude-XXXX-cwd`) from inside the command it hands
// the prefix: where that folder is read-only, every command fails and a
// cd no longer carries over.
func TestPlanLetsClaudeCodeTrackTheWorkingDirectory(t *testing.T) {
	f := newFixture(t)
	tmp := filepath.Join(f.root, "claude-tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	p, err := PolicyFor(&cfg, f.project, f.home, []string{"CLAUDE_CODE_TMPDIR=" + tmp})
	if err != nil {
		t.Fatal(err)
	}
	// The fixture lives under /tmp, which would hold it.
	p.Writable = slices.DeleteFunc(p.Writable, func(w string) bool { return w == "/tmp" || w == "/var/tmp" })
	if got := p.Plan().Writable; !slices.Contains(got, tmp) {
		t.Errorf("$CLAUDE_CODE_TMPDIR %s is not writable: %q", tmp, got)
	}
}

// The MCP configuration in the project's top folder (.mcp.json) starts
// programs at the next session: read-only where it exists, and no file is
// made where it does not.
func TestPlanKeepsTopLevelWiringFilesReadOnly(t *testing.T) {
	f := newFixture(t)
	cfg := config.Default()
	p, err := PolicyFor(&cfg, f.project, f.home, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.rel(p.Plan().ReadOnly); slices.Contains(got, "proj/.mcp.json") {
		t.Errorf("a missing .mcp.json is bound read-only: %q", got)
	}
	if err := os.WriteFile(filepath.Join(f.project, ".mcp.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := f.rel(p.Plan().ReadOnly); !slices.Contains(got, "proj/.mcp.json") {
		t.Errorf(".mcp.json is not read-only: %q", got)
	}
}

// A folder of many entries that sorts first cannot use up the search
// before the project's own top-level secrets; and what an earlier search
// found stays masked when a later one stops short of it.
func TestPlanSearchCannotBeFloodedPastASecret(t *testing.T) {
	defer func(n int) { maxWalk = n }(maxWalk)
	maxWalk = 50
	f := newFixture(t)
	for i := range 80 {
		p := filepath.Join(f.project, ".a", fmt.Sprintf("f%03d", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := f.policy(t, "")
	pl := p.Plan()
	if got := f.rel(pl.MaskFiles); !slices.Contains(got, "proj/.env") {
		t.Errorf("the top-level .env is not masked behind a folder of many entries: %q", got)
	}
	if got := f.rel(pl.MaskFiles); slices.Contains(got, "proj/src/deep/server.key") {
		t.Fatalf("the search reached past its bound: %q", got)
	}
	if len(pl.Notes) == 0 {
		t.Error("no note says the search stopped")
	}
	key := filepath.Join(f.project, "src", "deep", "server.key")
	st := state.Open(f.project)
	RememberFound(st, nil, Plan{Found: []string{key}})
	p.Found = FoundBefore(st)
	if got := f.rel(p.Plan().MaskFiles); !slices.Contains(got, "proj/src/deep/server.key") {
		t.Errorf("a secret an earlier search found is not masked when the search stops short of it: %q (remembered %q)", got, p.Found)
	}
	// Remembered, but no longer protected (the config changed): not masked.
	p.Read = []string{"**/.env"}
	if got := f.rel(p.Plan().MaskFiles); slices.Contains(got, "proj/src/deep/server.key") {
		t.Errorf("a remembered path the read list no longer protects is masked: %q", got)
	}
}
