package limits

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

var roundT0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

const (
	roundOpts       = "{initial_timeout: 100, subsequent_timeout: 50, grace: 10, max_denials: 3}"
	defaultTerminal = "vote or new_answer or mcp__*__vote or mcp__*__new_answer"
	whyAsked        = "you have been asked to answer now"
)

func newRound(t *testing.T, options string) engine.Builtin {
	t.Helper()
	b, err := NewRoundTimeout(checktest.OptionsNode(t, options))
	if err != nil {
		t.Fatalf("newRoundTimeout(%q): %v", options, err)
	}
	return b
}

func whyLimit(limit string) string { return "this round's time limit (" + limit + ") is up" }

func roundWarning(why, terminal, grace string) string {
	return fmt.Sprintf("⏰ ROUND TIME LIMIT: %s. Wrap up: stop exploring, finish the step you are on, and submit your answer with %s. In %s every other tool will be refused.", why, terminal, grace)
}

func roundDenial(terminal, tool string, n, max int) string {
	return fmt.Sprintf("Round time is up and the grace period is over: only %s may run now. Submit your answer with one of them instead of calling %s. (Refused call %d of %d before the session is stopped.)", terminal, tool, n, max)
}

// roundStep is one call at t0+at seconds.
type roundStep struct {
	hook  string
	tool  string
	at    float64
	agent string
	warn  string // PostToolUse: the warning's why ("" none)
	deny  int    // PreToolUse: the denial's count (0 none)
	stop  bool
}

func roundPre(tool string, at float64, deny int) roundStep {
	return roundStep{hook: protocol.PreToolUse, tool: tool, at: at, deny: deny}
}

func roundPost(at float64, warn string) roundStep {
	return roundStep{hook: protocol.PostToolUse, tool: "Bash", at: at, warn: warn}
}

func at(s float64) time.Time { return roundT0.Add(time.Duration(s * float64(time.Second))) }

// runRound runs steps; terminal, grace and max describe r's options for
// the expected texts.
func runRound(t *testing.T, g *checktest.GuardEnv, r engine.Builtin, terminal, grace string, max int, steps []roundStep) {
	t.Helper()
	for i, s := range steps {
		call := g.MakeCall(t, checktest.CallSpec{Hook: s.hook, Tool: s.tool, Input: `{}`, Agent: s.agent, Now: at(s.at)})
		if s.hook == protocol.PostToolUse {
			call.ToolOutput = []byte(`"ok"`)
		}
		v, err := r.Check(context.Background(), call)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		label := fmt.Sprintf("step %d (%s %s at %gs agent %q)", i, s.hook, s.tool, s.at, s.agent)
		switch {
		case s.warn != "":
			want := []engine.Injection{{Content: roundWarning(s.warn, terminal, grace), Strategy: engine.ToolResult}}
			if !reflect.DeepEqual(v.Injections, want) || v.Decision != "" {
				t.Errorf("%s: got %+v\nwant the injection %+v", label, v, want)
			}
		case s.deny > 0:
			if v.Decision != engine.Deny || v.Reason != roundDenial(terminal, s.tool, s.deny, max) {
				t.Errorf("%s: got %q %q\nwant deny %q", label, v.Decision, v.Reason, roundDenial(terminal, s.tool, s.deny, max))
			}
			wantStop := ""
			if s.stop {
				wantStop = fmt.Sprintf("massgen-hook: round timeout: the agent made %d calls after its round ended without submitting an answer; stopping it.", s.deny)
			}
			if v.Stop != s.stop || v.StopReason != wantStop {
				t.Errorf("%s: stop %v %q, want %v %q", label, v.Stop, v.StopReason, s.stop, wantStop)
			}
		default:
			if v.Decision != "" || v.Reason != "" || len(v.Injections) > 0 || v.Stop {
				t.Errorf("%s: got %+v, want nothing", label, v)
			}
		}
	}
}

