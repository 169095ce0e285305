package lifecycle

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/protocol"
)

// The stop counter reads its last line: a line per block appended, an
// earlier release's single record without its newline, or a last line cut
// short (not ok: the count restarts); a counter past maxStopLines starts
// a new file.
func TestStopCounterLines(t *testing.T) {
	for _, c := range []struct {
		name, old string
		blocks    int
		reason    string
		kept      string
		ok        bool
	}{
		{"absent", "", 0, "", "", true},
		{"one line", `{"blocks":1,"last_reason":"a"}` + "\n", 1, "a", `{"blocks":1,"last_reason":"a"}` + "\n", true},
		{"lines", `{"blocks":1,"last_reason":"a"}` + "\n" + `{"blocks":2,"last_reason":"b \"q\""}` + "\n", 2, `b "q"`,
			`{"blocks":1,"last_reason":"a"}` + "\n" + `{"blocks":2,"last_reason":"b \"q\""}` + "\n", true},
		{"earlier release's record", `{"blocks":2,"last_reason":"a"}`, 2, "a", `{"blocks":2,"last_reason":"a"}` + "\n", true},
		{"cut short", `{"blocks":1,"last_reason":"a"}` + "\n" + `{"blocks":2,"last_re`, 0, "", "", false},
		{"damaged", `{"blocks": tr` + "\n", 0, "", "", false},
		{"not a count", `{"blocks":"2"}` + "\n", 0, "", "", false},
		{"not an object", "[1]\n", 0, "", "", false},
		{"full", strings.Repeat(`{"blocks":1}`+"\n", maxStopLines), 1, "", "", true},
	} {
		rec, kept, ok := lastStop([]byte(c.old))
		if rec.Blocks != c.blocks || rec.Reason != c.reason || string(kept) != c.kept || ok != c.ok {
			t.Errorf("%s: %+v, kept %q, ok %v; want %d %q, kept %q, ok %v", c.name, rec, kept, ok, c.blocks, c.reason, c.kept, c.ok)
		}
	}
	rec := stopRecord{Blocks: 3, Reason: "write <it>\n"}
	if got, want := string(rec.appendLine([]byte("x\n"))), "x\n"+`{"blocks":3,"last_reason":"write \u003cit\u003e\n"}`+"\n"; got != want {
		t.Errorf("appendLine: %q, want %q", got, want)
	}
	if back, _, ok := lastStop(rec.appendLine(nil)); !ok || back != rec {
		t.Errorf("a line read back: %+v %v", back, ok)
	}
}

// The loop cap always lets the agent go, whatever the reasons weigh: a
// counter of many blocks with long reasons (8,000 characters, each escaped
// to six) stays small enough to read, and a pass then resets it.
func TestStopCounterLargeReasonsStillRelease(t *testing.T) {
	env, notes := testEnv(t, nil)
	env.Config.Scratchpad.BlockCap = 100
	ev := &protocol.Event{HookEventName: protocol.Stop, SessionID: "s1"}
	why := stopReason{protocol: "Scratchpad missing.", late: strings.Repeat("<", 8000)}
	released := false
	for i := 0; i < 101 && !released; i++ {
		_, outcome, err := capStops(env, ev, "main", "the main agent", why)
		if err != nil {
			t.Fatalf("block %d: %v", i+1, err)
		}
		released = outcome == stopReleased
	}
	if !released {
		t.Fatal("never released")
	}
	for range 30 {
		capStops(env, ev, "main", "the main agent", why)
	}
	notes.Reset()
	capStops(env, ev, "main", "the main agent", stopReason{})
	if _, _, err := capStops(env, ev, "main", "the main agent", stopReason{protocol: "Scratchpad missing."}); err != nil || notes.Len() > 0 {
		t.Errorf("after a pass, the next block: %v, notes %q", err, notes.String())
	}
}

// A counter planted too large to read, or with a count below zero (which
// would never reach the cap), is corrupt: noted, and the count starts
// again from 0, so the agent is blocked and let go as ever.
func TestStopCounterPlantedIsReset(t *testing.T) {
	for name, content := range map[string]string{
		"too large": strings.Repeat(`{"blocks":1}`+"\n", 2<<20/13),
		"negative":  `{"blocks":-1000000000}` + "\n",
	} {
		env, notes := testEnv(t, nil)
		ev := &protocol.Event{HookEventName: protocol.Stop, SessionID: "s1"}
		dir := filepath.Join(env.State.Path, "sessions", "s1")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stop-main.json"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		why := stopReason{protocol: "Scratchpad missing."}
		var outcomes []stopOutcome
		for range 4 {
			_, outcome, err := capStops(env, ev, "main", "the main agent", why)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			outcomes = append(outcomes, outcome)
		}
		if want := []stopOutcome{stopBlocked, stopBlocked, stopBlocked, stopReleased}; !slices.Equal(outcomes, want) {
			t.Errorf("%s: %v, want %v", name, outcomes, want)
		}
		if !strings.Contains(notes.String(), "was corrupt") {
			t.Errorf("%s: notes %q", name, notes.String())
		}
	}
}

// A hard link planted at the counter's name, to a file of the user's, is
// replaced, never appended to.
func TestStopCounterHardLinkNotWrittenThrough(t *testing.T) {
	env, _ := testEnv(t, nil)
	outside := filepath.Join(t.TempDir(), "victim.jsonl")
	orig := `{"user":"settings"}` + "\n"
	if err := os.WriteFile(outside, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(env.State.Path, "sessions", "s1")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(dir, "stop-main.json")); err != nil {
		t.Skip(err)
	}
	ev := &protocol.Event{HookEventName: protocol.Stop, SessionID: "s1"}
	if _, _, err := capStops(env, ev, "main", "the main agent", stopReason{protocol: "Scratchpad missing."}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(outside); string(data) != orig {
		t.Errorf("the file the counter was hard-linked to was written: %q", data)
	}
}
