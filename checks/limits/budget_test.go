package limits

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/state"
)

func newBudgetCheck(t *testing.T, options string) engine.Builtin {
	t.Helper()
	b, err := NewBudget(checktest.OptionsNode(t, options))
	if err != nil {
		t.Fatalf("newBudget(%q): %v", options, err)
	}
	return b
}

func budgetReason(pattern string, max int) string {
	return fmt.Sprintf("budget exhausted: proceed with the best information you have. (%s: all %d calls allowed this session are used; do not call these tools again.)", pattern, max)
}

// budgetStep is one call and whether the limit named denies it.
type budgetStep struct {
	tool    string
	scope   string // "" is "global"
	session string // "" is "s1"
	denyBy  string // the pattern that denies it; "" lets it through
	max     int
}

func runBudget(t *testing.T, g *checktest.GuardEnv, b engine.Builtin, steps []budgetStep) {
	t.Helper()
	for i, s := range steps {
		scope := s.scope
		if scope == "" {
			scope = "global"
		}
		v, err := b.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: s.tool, Input: `{"q":"x"}`, Scope: scope, Session: s.session}))
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, s.tool, err)
		}
		if s.denyBy == "" {
			if v.Decision != "" {
				t.Errorf("step %d (%s, %s): got %+v, want it let through", i, s.tool, scope, v)
			}
			continue
		}
		wantSys := fmt.Sprintf("massgen-hook: tool budget %q (%d calls) exhausted for this session.", s.denyBy, s.max)
		if v.Decision != engine.Deny || v.Reason != budgetReason(s.denyBy, s.max) || v.SystemMessage != wantSys {
			t.Errorf("step %d (%s, %s): got %+v, want denial by %q (%d)", i, s.tool, scope, v, s.denyBy, s.max)
		}
	}
}

func budgetCounts(t *testing.T, g *checktest.GuardEnv, session string) map[string]int {
	t.Helper()
	var rec budgetRecord
	if _, err := g.State.ReadJSON(state.SessionRecord(session, "budget"), &rec); err != nil {
		t.Fatal(err)
	}
	return rec.Counts
}

func TestBudgetLimit(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	b := newBudgetCheck(t, `limits: {"WebSearch|WebFetch": 3}`)
	const p = "WebSearch|WebFetch"
	runBudget(t, g, b, []budgetStep{
		{tool: "WebSearch"},
		{tool: "Read"}, // not limited, not counted
		{tool: "WebFetch"},
		{tool: "WebSearch"},
		{tool: "WebSearch", denyBy: p, max: 3},
		{tool: "WebFetch", denyBy: p, max: 3}, // every later call too
		{tool: "Bash"},
	})
	if got := budgetCounts(t, g, "s1"); !reflect.DeepEqual(got, map[string]int{"global " + p: 3}) {
		t.Errorf("counts %v: the denied calls were counted, or others were", got)
	}
}

func TestBudgetScopesAndSessions(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	b := newBudgetCheck(t, `limits: {WebSearch: 1}`)
	runBudget(t, g, b, []budgetStep{
		{tool: "WebSearch", scope: "global"},
		{tool: "WebSearch", scope: "global", denyBy: "WebSearch", max: 1},
		// Each scope has its own count.
		{tool: "WebSearch", scope: "agent x"},
		{tool: "WebSearch", scope: "agent x", denyBy: "WebSearch", max: 1},
		{tool: "WebSearch", scope: "agent y"},
		{tool: "WebSearch", scope: "default"},
		// And each session.
		{tool: "WebSearch", scope: "global", session: "s2"},
		{tool: "WebSearch", scope: "global", session: "s2", denyBy: "WebSearch", max: 1},
		{tool: "WebSearch", scope: "agent x", session: "s2"},
	})
	if got, want := budgetCounts(t, g, "s1"), map[string]int{"global WebSearch": 1, "agent x WebSearch": 1, "agent y WebSearch": 1, "default WebSearch": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("s1 counts %v, want %v", got, want)
	}
	if got, want := budgetCounts(t, g, "s2"), map[string]int{"global WebSearch": 1, "agent x WebSearch": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("s2 counts %v, want %v", got, want)
	}
}