func TestRoundFirstRound(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	r := newRound(t, roundOpts)
	runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
		roundPre("Bash", 0, 0), // starts the clock
		roundPost(1, ""),
		roundPre("Read", 99.9, 0),
		roundPost(99.9, ""),
		roundPost(100, whyLimit("1m40s")), // the soft limit: one warning
		roundPost(101, ""),
		roundPre("Bash", 109.9, 0), // grace after the warning
		roundPre("Bash", 110, 1),
		roundPre("Grep", 111, 2),
		// Terminal tools always run, and reset the count.
		roundPre("vote", 112, 0),
		roundPre("Read", 113, 1),
		roundPre("mcp__massgen__new_answer", 114, 0),
		roundPre("new_answer", 114, 0),
		roundPre("Bash", 115, 1),
		roundPre("Bash", 116, 2),
		{hook: protocol.PreToolUse, tool: "Bash", at: 117, deny: 3, stop: true},
		{hook: protocol.PreToolUse, tool: "Edit", at: 118, deny: 4, stop: true},
		roundPre("vote", 119, 0), // even after the stop
		roundPre("Bash", 120, 1),
		roundPost(121, ""),
	})
}

// TestRoundHardWithoutWarning: with no call finished since the soft
// limit, grace runs from the soft limit.
func TestRoundHardWithoutWarning(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	runRound(t, g, newRound(t, roundOpts), defaultTerminal, "10s", 3, []roundStep{
		roundPre("Bash", 0, 0),
		roundPre("Bash", 105, 0),
		roundPre("Bash", 109.999, 0),
		roundPre("Bash", 110, 1),
	})
}

// TestRoundLateWarning: a warning carried later than the soft limit (a
// long call finished late) gives its full grace.
func TestRoundLateWarning(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	runRound(t, g, newRound(t, roundOpts), defaultTerminal, "10s", 3, []roundStep{
		roundPre("Bash", 0, 0),
		roundPre("Bash", 50, 0), // a long call
		roundPost(150, whyLimit("1m40s")),
		roundPre("Bash", 155, 0),
		roundPre("Bash", 159.9, 0),
		roundPre("Bash", 160, 1),
	})
}

// TestRoundStartsOnPost: the clock also starts at a first PostToolUse.
func TestRoundStartsOnPost(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	runRound(t, g, newRound(t, roundOpts), defaultTerminal, "10s", 3, []roundStep{
		roundPost(30, ""),
		roundPost(129, ""),
		roundPost(130, whyLimit("1m40s")),
	})
}

func TestRoundLaterRounds(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	r := newRound(t, roundOpts)
	name := RoundRecordName("")
	runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
		roundPre("Bash", 0, 0),
		roundPost(100, whyLimit("1m40s")),
		roundPre("Bash", 110, 1),
	})
	n, err := StartRound(g.State, "s1", name, at(200))
	if err != nil || n != 2 {
		t.Fatalf("StartRound = %d, %v; want 2", n, err)
	}
	// A new round: warning and denials start over, with the shorter limit.
	runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
		roundPre("Bash", 201, 0),
		roundPost(249, ""),
		roundPost(250, whyLimit("50s")),
		roundPre("Bash", 259, 0),
		roundPre("Bash", 260, 1),
	})
	if n, err := StartRound(g.State, "s1", name, at(300)); err != nil || n != 3 {
		t.Fatalf("third StartRound = %d, %v", n, err)
	}
	runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
		roundPost(349, ""),
		roundPost(350, whyLimit("50s")),
	})
	// Without subsequent_timeout, later rounds get the first's limit.
	r2 := newRound(t, "{initial_timeout: 100, grace: 10}")
	if n, err := StartRound(g.State, "s2", name, at(0)); err != nil || n != 1 {
		t.Fatalf("StartRound without a record = %d, %v; want 1", n, err)
	}
	if n, err := StartRound(g.State, "s2", name, at(10)); err != nil || n != 2 {
		t.Fatalf("StartRound = %d, %v; want 2", n, err)
	}
	call := g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUse, Tool: "Bash", Input: `{}`, Session: "s2", Now: at(109)})
	if v, _ := r2.Check(context.Background(), call); len(v.Injections) != 0 {
		t.Fatalf("warned at 109s: %+v", v)
	}
	call = g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUse, Tool: "Bash", Input: `{}`, Session: "s2", Now: at(110)})
	v, _ := r2.Check(context.Background(), call)
	if len(v.Injections) != 1 || v.Injections[0].Content != roundWarning(whyLimit("1m40s"), defaultTerminal, "10s") {
		t.Fatalf("at 110s: %+v", v)
	}
}

