package config

import (
	"slices"
	"testing"

	"github.com/massgen/massgen-hook/internal/suggest"
)

func TestSuggestKey(t *testing.T) {
	for _, c := range []struct{ typ, typo, want string }{
		{"Config", "fail_closd", "fail_closed"},
		{"Config", "default_guard", "default_guards"},
		{"Config", "failClosed", "fail_closed"},
		{"Config", "scratchpda", "scratchpad"}, // an adjacent swap is one edit
		{"Scratchpad", "blockcap", "block_cap"},
		{"SessionStart", "ego_line", "ego_lines"},
		{"Hooks", "PreToolUs", "PreToolUse"},
		{"Hook", "handlr", "handler"},
		{"Record", "dirs", "dir"},
		{"EventHooks", "overide", "override"},
		{"Config", "colour", ""}, // nothing close: no guess
		{"Config", "hook", "hooks"},
		{"Config", "xyz", ""},
	} {
		if got := suggest.Closest(c.typo, keysOf(c.typ)); got != c.want {
			t.Errorf("Closest(%q in %s) = %q, want %q", c.typo, c.typ, got, c.want)
		}
	}
}

// TestKeysOfEveryStruct holds keysOf to the yaml tags: every struct of the
// config has its keys found by name.
func TestKeysOfEveryStruct(t *testing.T) {
	for typ, key := range map[string]string{
		"Config": "default_guards", "Scratchpad": "exempt_agents", "SessionStart": "timeout",
		"SubagentStart": "tail_lines", "Hooks": "PostToolUseFailure", "Agent": "id", "Backend": "hooks",
	} {
		if keys := keysOf(typ); !slices.Contains(keys, key) {
			t.Errorf("keysOf(%s) = %q, missing %q", typ, keys, key)
		}
	}
	if keys := keysOf("NoSuchType"); keys != nil {
		t.Errorf("keysOf(NoSuchType) = %q, want none", keys)
	}
}