// TestBudgetSeveralLimits: a call counts against every limit it matches,
// and the first limit used up (in pattern order) denies it without
// counting it against the others.
func TestBudgetSeveralLimits(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	b := newBudgetCheck(t, `limits: {"Web*": 3, WebSearch: 1, "mcp__*": 2}`)
	runBudget(t, g, b, []budgetStep{
		{tool: "WebSearch"}, // Web* 1, WebSearch 1
		{tool: "WebSearch", denyBy: "WebSearch", max: 1}, // not counted
		{tool: "WebFetch"},                                      // Web* 2
		{tool: "WebFetch"},                                      // Web* 3
		{tool: "WebFetch", denyBy: "Web*", max: 3},              // Web* used up
		{tool: "WebSearch", denyBy: "Web*", max: 3},             // both used up: the first in order names it
		{tool: "mcp__x__y"},                                     // mcp 1
		{tool: "mcp__x__z"},                                     // mcp 2
		{tool: "mcp__x__y", denyBy: "mcp__*", max: 2},           // mcp used up
		{tool: "WebSearchPro", denyBy: "Web*", max: 3},          // matches Web* only
		{tool: "Read"},                                          // no limit
		{tool: "mcp__web__WebSearch", denyBy: "mcp__*", max: 2}, // globs are anchored: only mcp__*
	})
	if got, want := budgetCounts(t, g, "s1"), map[string]int{"global Web*": 3, "global WebSearch": 1, "global mcp__*": 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
}

func TestBudgetZero(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	b := newBudgetCheck(t, `limits: {"mcp__firecrawl__*": 0, Read: 5}`)
	runBudget(t, g, b, []budgetStep{
		{tool: "mcp__firecrawl__scrape", denyBy: "mcp__firecrawl__*", max: 0},
		{tool: "mcp__firecrawl__scrape", denyBy: "mcp__firecrawl__*", max: 0},
		{tool: "Read"},
	})
	if got, want := budgetCounts(t, g, "s1"), map[string]int{"global Read": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
}

// TestBudgetNoStateForOtherTools: a call no limit matches writes nothing.
func TestBudgetNoStateForOtherTools(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	b := newBudgetCheck(t, `limits: {WebSearch: 1}`)
	runBudget(t, g, b, []budgetStep{{tool: "Read"}, {tool: "Bash"}})
	if names, err := g.State.SessionRecords("s1"); err != nil || len(names) != 0 {
		t.Errorf("records %q, %v; want none", names, err)
	}
}

func TestBudgetRegexLimit(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	b := newBudgetCheck(t, `limits: {"re:Web(Search|Fetch)": 1}`)
	runBudget(t, g, b, []budgetStep{
		{tool: "WebFetch"},
		{tool: "WebSearch", denyBy: "re:Web(Search|Fetch)", max: 1},
		{tool: "WebSearchX"},
	})
}

func TestBudgetOptionErrors(t *testing.T) {
	for _, tc := range []struct{ options, want string }{
		{``, `limits: give at least one, e.g. limits: {"WebSearch|WebFetch": 20}`},
		{`~`, `limits: give at least one`},
		{`limits: {}`, `limits: give at least one`},
		{`limits: {WebSearch: -1}`, `limits.WebSearch: a limit is a number of calls, 0 or more`},
		{`limits: {"Web|": 1}`, `limits.Web|: matcher "Web|": empty alternative`},
		{`limits: {"re:(": 1}`, `limits.re:(: matcher "re:(": invalid regular expression`},
		{`limits: {"[abc": 1}`, `limits.[abc: matcher "[abc": "[" at offset 0 of "[abc" is never closed`},
		{`limits: {WebSearch: many}`, "cannot unmarshal !!str `many` into int"},
		{`limit: {WebSearch: 1}`, `line 1: unknown option "limit" (known: limits)`},
		{`limits: [WebSearch]`, `cannot unmarshal !!seq`},
		{`[limits]`, `options must be a mapping`},
	} {
		t.Run(tc.options, func(t *testing.T) {
			_, err := NewBudget(checktest.OptionsNode(t, tc.options))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestBudgetRevert: Revert takes back one call's count from each limit
// that counted it, in the rule's scope, never below zero.
func TestBudgetRevert(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	b := newBudgetCheck(t, `limits: {"Web*": 3, WebSearch: 1}`)
	rv, ok := b.(engine.Reverter)
	if !ok {
		t.Fatal("budget is not an engine.Reverter")
	}
	ctx := context.Background()
	call := func(tool, scope string) *engine.Call {
		return g.MakeCall(t, checktest.CallSpec{Tool: tool, Input: `{}`, Scope: scope})
	}
	// A tool no limit counts: nothing to undo, nothing written.
	if err := rv.Revert(ctx, call("Read", "global")); err != nil {
		t.Fatal(err)
	}
	if names, _ := g.State.SessionRecords("s1"); len(names) != 0 {
		t.Fatalf("Revert of an uncounted tool wrote %q", names)
	}
	runBudget(t, g, b, []budgetStep{{tool: "WebSearch"}, {tool: "WebSearch", scope: "agent x"}})
	if err := rv.Revert(ctx, call("WebSearch", "global")); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"global Web*": 0, "global WebSearch": 0, "agent x Web*": 1, "agent x WebSearch": 1}
	if got := budgetCounts(t, g, "s1"); !reflect.DeepEqual(got, want) {
		t.Errorf("after Revert: %v, want %v", got, want)
	}
	if err := rv.Revert(ctx, call("WebSearch", "global")); err != nil {
		t.Fatal(err)
	}
	if got := budgetCounts(t, g, "s1"); !reflect.DeepEqual(got, want) {
		t.Errorf("a second Revert went below zero: %v", got)
	}
	// The reverted call is available again.
	runBudget(t, g, b, []budgetStep{{tool: "WebSearch"}, {tool: "WebSearch", denyBy: "WebSearch", max: 1}})
}
