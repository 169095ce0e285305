package limits

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/redact"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

func newRetry(t *testing.T, options string) engine.Builtin {
	t.Helper()
	b, err := NewSmartRetry(checktest.OptionsNode(t, options))
	if err != nil {
		t.Fatalf("newSmartRetry(%q): %v", options, err)
	}
	return b
}

// retryStep is one event for the retry check.
type retryStep struct {
	hook   string // PreToolUse, PostToolUse or PostToolUseFailure
	tool   string
	input  string
	output string // PostToolUse's response
	err    string // PostToolUseFailure's error
	agent  string
	// PreToolUse: the failures quoted in the denial, nil to pass.
	denied []string
}

const (
	inA = `{"command":"make test"}`
	inB = `{"command":"make lint"}`
)

func retryPre(tool, input string, denied ...string) retryStep {
	return retryStep{hook: protocol.PreToolUse, tool: tool, input: input, denied: denied}
}

func retryFailed(tool, input, msg string) retryStep {
	return retryStep{hook: protocol.PostToolUseFailure, tool: tool, input: input, err: msg}
}

func retrySucceeded(tool, input string) retryStep {
	return retryStep{hook: protocol.PostToolUse, tool: tool, input: input, output: `{"stdout":"ok","stderr":"","interrupted":false}`}
}

func retryWant(tool string, errs []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "STOP AND THINK: this exact %s call already failed %d times in a row. Running it again unchanged will fail again; change the approach (different input, another tool, or fix the cause first).", tool, len(errs))
	for i, e := range errs {
		fmt.Fprintf(&b, "\nFailure %d: %s", i+1, e)
	}
	return b.String()
}

func runRetry(t *testing.T, g *checktest.GuardEnv, r engine.Builtin, steps []retryStep) {
	t.Helper()
	for i, s := range steps {
		call := g.MakeCall(t, checktest.CallSpec{Hook: s.hook, Tool: s.tool, Input: s.input, Output: s.output, ErrText: s.err, Agent: s.agent})
		v, err := r.Check(context.Background(), call)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if s.hook != protocol.PreToolUse || s.denied == nil {
			if v.Decision != "" || v.Reason != "" {
				t.Errorf("step %d (%s %s %s agent %q): got %+v, want no opinion", i, s.hook, s.tool, s.input, s.agent, v)
			}
			continue
		}
		if want := retryWant(s.tool, s.denied); v.Decision != engine.Deny || v.Reason != want {
			t.Errorf("step %d (%s %s agent %q): got %q %q\nwant deny %q", i, s.tool, s.input, s.agent, v.Decision, v.Reason, want)
		}
	}
}

func TestRetryStreaks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []retryStep
	}{
		{"two failures deny the same call", []retryStep{
			retryPre("Bash", inA),
			retryFailed("Bash", inA, "exit 1: FAIL TestX"),
			retryPre("Bash", inA),
			retryFailed("Bash", inA, "exit 1: FAIL TestY"),
			retryPre("Bash", inA, "exit 1: FAIL TestX", "exit 1: FAIL TestY"),
			retryPre("Bash", inA, "exit 1: FAIL TestX", "exit 1: FAIL TestY"), // and again
			retryPre("Bash", inB),                                             // another call is fine
			retryPre("Read", inA),                                             // the same input to another tool too
			retryPre("Bash", `{}`),                                            // and another input
		}},
		{"a failure of another call starts a new streak", []retryStep{
			retryFailed("Bash", inA, "a1"),
			retryFailed("Bash", inB, "b1"),
			retryFailed("Bash", inA, "a2"),
			retryPre("Bash", inA),
			retryPre("Bash", inB),
			retryFailed("Bash", inA, "a3"),
			retryPre("Bash", inA, "a2", "a3"),
		}},
		{"any success ends the streak", []retryStep{
			retryFailed("Bash", inA, "e1"),
			retryFailed("Bash", inA, "e2"),
			retryPre("Bash", inA, "e1", "e2"),
			retrySucceeded("Read", `{"file_path":"x.go"}`),
			retryPre("Bash", inA),
			retryFailed("Bash", inA, "e3"),
			retryPre("Bash", inA),
			retryFailed("Bash", inA, "e4"),
			retryPre("Bash", inA, "e3", "e4"),
		}},
		{"success of the same call ends it", []retryStep{
			retryFailed("Bash", inA, "e1"),
			retrySucceeded("Bash", inA),
			retryFailed("Bash", inA, "e2"),
			retryPre("Bash", inA),
		}},
		{"only the newest failures are kept", []retryStep{
			retryFailed("Bash", inA, "e1"),
			retryFailed("Bash", inA, "e2"),
			retryFailed("Bash", inA, "e3"),
			retryFailed("Bash", inA, "e4"),
			retryPre("Bash", inA, "e3", "e4"),
		}},
		{"a failure reported in PostToolUse's response counts", []retryStep{
			{hook: protocol.PostToolUse, tool: "mcp__gh__get", input: inA, output: `{"isError":true,"content":[{"type":"text","text":"404"}]}`},
			{hook: protocol.PostToolUse, tool: "mcp__gh__get", input: inA, output: `{"error":"rate limited"}`},
			retryPre("mcp__gh__get", inA, `{"isError":true,"content":[{"type":"text","text":"404"}]}`, "rate limited"),
		}},
		{"agents keep their own streaks", []retryStep{
			{hook: protocol.PostToolUseFailure, tool: "Bash", input: inA, err: "x1", agent: "worker"},
			{hook: protocol.PostToolUseFailure, tool: "Bash", input: inA, err: "x2", agent: "worker"},
			{hook: protocol.PreToolUse, tool: "Bash", input: inA, agent: "worker", denied: []string{"x1", "x2"}},
			retryPre("Bash", inA), // the main thread
			{hook: protocol.PreToolUse, tool: "Bash", input: inA, agent: "other"},
			// The main thread's success does not end the worker's streak.
			retrySucceeded("Bash", inA),
			{hook: protocol.PreToolUse, tool: "Bash", input: inA, agent: "worker", denied: []string{"x1", "x2"}},
			// The worker's own does.
			{hook: protocol.PostToolUse, tool: "Read", input: `{}`, output: `"ok"`, agent: "worker"},
			{hook: protocol.PreToolUse, tool: "Bash", input: inA, agent: "worker"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := checktest.NewGuardEnv(t)
			runRetry(t, g, newRetry(t, ""), tc.steps)
		})
	}
}

