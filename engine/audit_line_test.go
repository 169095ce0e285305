package engine

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestAuditLineIsMarshals: AuditLine writes what json.Marshal writes from
// the field tags, field by field: empty and set, escapes, HTML characters,
// invalid UTF-8, a spaced-out input, hooks with every field.
func TestAuditLineIsMarshals(t *testing.T) {
	full := HookRecord{Name: "n<1>", Type: "builtin", Scope: "default", Decision: Deny, Reason: "why & \"how\"\n",
		DurationMS: 0.0421, Error: "bad \xff", Injection: "\u2028x", Rewrote: true, Notes: []string{"a", "", "<b>"}}
	for _, rec := range []AuditRecord{
		{},
		{Time: "2026-11-20T10:00:00Z", Event: "PreToolUse", Tool: "Bash", Decision: "none"},
		{Time: "t", Event: "e", Session: "s1", Agent: "a/b", Tool: "Write", ToolUseID: "toolu_1",
			Input:    json.RawMessage("{ \"command\" :\n \"ls <a> && echo \\u2028\" ,\"n\": [1, 2.50, {}] }"),
			Decision: Deny, Reason: "⚠️ BLOCKED: no", Hooks: []HookRecord{full, {Name: "quiet", DurationMS: 1e-9}, {DurationMS: 2e21}}},
		{Time: "t", InputBytes: 1 << 20, Hooks: []HookRecord{}},
		{Input: json.RawMessage(`"[unparseable input redacted]"`), Hooks: []HookRecord{{Notes: []string{}}}},
	} {
		checkAuditLine(t, rec)
	}
}

func FuzzAuditLine(f *testing.F) {
	f.Add("PreToolUse", "s", "Bash", `{"command":"ls"}`, "reason", "note", 1.5, 3, true)
	f.Add("", "", "", ``, "", "", 0.0, 0, false)
	f.Add("<&>", "\xff", "\u2029", ` [ 1 , "a" ] `, "\x00\x1f", "\\", 1e-7, -1, true)
	f.Fuzz(func(t *testing.T, event, session, tool, input, reason, note string, ms float64, n int, flag bool) {
		if math.IsNaN(ms) || math.IsInf(ms, 0) || !json.Valid([]byte(input)) && input != "" {
			return
		}
		rec := AuditRecord{Time: event, Event: event, Session: session, Agent: note, Tool: tool, ToolUseID: reason,
			Input: json.RawMessage(input), InputBytes: n, Decision: reason, Reason: reason}
		if flag {
			rec.Hooks = []HookRecord{{Name: tool, Type: note, Scope: session, Decision: reason, Reason: note,
				DurationMS: ms, Error: reason, Injection: note, Rewrote: flag, Notes: []string{note, reason}}, {}}
		}
		checkAuditLine(t, rec)
	})
}

// plainRecord is AuditRecord without its methods: json.Marshal's reading.
type plainRecord AuditRecord

func checkAuditLine(t *testing.T, rec AuditRecord) {
	t.Helper()
	want, err := json.Marshal(plainRecord(rec))
	if err != nil {
		t.Fatal(err)
	}
	got, err := rec.AuditLine()
	if err != nil || string(got) != string(want) {
		t.Errorf("AuditLine:\n%s (%v)\nwant\n%s", got, err, want)
	}
}

// TestAuditLineRefuses what Marshal refuses: an input that is not JSON, a
// duration that is not a number.
func TestAuditLineRefuses(t *testing.T) {
	for _, rec := range []AuditRecord{
		{Input: json.RawMessage(`{"a":`)},
		{Hooks: []HookRecord{{DurationMS: math.NaN()}}},
		{Hooks: []HookRecord{{DurationMS: math.Inf(1)}}},
	} {
		if _, err := json.Marshal(plainRecord(rec)); err == nil {
			t.Fatalf("Marshal took %+v", rec)
		}
		if line, err := rec.AuditLine(); err == nil {
			t.Errorf("AuditLine took %+v: %s", rec, line)
		} else if !strings.HasPrefix(err.Error(), "json: ") {
			t.Errorf("error %q: want it to say it is JSON's", err)
		}
	}
}
