package codextrust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const hooksJSON = `{"hooks": {
  "PreToolUse": [
    {"matcher": "^Bash$", "hooks": [{"type": "command", "command": "./other.sh"}]},
    {"hooks": [{"type": "command", "command": "/bin/other"}, {"type": "command", "command": "\"$(git rev-parse --show-toplevel)\"/.claude/hooks/massgen-hook pre-tool-use --dialect codex", "timeout": 60}]}
  ],
  "PostToolUse": [{"hooks": [{"type": "command", "command": "\"$(git rev-parse --show-toplevel)\"/.claude/hooks/massgen-hook post-tool-use --dialect codex", "timeout": 60}]}],
  "SessionStart": [{"hooks": [{"type": "command", "command": "\"$(git rev-parse --show-toplevel)\"/.claude/hooks/massgen-hook session-start --dialect codex", "timeout": 15}]}],
  "Stop": [{"matcher": "ignored", "hooks": [{"type": "command", "command": "\"$(git rev-parse --show-toplevel)\"/.claude/hooks/massgen-hook stop --dialect codex", "timeout": 10}]}],
  "Unknown": [{"hooks": [{"type": "command", "command": "massgen-hook x"}]}]
}}`

func ours(command string) bool { return strings.Contains(command, "massgen-hook") }

// The keys and hashes are those Codex 0.169.0's app-server (hooks/list)
// reported for these handlers in /tmp/cx-proj/.codex/hooks.json.
func TestHooksAsCodexKeysThem(t *testing.T) {
	hooks, err := Hooks("/tmp/cx-proj/.codex/hooks.json", []byte(hooksJSON), ours)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ key, hash string }{
		{"/tmp/cx-proj/.codex/hooks.json:post_tool_use:0:0", "sha256:4fab2b7bdfa19389388324789ce80ff49937e7916f19b237d6491c2119650cff"},
		{"/tmp/cx-proj/.codex/hooks.json:pre_tool_use:1:1", "sha256:98cf670ab35fc992a0b7c105b64d63538294d827c925e6c1b897e837a83bd943"},
		{"/tmp/cx-proj/.codex/hooks.json:session_start:0:0", "sha256:c757fcc6e5613fd3f6e41c3d61ababa28c3931a2aeeb9e4807a253e1d5480b44"},
		// Stop's matcher is ignored, so not hashed.
		{"/tmp/cx-proj/.codex/hooks.json:stop:0:0", ""},
	}
	if len(hooks) != len(want) {
		t.Fatalf("got %d hooks, want %d: %+v", len(hooks), len(want), hooks)
	}
	for i, w := range want {
		if hooks[i].Key != w.key || (w.hash != "" && hooks[i].Hash != w.hash) {
			t.Errorf("hook %d: %s %s, want %s %s", i, hooks[i].Key, hooks[i].Hash, w.key, w.hash)
		}
	}
	noMatcher, _ := Hooks("/p/h.json", []byte(strings.Replace(hooksJSON, `"matcher": "ignored", `, "", 1)), ours)
	if noMatcher[3].Hash != hooks[3].Hash {
		t.Errorf("Stop's matcher changed its hash: %s vs %s", noMatcher[3].Hash, hooks[3].Hash)
	}
	if _, err := Hooks("/p/h.json", []byte("{"), ours); err == nil {
		t.Error("invalid JSON accepted")
	}
}

func TestStatus(t *testing.T) {
	home := t.TempDir()
	hooks, _ := Hooks("/tmp/cx-proj/.codex/hooks.json", []byte(hooksJSON), ours)
	// No config: nothing is trusted.
	c, err := ReadConfig(home)
	if err != nil || c.ProjectTrusted("/tmp/cx-proj") || c.Status(hooks[0]) != Untrusted {
		t.Fatalf("no config: %v %+v", err, c)
	}
	config := ProjectLines("/tmp/cx-proj") + TrustLines(hooks[:2]) +
		"[hooks.state.\"" + hooks[2].Key + "\"]\ntrusted_hash = \"sha256:0000\"\n" +
		"[hooks.state.\"" + hooks[3].Key + "\"]\nenabled = false\ntrusted_hash = \"" + hooks[3].Hash + "\"\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = ReadConfig(home)
	if err != nil {
		t.Fatal(err)
	}
	if !c.ProjectTrusted("/tmp/cx-proj") || c.ProjectTrusted("/tmp") {
		t.Errorf("project trust: %+v", c.Projects)
	}
	for i, want := range []Status{Trusted, Trusted, Modified, Disabled} {
		if got := c.Status(hooks[i]); got != want {
			t.Errorf("%s: %s, want %s", hooks[i].Key, got, want)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadConfig(home); err == nil || !strings.Contains(err.Error(), "config.toml") {
		t.Errorf("bad TOML: %v", err)
	}
}

func TestHome(t *testing.T) {
	if Home("/c", "/h") != "/c" || Home("", "/h") != "/h/.codex" {
		t.Error(Home("/c", "/h"), Home("", "/h"))
	}
}