// TestRetrySessions: another session starts with no streak.
func TestRetrySessions(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	r := newRetry(t, "")
	for _, msg := range []string{"e1", "e2"} {
		if _, err := r.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUseFailure, Tool: "Bash", Input: inA, ErrText: msg})); err != nil {
			t.Fatal(err)
		}
	}
	v, err := r.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: inA, Session: "s2"}))
	if err != nil || v.Decision != "" {
		t.Fatalf("other session: %+v, %v", v, err)
	}
	v, _ = r.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: inA}))
	if v.Decision != engine.Deny {
		t.Fatalf("same session: %+v", v)
	}
}

func TestRetryMaxFailures(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	runRetry(t, g, newRetry(t, "max_failures: 1"), []retryStep{
		retryPre("Bash", inA),
		retryFailed("Bash", inA, "e1"),
		retryPre("Bash", inA, "e1"),
		retryFailed("Bash", inA, "e2"),
		retryPre("Bash", inA, "e2"),
	})
	g = checktest.NewGuardEnv(t)
	runRetry(t, g, newRetry(t, "max_failures: 3"), []retryStep{
		retryFailed("Bash", inA, "e1"),
		retryFailed("Bash", inA, "e2"),
		retryPre("Bash", inA),
		retryFailed("Bash", inA, "e3"),
		retryPre("Bash", inA, "e1", "e2", "e3"),
	})
}

