package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/protocol"
)

func TestSummarize(t *testing.T) {
	f := false
	long := strings.Repeat("x", 300)
	tests := []struct {
		name    string
		o       protocol.Output
		exit    int
		failure string
		want    Verdict
	}{
		{"none", protocol.Output{}, 0, "", Verdict{Decision: "none"}},
		{"deny", protocol.Deny("no rm\nsecond line"), 0, "", Verdict{Decision: "deny", Reason: "no rm"}},
		{"ask", protocol.AskUser("sure?"), 0, "", Verdict{Decision: "ask", Reason: "sure?"}},
		{"ask rewrite", protocol.Output{HookSpecificOutput: &protocol.HookSpecific{PermissionDecision: "ask", UpdatedInput: json.RawMessage(`{}`)}}, 0, "",
			Verdict{Decision: "ask+rewrite"}},
		{"block", protocol.Block("write it"), 0, "", Verdict{Decision: "block", Reason: "write it"}},
		{"stop beats all", protocol.Output{Continue: &f, StopReason: "halt", Decision: "block"}, 0, "", Verdict{Decision: "stop", Reason: "halt"}},
		{"context", protocol.Context("PostToolUse", "\n\nnote this\nmore"), 0, "", Verdict{Decision: "context", Reason: "note this"}},
		{"rewrite output", protocol.Output{HookSpecificOutput: &protocol.HookSpecific{UpdatedToolOutput: json.RawMessage(`"x"`)}}, 0, "", Verdict{Decision: "rewrite"}},
		{"warn", protocol.Output{SystemMessage: "careful"}, 0, "", Verdict{Decision: "warn", Reason: "careful"}},
		{"error", protocol.Output{}, 2, "bad input\nmore", Verdict{Decision: "error", Reason: "bad input", Exit: 2}},
		{"redacted", protocol.Deny("denied: mysql --password=hunter2"), 0, "", Verdict{Decision: "deny", Reason: "denied: mysql --password=[REDACTED]"}},
		{"cut", protocol.Deny(long), 0, "", Verdict{Decision: "deny", Reason: strings.Repeat("x", maxReason-1) + "…"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summarize(tt.o, tt.exit, tt.failure); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSummarizeStdout(t *testing.T) {
	tests := []struct {
		stdout, stderr string
		exit           int
		want           Verdict
	}{
		{"", "", 0, Verdict{Decision: "none"}},
		{"\n", "massgen-hook: a note\n", 0, Verdict{Decision: "none"}},
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n", "", 0,
			Verdict{Decision: "deny", Reason: "no"}},
		{"", "massgen-hook: bad hook input: x\nmassgen-hook: more\n", 1, Verdict{Decision: "error", Reason: "bad hook input: x", Exit: 1}},
		{"", "", 2, Verdict{Decision: "error", Reason: "exit 2 with nothing on stderr", Exit: 2}},
		{"junk", "", 0, Verdict{Decision: "error", Reason: "the hook printed something that is not a JSON answer: junk"}},
	}
	for _, tt := range tests {
		if got := SummarizeStdout([]byte(tt.stdout), tt.exit, []byte(tt.stderr)); got != tt.want {
			t.Errorf("%q, %d, %q: got %+v, want %+v", tt.stdout, tt.exit, tt.stderr, got, tt.want)
		}
	}
}

func TestVerdictString(t *testing.T) {
	for v, want := range map[Verdict]string{
		{Decision: "none"}:                         "none",
		{Decision: "deny", Reason: "no"}:           "deny (no)",
		{Decision: "error", Reason: "x", Exit: 1}:  "error, exit 1 (x)",
		{Decision: "error", Exit: 2}:               "error, exit 2",
		{Decision: "context", Reason: "read this"}: "context (read this)",
		{Decision: "allow+rewrite", Reason: "ok"}:  "allow+rewrite (ok)",
	} {
		if got := v.String(); got != want {
			t.Errorf("%+v: %q, want %q", v, got, want)
		}
	}
}

func TestNewRedactsButKeepsTheSession(t *testing.T) {
	raw := `{"hook_event_name":"PreToolUse","session_id":"6b1c2f3e-1234","tool_name":"Bash",` +
		`"tool_input":{"command":"curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwx' https://x","api_key":"k-123"}}`
	at := time.Date(2026, 11, 20, 10, 0, 0, 5, time.FixedZone("CET", 3600))
	r := New(at, []byte(raw), "reviewer", Verdict{Decision: "none"})
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, secret := range []string{"abcdefghijklmnopqrstuvwx", "k-123"} {
		if strings.Contains(s, secret) {
			t.Errorf("%q was recorded:\n%s", secret, s)
		}
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.RecordedAt != "2026-11-20T10:00:00.000000005+01:00" || back.Agent != "reviewer" || back.EventName() != "PreToolUse" || back.Tool() != "Bash" {
		t.Errorf("read back %+v", back)
	}
	if got, _ := back.Time(); !got.Equal(at) {
		t.Errorf("time %v, want %v", got, at)
	}
	var ev map[string]any
	if err := json.Unmarshal(back.Event, &ev); err != nil || ev["session_id"] != "6b1c2f3e-1234" {
		t.Errorf("session_id not kept: %v %v", ev, err)
	}
}

func TestParseRejects(t *testing.T) {
	for text, want := range map[string]string{
		`[1]`:                                                "not a recording: json: cannot unmarshal",
		`{"recorded_at":"2026`:                               "not a recording: unexpected end of JSON input",
		`{"version":1,"results":[]}`:                         "not a recording: no recorded_at",
		`{"recorded_at":"yesterday","event":{}}`:             `not a recording: recorded_at "yesterday" is not an RFC 3339 time`,
		`{"recorded_at":"2026-11-20T10:00:00Z"}`:             "not a recording: event is not a JSON object",
		`{"recorded_at":"2026-11-20T10:00:00Z","event":"x"}`: "not a recording: event is not a JSON object",
		`{"recorded_at":"2026-11-20T10:00:00Z","event":{}}`:  "not a recording: the event has no hook_event_name",
	} {
		_, err := Parse([]byte(text))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", text, err, want)
		}
	}
}

func TestFileNamesSortInTimeOrder(t *testing.T) {
	base := time.Date(2026, 11, 20, 9, 59, 59, 999999999, time.FixedZone("X", -5*3600))
	var names []string
	for i := range 5 {
		names = append(names, FileName(base.Add(time.Duration(i)*time.Nanosecond*7), "PreToolUse", 99999-i*1000, 0))
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("not in time order: %q", names)
	}
	if got := names[0]; got != "20261120T145959.999999999Z-PreToolUse-99999.json" {
		t.Errorf("name %q", got)
	}
	if got := FileName(base, "../x y", 1, 2); got != "20261120T145959.999999999Z-xy-1-2.json" {
		t.Errorf("unsafe event name gives %q", got)
	}
}

func TestWriteNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	first, err := Write(dir, at, "Stop", []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := Write(dir, at, "Stop", []byte("two"))
	if err != nil {
		t.Fatal(err)
	}
	if first == second {
		t.Fatalf("both written to %s", first)
	}
	if b, _ := os.ReadFile(first); string(b) != "one" {
		t.Errorf("first file holds %q", b)
	}
	info, err := os.Stat(second)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", info.Mode(), err)
	}
	if _, err := Write(filepath.Join(dir, "missing"), at, "Stop", nil); err == nil {
		t.Error("wrote into a folder that does not exist")
	}
}

func TestCompare(t *testing.T) {
	prev := []Result{
		{File: "a.json", Verdict: Verdict{Decision: "none"}},
		{File: "b.json", Verdict: Verdict{Decision: "deny", Reason: "old"}},
		{File: "c.json", Verdict: Verdict{Decision: "deny", Reason: "old"}},
		{File: "d.json", Verdict: Verdict{Decision: "error", Exit: 1}},
		{File: "e.json", Verdict: Verdict{Decision: "block"}},
	}
	cur := []Result{
		{File: "a.json", Verdict: Verdict{Decision: "deny", Reason: "no rm"}},
		{File: "b.json", Verdict: Verdict{Decision: "deny", Reason: "old"}},
		{File: "c.json", Verdict: Verdict{Decision: "deny", Reason: "new"}},
		{File: "d.json", Verdict: Verdict{Decision: "error", Exit: 2}},
		{File: "f.json", Verdict: Verdict{Decision: "none"}},
	}
	d := Compare(prev, cur)
	if d.Compared != 4 || d.Changed != 2 || d.Reasons != 1 || d.New != 1 || d.Missing != 1 {
		t.Errorf("counts %+v", d)
	}
	var lines []string
	for _, c := range d.Changes {
		lines = append(lines, c.String())
	}
	want := []string{
		"a.json: was none → now deny (no rm)",
		"c.json: same decision, new reason: was deny (old) → now deny (new)",
		"d.json: was error, exit 1 → now error, exit 2",
		"e.json: missing: was block",
		"f.json: new: none",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if s := d.Summary(); s != "4 compared: 2 changed, 1 with a new reason, 1 new, 1 missing" {
		t.Errorf("summary %q", s)
	}
	if s := Compare(prev, prev).Summary(); !strings.HasSuffix(s, "; no decision changed") {
		t.Errorf("summary %q", s)
	}
}

func TestResultsRoundTrip(t *testing.T) {
	rs := &Results{Version: ResultsVersion, Results: []Result{{File: "a.json", Event: "PreToolUse", Tool: "Bash", Agent: "r", Verdict: Verdict{Decision: "deny", Reason: "<no> & rm", Exit: 0}}}}
	data, err := rs.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"reason": "<no> & rm"`) {
		t.Errorf("HTML-escaped or reshaped:\n%s", data)
	}
	back, err := ReadResults(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rs) {
		t.Errorf("read back %+v, want %+v", back, rs)
	}
	for text, want := range map[string]string{
		`{}`:                         "not the output of replay --format json: no version or results",
		`{"version":1}`:              "not the output of replay --format json: no version or results",
		`{"version":2,"results":[]}`: "results version 2; this massgen-hook reads version 1",
		`nope`:                       "not the output of replay --format json: invalid character",
	} {
		if _, err := ReadResults([]byte(text)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", text, err, want)
		}
	}
}
