package engine

import (
	"errors"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/protocol"
)

// countMade wraps the factories of reg to count, per check, how often
// each is made.
func countMade(reg Registry) (Registry, func() map[string]int) {
	var mu sync.Mutex
	made := map[string]int{}
	out := make(Registry, len(reg))
	for i, c := range reg {
		newCheck := c.New
		c.New = func(options *yaml.Node) (Builtin, error) {
			mu.Lock()
			made[c.Name]++
			mu.Unlock()
			return newCheck(options)
		}
		out[i] = c
	}
	return out, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(made)
	}
}

// TestDefaultsMadeOnFirstRun: a default check the configuration does not
// name is made when a call first runs it, once, and a hook of one event
// never makes the others' defaults. A configured check is made by Compile,
// which is where its options are checked.
func TestDefaultsMadeOnFirstRun(t *testing.T) {
	log := &defaultsLog{}
	reg, made := countMade(defaultsRegistry(log))
	e := compileYAML(t, hooksYAML("PreToolUse", "{name: mine, type: builtin, handler: plain}"), reg)
	if got, want := made(), map[string]int{"plain": 1}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after Compile made %v, want %v", got, want)
	}
	// Explaining the rules makes nothing.
	e.Candidates(protocol.PreToolUse, "", "Bash")
	e.Select(protocol.PostToolUseFailure, "", "Bash")
	if got, want := made(), map[string]int{"plain": 1}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after Select made %v, want %v", got, want)
	}
	if got, want := runLogged(t, e, log, protocol.PreToolUse, "", "Bash"),
		[]string{"guard_a/default@PreToolUse default", "guard_b/default@PreToolUse default", "plain/default@PreToolUse global"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
	// feature is PostToolUseFailure's alone: not made.
	if got, want := made(), map[string]int{"plain": 1, "guard_a": 1, "guard_b": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a PreToolUse run made %v, want %v", got, want)
	}
	// Later runs, and guard_b's other event, use the check made first.
	runLogged(t, e, log, protocol.PreToolUse, "", "Read")
	if got, want := runLogged(t, e, log, protocol.PostToolUse, "", "Bash"), []string{"guard_b/default@PostToolUse default"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
	if got, want := made(), map[string]int{"plain": 1, "guard_a": 1, "guard_b": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("after more runs made %v, want %v", got, want)
	}
}

// TestDefaultsMadeOnceAcrossGoroutines: calls that run at once on one
// engine make a default check once.
func TestDefaultsMadeOnceAcrossGoroutines(t *testing.T) {
	log := &defaultsLog{}
	reg, made := countMade(defaultsRegistry(log))
	e := compileYAML(t, "", reg)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.Run(t.Context(), newCall(t, protocol.PreToolUse, "", "Bash", `{}`, ""))
		}()
	}
	wg.Wait()
	if got, want := made(), map[string]int{"guard_a": 1, "guard_b": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("made %v, want %v", got, want)
	}
}

// TestDefaultThatCannotBeMadeDenies: a default check takes no options, so
// making it cannot fail (checks.TestDefaultChecksNeedNoOptions holds the
// real ones to it); if one did fail or panic anyway, the call is denied as
// for a rule that cannot run, never let through.
func TestDefaultThatCannotBeMadeDenies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		factory Factory
		want    string
	}{
		{"error", func(*yaml.Node) (Builtin, error) { return nil, errors.New("no options") },
			`built-in check "guard_a" cannot be made: no options`},
		{"nil", func(*yaml.Node) (Builtin, error) { return nil, nil },
			`built-in check "guard_a" cannot be made: it made no check`},
		{"panic", func(*yaml.Node) (Builtin, error) { panic("oh no") },
			`built-in check "guard_a" cannot be made: it panicked: oh no`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &defaultsLog{}
			reg := defaultsRegistry(log)
			reg[0].New = tc.factory
			e := compileYAML(t, "", reg)
			for range 2 { // and again: the failure is kept, not forgotten
				res := runCall(t, e, newCall(t, protocol.PreToolUse, "", "Bash", `{}`, ""))
				h := specific(t, res)
				if h.PermissionDecision != Deny || !strings.Contains(h.PermissionDecisionReason, tc.want) {
					t.Errorf("gave %+v, want a deny saying %q", h, tc.want)
				}
				if got := decisions(res); !reflect.DeepEqual(got, []string{"guard_a=deny", "guard_b=skipped"}) {
					t.Errorf("records %q", got)
				}
				if res.Hooks[0].Error != tc.want {
					t.Errorf("record error %q, want %q", res.Hooks[0].Error, tc.want)
				}
			}
		})
	}
}