func TestRoundWrapUp(t *testing.T) {
	name := RoundRecordName("")
	t.Run("earlier than soft", func(t *testing.T) {
		g := checktest.NewGuardEnv(t)
		r := newRound(t, roundOpts)
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{roundPre("Bash", 0, 0)})
		if n, err := WrapUp(g.State, "s1", name, at(20)); err != nil || n != 1 {
			t.Fatalf("WrapUp = %d, %v", n, err)
		}
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
			roundPost(21, whyAsked),
			roundPost(22, ""),
			roundPre("Bash", 30.9, 0),
			roundPre("Bash", 31, 1), // grace from the warning
		})
	})
	t.Run("before any call", func(t *testing.T) {
		g := checktest.NewGuardEnv(t)
		r := newRound(t, roundOpts)
		if n, err := WrapUp(g.State, "s1", name, at(20)); err != nil || n != 1 {
			t.Fatalf("WrapUp = %d, %v", n, err)
		}
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
			roundPre("Bash", 25, 0),
			roundPre("Bash", 30, 1), // grace from the wrap-up: nothing finished to warn
		})
	})
	t.Run("later than soft changes nothing", func(t *testing.T) {
		g := checktest.NewGuardEnv(t)
		r := newRound(t, roundOpts)
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{roundPre("Bash", 0, 0)})
		if _, err := WrapUp(g.State, "s1", name, at(150)); err != nil {
			t.Fatal(err)
		}
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
			roundPre("Bash", 109, 0),
			roundPre("Bash", 110, 1),
			roundPost(151, whyLimit("1m40s")),
		})
	})
	t.Run("the earliest wrap-up wins", func(t *testing.T) {
		g := checktest.NewGuardEnv(t)
		r := newRound(t, roundOpts)
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{roundPre("Bash", 0, 0)})
		for _, s := range []float64{40, 20, 60} {
			if n, err := WrapUp(g.State, "s1", name, at(s)); err != nil || n != 1 {
				t.Fatalf("WrapUp(%g) = %d, %v", s, n, err)
			}
		}
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
			roundPre("Bash", 29, 0),
			roundPre("Bash", 30, 1),
			roundPost(31, whyAsked),
		})
	})
	t.Run("in a later round", func(t *testing.T) {
		g := checktest.NewGuardEnv(t)
		r := newRound(t, roundOpts)
		if _, err := StartRound(g.State, "s1", name, at(0)); err != nil {
			t.Fatal(err)
		}
		if n, err := StartRound(g.State, "s1", name, at(100)); err != nil || n != 2 {
			t.Fatalf("StartRound = %d, %v", n, err)
		}
		if n, err := WrapUp(g.State, "s1", name, at(110)); err != nil || n != 2 {
			t.Fatalf("WrapUp = %d, %v; want round 2", n, err)
		}
		runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{roundPost(111, whyAsked)})
	})
}

func TestRoundTerminalTools(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	r := newRound(t, `{initial_timeout: 10, grace: 0, max_denials: 2, terminal_tools: ["submit_*", "re:mcp__.*__finish"]}`)
	const terminal = "submit_* or re:mcp__.*__finish"
	runRound(t, g, r, terminal, "0s", 2, []roundStep{
		roundPre("Bash", 0, 0),
		roundPost(10, whyLimit("10s")),
		roundPre("vote", 10, 1),
		roundPre("submit_answer", 11, 0),
		roundPre("mcp__x__finish", 12, 0),
		roundPre("new_answer", 13, 1),
		{hook: protocol.PreToolUse, tool: "mcp__x__vote", at: 14, deny: 2, stop: true},
		{hook: protocol.PreToolUse, tool: "mcp__x__finish_line", at: 15, deny: 3, stop: true}, // anchored
	})
	// Every denial of the sequence stops once max_denials is reached.
	v, _ := r.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: `{}`, Now: at(16)}))
	if !v.Stop || !strings.Contains(v.Reason, "Refused call 4 of 2") {
		t.Errorf("after max_denials: %+v", v)
	}
}

// TestRoundAgents: each agent has its own clock.
func TestRoundAgents(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	r := newRound(t, roundOpts)
	runRound(t, g, r, defaultTerminal, "10s", 3, []roundStep{
		{hook: protocol.PreToolUse, tool: "Bash", at: 0, agent: "a"},
		{hook: protocol.PreToolUse, tool: "Bash", at: 90, agent: "b"},
		{hook: protocol.PostToolUse, tool: "Bash", at: 100, agent: "b"},
		{hook: protocol.PostToolUse, tool: "Bash", at: 100, agent: "a", warn: whyLimit("1m40s")},
		{hook: protocol.PreToolUse, tool: "Bash", at: 110, agent: "a", deny: 1},
		{hook: protocol.PreToolUse, tool: "Bash", at: 110, agent: "b"},
		{hook: protocol.PreToolUse, tool: "Bash", at: 110}, // the main thread starts now
		{hook: protocol.PostToolUse, tool: "Bash", at: 190, agent: "b", warn: whyLimit("1m40s")},
		{hook: protocol.PreToolUse, tool: "Bash", at: 200, agent: "b", deny: 1},
		{hook: protocol.PreToolUse, tool: "Bash", at: 200, agent: "a", deny: 2},
	})
}

