package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBuildSpec(t *testing.T) {
	defs := cases(20, 100)
	s := buildSpec("/bin/hook", "/w", defs, 200)
	if len(s.Cases) != 4 {
		t.Fatalf("%d cases, want 4", len(s.Cases))
	}
	byKey := map[string]specCase{}
	for _, c := range s.Cases {
		byKey[c.Labels["key"]] = c
	}

	// The two sides differ only in their project (and so their config).
	for key, c := range byKey {
		ref, sub := c.Reference, c.Subject
		if ref.Env["CLAUDE_PROJECT_DIR"] != "/w/"+key+"/file" || sub.Env["CLAUDE_PROJECT_DIR"] != "/w/"+key+"/nats" {
			t.Errorf("%s: projects %s and %s", key, ref.Env["CLAUDE_PROJECT_DIR"], sub.Env["CLAUDE_PROJECT_DIR"])
		}
		if strings.Join(ref.Argv, " ") != strings.Join(sub.Argv, " ") || len(ref.Before) != len(sub.Before) {
			t.Errorf("%s: the sides run different commands: %v (%d before) and %v (%d before)", key, ref.Argv, len(ref.Before), sub.Argv, len(sub.Before))
		}
	}

	empty, one, batch, send := byKey["empty"], byKey["one"], byKey["batch"], byKey["send"]
	if got := strings.Join(empty.Subject.Argv, " "); got != "/bin/hook post-tool-use" || empty.Subject.Stdin != "/w/empty/nats.json" || len(empty.Subject.Before) != 0 {
		t.Errorf("empty: %s < %s, %d before", got, empty.Subject.Stdin, len(empty.Subject.Before))
	}
	// The messages are queued by before commands (untimed), sent by the
	// same project's send to the agent whose hook is timed.
	if len(one.Subject.Before) != 1 || len(batch.Subject.Before) != 20 {
		t.Errorf("before commands: one %d, batch %d; want 1 and 20", len(one.Subject.Before), len(batch.Subject.Before))
	}
	b := batch.Subject.Before[19]
	if got := strings.Join(b.Argv, " "); got != "/bin/hook send --to coordinator "+messageText || b.Env["CLAUDE_PROJECT_DIR"] != "/w/batch/nats" {
		t.Errorf("batch before: %s in %s", got, b.Env["CLAUDE_PROJECT_DIR"])
	}
	if got := strings.Join(send.Reference.Argv, " "); got != "/bin/hook send --to coordinator "+messageText || send.Reference.Stdin != "" || len(send.Reference.Before) != 0 {
		t.Errorf("send: %s < %q, %d before", got, send.Reference.Stdin, len(send.Reference.Before))
	}
	if batch.Runs != 100 || one.Runs != 0 {
		t.Errorf("runs: batch %d, one %d; want 100 and the default", batch.Runs, one.Runs)
	}
	if s := buildSpec("/bin/hook", "/w", defs, 50); s.Cases[2].Runs != 0 {
		t.Errorf("batch runs with -runs 50: %d, want the default (fewer than its cap)", s.Cases[2].Runs)
	}

	// What the harness reads: its keys, and no key it would reject.
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"before":[{"argv":["/bin/hook","send"`, `"stdin":"/w/one/file.json"`, `"runs":100`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("spec lacks %s", want)
		}
	}
}

func TestConfigAndEvent(t *testing.T) {
	if got := configYAML(natsBackend, "nats://127.0.0.1:4222"); got != "inbox:\n  backend: nats\n  url: nats://127.0.0.1:4222\n  timeout: 10s\n" {
		t.Errorf("nats config %q", got)
	}
	if got := configYAML(fileBackend, "nats://127.0.0.1:4222"); got != "inbox:\n  backend: file\n" {
		t.Errorf("file config %q", got)
	}
	var ev map[string]any
	if err := json.Unmarshal(eventJSON(`/w/a "b"`), &ev); err != nil {
		t.Fatal(err)
	}
	if ev["cwd"] != `/w/a "b"` || ev["hook_event_name"] != "PostToolUse" || ev["agent_id"] != nil {
		t.Errorf("event %v: want a main-thread PostToolUse in the project", ev)
	}
}

func ms(x float64) *float64 { return &x }

func TestRender(t *testing.T) {
	r := &results{Runs: 200, Warmup: 10, Cases: []resultCase{
		{Name: "post-tool-use, nothing to deliver", Runs: 200,
			Reference: resultSide{MedianMS: ms(2), P99MS: ms(4), StdoutBytes: []int64{0, 0}},
			Subject:   resultSide{MedianMS: ms(3), P99MS: ms(5), StdoutBytes: []int64{0, 0}}},
		{Name: "post-tool-use, 20 messages waiting", Runs: 100,
			Reference: resultSide{MedianMS: ms(4), P99MS: ms(8), StdoutBytes: []int64{900, 900, 900}},
			Subject:   resultSide{MedianMS: ms(10), P99MS: nil, StdoutBytes: []int64{900, 0, 0}, NonZeroExits: 1, FirstStderrLine: "broker down"}},
	}}
	var b strings.Builder
	render(&b, r)
	got := b.String()
	for _, want := range []string{
		"Runs: 200 alternating file/NATS pairs per case, after 10 warmup pairs (discarded)",
		"| post-tool-use, nothing to deliver | 2.00 | 3.00 | 1.50× | +1.00 | 4.00 | 5.00 | 1.25× |\n",
		"| post-tool-use, 20 messages waiting | 4.00 | 10.00 | 2.50× | +6.00 | 8.00 | n/a | n/a |\n",
		"- post-tool-use, 20 messages waiting: 100 measured pairs.\n",
		"- post-tool-use, 20 messages waiting, NATS: 1 of 3 runs exited non-zero (first stderr line: broker down); treat the row as suspect.\n",
		"- post-tool-use, 20 messages waiting: in 2 pairs the two hooks' answers differ in size",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "nothing to deliver:") {
		t.Errorf("a note on a clean case:\n%s", got)
	}
}

func TestDifferentOutput(t *testing.T) {
	for _, tc := range []struct {
		ref, sub []int64
		want     int
	}{
		{[]int64{5, 5}, []int64{5, 5}, 0},
		{[]int64{5, 5}, []int64{5, 0}, 1},
		{[]int64{5}, []int64{5, 5, 5}, 2},
		{[]int64{5, 5, 5}, []int64{5}, 2},
	} {
		c := resultCase{Reference: resultSide{StdoutBytes: tc.ref}, Subject: resultSide{StdoutBytes: tc.sub}}
		if got := c.differentOutput(); got != tc.want {
			t.Errorf("%v vs %v: %d, want %d", tc.ref, tc.sub, got, tc.want)
		}
	}
}
