package limits

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/state"
)

func newDelay(t *testing.T, options string) engine.Builtin {
	t.Helper()
	b, err := NewDebugDelay(checktest.OptionsNode(t, options))
	if err != nil {
		t.Fatalf("newDebugDelay(%q): %v", options, err)
	}
	return b
}

// delayCall runs one call of agent and reports how long it took.
func delayCall(t *testing.T, g *checktest.GuardEnv, d engine.Builtin, ctx context.Context, agent string) (engine.Verdict, time.Duration, error) {
	t.Helper()
	start := time.Now()
	v, err := d.Check(ctx, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: `{"command":"ls"}`, Agent: agent}))
	return v, time.Since(start), err
}

const delayWait = 50 * time.Millisecond

func TestDebugDelayOnce(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	d := newDelay(t, "{seconds: 0.05, after_tools: 2}")
	ctx := context.Background()
	for i, wantWait := range []bool{false, false, true, false, false} {
		v, took, err := delayCall(t, g, d, ctx, "")
		if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if v.Decision != "" || v.Reason != "" {
			t.Errorf("call %d: decided %+v", i+1, v)
		}
		if wantWait {
			if took < delayWait {
				t.Errorf("call %d took %s, want a wait of %s", i+1, took, delayWait)
			}
			if want := []string{"debug delay: waited 50ms after 2 calls"}; !reflect.DeepEqual(v.Notes, want) {
				t.Errorf("call %d: notes %q, want %q", i+1, v.Notes, want)
			}
			continue
		}
		if len(v.Notes) != 0 {
			t.Errorf("call %d took %s with notes %q, want no wait", i+1, took, v.Notes)
		}
	}
	var rec delayRecord
	if ok, err := g.State.ReadJSON(state.SessionRecord("s1", "delay-main"), &rec); !ok || err != nil || rec != (delayRecord{Calls: 3, Delayed: true}) {
		t.Errorf("record %+v (%v, %v); want 3 calls, delayed", rec, ok, err)
	}
}

// TestDebugDelayPerAgent: each agent (and session) waits once, on its own
// count.
func TestDebugDelayPerAgent(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	d := newDelay(t, "{seconds: 0.05, after_tools: 1}")
	ctx := context.Background()
	for i, step := range []struct {
		agent string
		wait  bool
	}{
		{"a", false}, {"b", false}, {"a", true}, {"", false}, {"b", true}, {"a", false}, {"", true}, {"b", false},
	} {
		v, took, err := delayCall(t, g, d, ctx, step.agent)
		if err != nil {
			t.Fatal(err)
		}
		if waited := len(v.Notes) == 1; waited != step.wait || waited && took < delayWait {
			t.Errorf("step %d (agent %q): took %s with notes %q, want wait %v", i, step.agent, took, v.Notes, step.wait)
		}
	}
	if v, err := d.Check(ctx, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: `{}`, Session: "s2"})); err != nil || len(v.Notes) != 0 {
		t.Errorf("a new session's first call waited: %+v, %v", v, err)
	}
}

func TestDebugDelayAfterZero(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	d := newDelay(t, "{seconds: 0.05, after_tools: 0}")
	v, took, err := delayCall(t, g, d, context.Background(), "")
	if err != nil || took < delayWait || len(v.Notes) != 1 || v.Notes[0] != "debug delay: waited 50ms after 0 calls" {
		t.Fatalf("first call: %+v, %v, took %s; want the wait", v, err, took)
	}
}

// TestDebugDelayDefaultAfter: after_tools defaults to 3.
func TestDebugDelayDefaultAfter(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	d := newDelay(t, "seconds: 0.05")
	for i := 1; i <= 4; i++ {
		v, took, err := delayCall(t, g, d, context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		if waited := len(v.Notes) == 1; waited != (i == 4) || waited && took < delayWait {
			t.Errorf("call %d took %s with notes %q", i, took, v.Notes)
		}
	}
}

// TestDebugDelayCutShort: the rule's timeout ends the wait with an error,
// and the delay is spent all the same.
func TestDebugDelayCutShort(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	d := newDelay(t, "{seconds: 30, after_tools: 0}")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	v, took, err := delayCall(t, g, d, ctx, "")
	if err == nil || err.Error() != "debug delay of 30s cut short by the rule's timeout: give the rule a timeout above seconds" {
		t.Fatalf("err %v", err)
	}
	if v.Decision != "" || len(v.Notes) != 0 {
		t.Errorf("verdict %+v", v)
	}
	if took > 5*time.Second {
		t.Errorf("took %s: the timeout did not cut the wait", took)
	}
	v, took, err = delayCall(t, g, d, context.Background(), "")
	if err != nil || len(v.Notes) != 0 || took > 5*time.Second {
		t.Errorf("the next call: %+v, %v, took %s; want no second wait", v, err, took)
	}
}

func TestDebugDelayOptionErrors(t *testing.T) {
	for _, tc := range []struct{ options, want string }{
		{``, `seconds: give the delay in seconds (e.g. seconds: 30)`},
		{`after_tools: 2`, `seconds: give the delay in seconds`},
		{`seconds: 0`, `seconds: give the delay in seconds`},
		{`seconds: -1`, `seconds: give the delay in seconds`},
		{`{seconds: 1, after_tools: -1}`, `after_tools: must be 0 or more`},
		{`{seconds: soon}`, "cannot unmarshal !!str `soon` into float64"},
		{`{seconds: 1, after: 2}`, `line 1: unknown option "after" (known: after_tools, seconds)`},
		{`30`, `options must be a mapping, got !!int`},
	} {
		if _, err := NewDebugDelay(checktest.OptionsNode(t, tc.options)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.options, err, tc.want)
		}
	}
}