// TestRetryCanonicalKey: the same arguments written another way are the
// same call; other arguments are not.
func TestRetryCanonicalKey(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	runRetry(t, g, newRetry(t, ""), []retryStep{
		retryFailed("Edit", `{"file_path":"a.go","old_string":"x","new_string":"y"}`, "e1"),
		retryFailed("Edit", `{ "new_string" : "y", "old_string":"x",
			"file_path":"a.go" }`, "e2"),
		retryPre("Edit", `{"old_string":"x","file_path":"a.go","new_string":"y"}`, "e1", "e2"),
		retryPre("Edit", `{"file_path":"a.go","old_string":"x","new_string":"z"}`),
		retryPre("Edit", `{"file_path":"a.go","old_string":"x","new_string":"y","replace_all":true}`),
		retryPre("Write", `{"file_path":"a.go","old_string":"x","new_string":"y"}`),
	})
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`{"a":1,"b":{"c":[1,2],"d":"e"}}`, `{"b":{"d":"e","c":[1,2]},"a":1}`, true},
		{`{"a":1}`, ` {"a": 1} `, true},
		{`{"a":1}`, `{"a":"1"}`, false},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`not json`, `not json`, true},
		{`not json`, `not  json`, false},
	} {
		if got := CallKey("T", json.RawMessage(tc.a)) == CallKey("T", json.RawMessage(tc.b)); got != tc.same {
			t.Errorf("callKey(%s) == callKey(%s): %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
	// The tool is part of the key, kept apart from the input.
	if CallKey("ab", json.RawMessage(`c`)) == CallKey("a", json.RawMessage(`bc`)) {
		t.Error("tool and input run together in the key")
	}
	if CallKey("Bash", json.RawMessage(inA)) == CallKey("Read", json.RawMessage(inA)) {
		t.Error("the tool is not in the key")
	}
}

// TestRetryErrorText: errors are redacted, put on one line and cut.
func TestRetryErrorText(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	secret := "ghp_" + strings.Repeat("a1B2", 10)
	long := strings.Repeat("é", 400) // 800 bytes
	multi := "line one\n\n  line two\ttabbed"
	runRetry(t, g, newRetry(t, ""), []retryStep{
		retryFailed("Bash", inA, "auth failed for token "+secret),
		retryFailed("Bash", inA, multi),
		retryPre("Bash", inA, redact.String("auth failed for token "+secret), "line one line two tabbed"),
		retryFailed("Bash", inA, long),
	})
	call := g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: inA})
	v, err := newRetry(t, "").Check(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if masked := redact.String("auth failed for token " + secret); strings.Contains(masked, secret) || !strings.Contains(masked, redact.Mask) {
		t.Fatalf("the test's secret is not one redact masks: %q", masked)
	}
	last := v.Reason[strings.LastIndex(v.Reason, "Failure 2: ")+len("Failure 2: "):]
	if want := strings.Repeat("é", 150) + "…"; last != want {
		t.Errorf("long error kept as %d bytes %q, want 300 bytes and …", len(last), last)
	}
	var rec retryRecord
	if ok, err := g.State.ReadJSON(state.SessionRecord("s1", "retry-main"), &rec); !ok || err != nil {
		t.Fatalf("record retry-main: %v, %v", ok, err)
	}
	for _, e := range rec.Errors {
		if strings.Contains(e, secret) || len(e) > MaxErrorText+len("…") {
			t.Errorf("stored error %q", e)
		}
	}
	if rec.Tool != "Bash" || rec.Call != CallKey("Bash", json.RawMessage(inA)) {
		t.Errorf("record %+v", rec)
	}
}

func TestOutputError(t *testing.T) {
	for _, tc := range []struct {
		out    string
		msg    string
		failed bool
	}{
		{`{"isError":true,"content":[]}`, `{"isError":true,"content":[]}`, true},
		{`{"is_error":true}`, `{"is_error":true}`, true},
		{`{"success":false,"error":"disk full"}`, "disk full", true},
		{`{"success":false}`, `{"success":false}`, true},
		{`{"error":"boom"}`, "boom", true},
		{`{"isError":true,"error":{"code":5}}`, `{"code":5}`, true},
		{`{"is_error":true,"error":""}`, "", true},
		// Not failures.
		{`{"error":""}`, "", false},
		{`{"error":null}`, "", false},
		{`{"error":{"code":5}}`, "", false},
		{`{"isError":false}`, "", false},
		{`{"isError":"true"}`, "", false},
		{`{"is_error":1}`, "", false},
		{`{"success":true}`, "", false},
		{`{"success":"false"}`, "", false},
		{`{"stdout":"error: x","stderr":"fatal"}`, "", false},
		{`"error: everything failed"`, "", false},
		{`["error"]`, "", false},
		{`null`, "", false},
		{``, "", false},
	} {
		msg, failed := OutputError(gjson.Parse(tc.out))
		if failed != tc.failed || msg != tc.msg {
			t.Errorf("outputError(%s) = %q, %v; want %q, %v", tc.out, msg, failed, tc.msg, tc.failed)
		}
	}
}

// TestRetryQuietOnSuccess: a success with no streak writes no state.
func TestRetryQuietOnSuccess(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	r := newRetry(t, "")
	runRetry(t, g, r, []retryStep{retryPre("Bash", inA), retrySucceeded("Bash", inA), retrySucceeded("Read", inB)})
	if names, err := g.State.SessionRecords("s1"); err != nil || len(names) != 0 {
		t.Errorf("records %q, %v; want none", names, err)
	}
	// A streak ended leaves an empty record.
	runRetry(t, g, r, []retryStep{retryFailed("Bash", inA, "e"), retrySucceeded("Bash", inB)})
	var rec retryRecord
	if ok, err := g.State.ReadJSON(state.SessionRecord("s1", "retry-main"), &rec); !ok || err != nil || rec.Call != "" || len(rec.Errors) != 0 {
		t.Errorf("after the streak ended: %+v (%v, %v)", rec, ok, err)
	}
}

func TestRetryOptionErrors(t *testing.T) {
	for _, tc := range []struct{ options, want string }{
		{`max_failures: 0`, `max_failures: must be 1 or more, got 0`},
		{`max_failures: -2`, `max_failures: must be 1 or more, got -2`},
		{`max_failures: two`, "cannot unmarshal !!str `two` into int"},
		{`max_failure: 2`, `line 1: unknown option "max_failure" (known: max_failures)`},
		{`[2]`, `options must be a mapping`},
	} {
		if _, err := NewSmartRetry(checktest.OptionsNode(t, tc.options)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.options, err, tc.want)
		}
	}
	for _, ok := range []string{"", "~", "max_failures: 1", "max_failures: 10"} {
		if _, err := NewSmartRetry(checktest.OptionsNode(t, ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