func TestRoundRecords(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	for _, tc := range []struct{ agent, want string }{
		{"", "round-main"},
		{"main", "round-main"},
		{"worker-1", "round-worker-1"},
		{"a/b", "round-" + state.Key("a/b")},
	} {
		if got := RoundRecordName(tc.agent); got != tc.want {
			t.Errorf("RoundRecordName(%q) = %q, want %q", tc.agent, got, tc.want)
		}
	}
	if strings.Contains(RoundRecordName("../../x"), "/") {
		t.Errorf("RoundRecordName lets a path through: %q", RoundRecordName("../../x"))
	}
	if got, err := RoundRecords(g.State, "s1"); err != nil || got != nil {
		t.Fatalf("no session: %q, %v", got, err)
	}
	r := newRound(t, roundOpts)
	for _, agent := range []string{"", "worker", "a/b"} {
		if _, err := r.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: `{}`, Agent: agent, Now: at(0)})); err != nil {
			t.Fatal(err)
		}
	}
	// Other checks' records in the session are not rounds.
	b := newBudgetCheck(t, `limits: {Bash: 5}`)
	if _, err := b.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: `{}`})); err != nil {
		t.Fatal(err)
	}
	got, err := RoundRecords(g.State, "s1")
	want := []string{RoundRecordName("a/b"), "round-main", "round-worker"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("RoundRecords = %q, %v; want %q", got, err, want)
	}
	// The records are what StartRound and WrapUp take.
	if n, err := StartRound(g.State, "s1", got[2], at(5)); err != nil || n != 2 {
		t.Fatalf("StartRound(%s) = %d, %v", got[2], n, err)
	}
}

func TestRoundOptionErrors(t *testing.T) {
	for _, tc := range []struct{ options, want string }{
		{``, `initial_timeout: give the first round's time limit in seconds (e.g. initial_timeout: 600)`},
		{`{grace: 5}`, `initial_timeout: give the first round's time limit`},
		{`{initial_timeout: 0}`, `initial_timeout: give the first round's time limit`},
		{`{initial_timeout: -5}`, `initial_timeout: give the first round's time limit`},
		{`{initial_timeout: 10, subsequent_timeout: -1}`, `subsequent_timeout: must be positive seconds`},
		{`{initial_timeout: 10, grace: -1}`, `grace: must be 0 or more seconds`},
		{`{initial_timeout: 10, max_denials: 0}`, `max_denials: must be 1 or more`},
		{`{initial_timeout: 10, terminal_tools: ["vote|"]}`, `terminal_tools[0]: matcher "vote|": empty alternative`},
		{`{initial_timeout: 10, terminal_tools: [vote, "re:("]}`, `terminal_tools[1]: matcher "re:(": invalid regular expression`},
		{`{initial_timeout: ten}`, "cannot unmarshal !!str `ten` into float64"},
		{`{initial_timeout: 10, timeout: 5}`, `unknown option "timeout" (known: grace, initial_timeout, max_denials, subsequent_timeout, terminal_tools)`},
		{`[10]`, `options must be a mapping`},
	} {
		if _, err := NewRoundTimeout(checktest.OptionsNode(t, tc.options)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.options, err, tc.want)
		}
	}
}

// TestRoundDefaults: grace defaults to 120 s and max_denials to 10; grace
// 0 refuses from the soft limit on.
func TestRoundDefaults(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	runRound(t, g, newRound(t, "initial_timeout: 60"), defaultTerminal, "2m0s", 10, []roundStep{
		roundPre("Bash", 0, 0),
		roundPost(60, whyLimit("1m0s")),
		roundPre("Bash", 179, 0),
		roundPre("Bash", 180, 1),
	})
	g = checktest.NewGuardEnv(t)
	runRound(t, g, newRound(t, "{initial_timeout: 0.5, grace: 0}"), defaultTerminal, "0s", 10, []roundStep{
		roundPre("Bash", 0, 0),
		roundPre("Bash", 0.49, 0),
		roundPre("Bash", 0.5, 1),
	})
}
