package cli

import (
	"slices"
	"testing"
)

// Every subcommand any CLI wires belongs to exactly one part, so --only
// never drops a hook silently, and every part wires something everywhere.
func TestEveryWireHasOnePart(t *testing.T) {
	for _, name := range targetNames() {
		tg := targets.Get()[name]
		covered := map[string]bool{}
		for _, w := range tg.wires {
			n := 0
			for p, subs := range parts.Get() {
				if slices.Contains(subs, w.sub) {
					n++
					covered[p] = true
				}
			}
			if n != 1 {
				t.Errorf("%s: %s is in %d parts, want 1", name, w.sub, n)
			}
		}
		for _, p := range partNames() {
			if !covered[p] {
				t.Errorf("%s wires nothing of part %s", name, p)
			}
		}
		if got := wiredCount(tg, partSet{"guards": true}); got != 1 {
			t.Errorf("%s: --only guards wires %d hooks, want 1", name, got)
		}
		if got, all := wiredCount(tg, nil), len(tg.wires); got != all {
			t.Errorf("%s: no --only wires %d of %d hooks", name, got, all)
		}
	}
}

// wiredCount is how many hooks init wires for tg's parts ps: the
// entries of its hook file, or the subcommands its plugin hands events to.
func wiredCount(tg target, ps partSet) int {
	if tg.plugin {
		return len(pluginWiring(tg, placement{}, ps).Subcommands)
	}
	return len(tg.entries("x", ps))
}

// blocks recognises a denial in each CLI's answer shape, and nothing else.
func TestBlocks(t *testing.T) {
	for out, want := range map[string]bool{
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`:           true,
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}`: true,
		`{"decision":"block","reason":"x"}`: true,
		`{"permission":"deny"}`:             true,
		`{"permissionDecision":"deny"}`:     true,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`: false,
		`{"permission":"allow"}`:   false,
		`{"systemMessage":"deny"}`: false,
		`{}`:                       false,
	} {
		if got := blocks([]byte(out)); got != want {
			t.Errorf("blocks(%s) = %v, want %v", out, got, want)
		}
	}
}
