package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/fixtures"
)

// FuzzParseEvent: any stdin is an event or an *InputError, never both and
// never a panic; an accepted event is valid JSON (as encoding/json, which
// the dialects and handlers use, reads it), its raw fields are sub-slices
// that are JSON values themselves, and ReadEvent agrees with ParseEvent.
func FuzzParseEvent(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"hook_event_name":"Stop","stop_hook_active":true,"background_tasks":[{}]}`,
		`{"hook_event_name":"SubagentStop","agent_type":"","agent_id":"a1"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"PostToolUse","tool_response":[{"type":"text","text":"x"}]}`,
		"\uFEFF{\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}",
		`{"agent_type":5}`,
		`[1]`,
		`"s"`,
		``,
	} {
		f.Add([]byte(seed), "")
		f.Add([]byte(seed), Stop)
	}
	for _, ev := range fixtures.Files(f, ".json") {
		f.Add(ev, "")
	}
	f.Fuzz(func(t *testing.T, raw []byte, want string) {
		ev, err := ParseEvent(raw, want)
		again, againErr := ReadEvent(bytes.NewReader(raw), want)
		if !reflect.DeepEqual(ev, again) || (err == nil) != (againErr == nil) || err != nil && err.Error() != againErr.Error() {
			t.Fatalf("ReadEvent disagrees with ParseEvent on %q:\n%+v, %v\n%+v, %v", raw, ev, err, again, againErr)
		}
		if err != nil {
			if ev != nil {
				t.Fatalf("event and error both returned: %v", err)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is %T, not *InputError", err, err)
			}
			return
		}
		if ev.HookEventName == "" {
			t.Fatal("nil error but empty HookEventName")
		}
		if want != "" && ev.HookEventName != want {
			t.Fatalf("HookEventName %q, want %q", ev.HookEventName, want)
		}
		if ev.BackgroundTasks < 0 {
			t.Fatal("negative BackgroundTasks")
		}
		input := bytes.TrimPrefix(raw, bom)
		fixed, _ := loneSurrogatesFixed(bytes.Trim(input, jsonSpace))
		if !bytes.Equal(ev.Raw, input) && !bytes.Equal(ev.Raw, fixed) && !bytes.Equal(ev.Raw, LastWins(fixed)) {
			t.Fatalf("Raw %q is neither the input %q without its BOM nor, for lone surrogates and repeated keys, its fixed and last-wins form", ev.Raw, raw)
		}
		if ev.ToolInput != nil && repeatsKey(string(ev.ToolInput)) {
			t.Fatalf("tool_input %q repeats a key", ev.ToolInput)
		}
		if !json.Valid(ev.Raw) {
			t.Fatalf("accepted %q, which encoding/json says is not valid JSON", ev.Raw)
		}
		for name, field := range map[string]json.RawMessage{"tool_input": ev.ToolInput, "tool_response": ev.ToolResponse} {
			if field != nil && !json.Valid(field) {
				t.Fatalf("%s = %q is not a JSON value (event %q)", name, field, raw)
			}
		}
	})
}

// FuzzWrite: whatever a check puts in an Output, Write either refuses it
// with a *ShapeError and writes nothing, writes nothing for the zero
// Output, or writes exactly one JSON object and a newline, whose strings
// are capped at MaxStringLen UTF-16 units. A hook's stdout is made of this.
func FuzzWrite(f *testing.F) {
	events := []string{PreToolUse, PostToolUse, PostToolUseFailure, Stop, SubagentStop, SubagentStart, SessionStart, "UserPromptSubmit", ""}
	f.Add(uint8(0), "", "", "", "", "deny", "no", []byte(`{"a":1}`), []byte(nil), false, false)
	f.Add(uint8(3), "block", "write the scratchpad", "", "", "", "", []byte(nil), []byte(nil), false, false)
	f.Add(uint8(1), "", "", "warn", "ctx", "", "", []byte(nil), []byte(`{"x":"y"}`), true, true)
	f.Add(uint8(0), "", "", "", "", "ask", strings.Repeat("😀", MaxStringLen), []byte(`[1]`), []byte(nil), false, false)
	f.Add(uint8(6), "", "", strings.Repeat("\xff", MaxStringLen+1), "a\u2028b<>&", "", "", []byte(nil), []byte(`{`), false, true)
	f.Fuzz(func(t *testing.T, ev uint8, decision, reason, system, context, permission, permReason string, updatedInput, updatedOutput []byte, stop, suppress bool) {
		event := events[int(ev)%len(events)]
		o := Output{Decision: decision, Reason: reason, SystemMessage: system, SuppressOutput: suppress}
		if stop {
			no := false
			o.Continue, o.StopReason = &no, reason
		}
		if context != "" || permission != "" || permReason != "" || updatedInput != nil || updatedOutput != nil {
			o.HookSpecificOutput = &HookSpecific{AdditionalContext: context, PermissionDecision: permission,
				PermissionDecisionReason: permReason, UpdatedInput: updatedInput, UpdatedToolOutput: updatedOutput}
		}
		var buf bytes.Buffer
		err := Write(&buf, event, o)
		if err != nil {
			if buf.Len() > 0 {
				t.Fatalf("Write failed (%v) but wrote %q", err, buf.Bytes())
			}
			var se *ShapeError
			if !errors.As(err, &se) && !strings.HasPrefix(err.Error(), "encoding hook output: ") {
				t.Fatalf("Write error %v (%T) is neither a *ShapeError nor an encoding error", err, err)
			}
			return
		}
		if o.IsEmpty() {
			if buf.Len() > 0 {
				t.Fatalf("the zero Output wrote %q", buf.Bytes())
			}
			return
		}
		out := buf.Bytes()
		if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("Write wrote %q: want one line", out)
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		var got Output
		if err := dec.Decode(&got); err != nil || out[0] != '{' {
			t.Fatalf("Write wrote %q: not a JSON object (%v)", out, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Fatalf("Write wrote more than one JSON value: %q", out)
		}
		strs := []string{got.StopReason, got.SystemMessage, got.Reason}
		if h := got.HookSpecificOutput; h != nil {
			if h.HookEventName != event {
				t.Fatalf("hookEventName %q on %s", h.HookEventName, event)
			}
			strs = append(strs, h.PermissionDecisionReason, h.AdditionalContext)
		}
		for _, s := range strs {
			if n := UTF16Len(s); n > MaxStringLen {
				t.Fatalf("a string of %d UTF-16 units went out (cap %d)", n, MaxStringLen)
			}
		}
	})
}

// FuzzTruncate: the cut fits the cap, leaves what fits untouched, keeps
// valid UTF-8 valid, and keeps a prefix of the input.
func FuzzTruncate(f *testing.F) {
	f.Add("hello", 3)
	f.Add(strings.Repeat("😀", 40), 41)
	f.Add(strings.Repeat("é", 100), 60)
	f.Add("\xff\xfe\xfd"+strings.Repeat("a", 80), 70)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 1<<16 {
			t.Skip()
		}
		got := Truncate(s, max)
		if UTF16Len(s) <= max {
			if got != s {
				t.Fatalf("Truncate(%q, %d) changed a string within the cap: %q", s, max, got)
			}
			return
		}
		if n := UTF16Len(got); n > max {
			t.Fatalf("Truncate(%q, %d) = %q, %d units", s, max, got, n)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Truncate(%q, %d) = %q broke UTF-8", s, max, got)
		}
		kept, _, marked := strings.Cut(got, "\n…[truncated by massgen-hook: ")
		if !marked {
			kept = got
		}
		if !strings.HasPrefix(s, kept) {
			t.Fatalf("Truncate(%q, %d) = %q does not keep a prefix", s, max, got)
		}
	})
}

// TestRegressionParseEventRawNotJSON: ParseEvent used to trim the input
// with bytes.TrimSpace, which also strips \v, \f, U+0085 and U+00A0 (JSON's
// whitespace is only space, tab, CR and LF), and kept the untrimmed input
// as Event.Raw. An event wrapped in such a character was accepted with a
// Raw that is not JSON, and every command handler then failed. Found by
// FuzzParseEvent (testdata/fuzz/FuzzParseEvent/e7edd91b5dca0a33).
func TestRegressionParseEventRawNotJSON(t *testing.T) {
	const ev = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	for _, raw := range []string{ev + "\v", "\f" + ev, ev + "\u0085", "\u00a0" + ev} {
		got, err := ParseEvent([]byte(raw), PreToolUse)
		if err == nil && !json.Valid(got.Raw) {
			t.Errorf("ParseEvent(%q) accepted the event, but its Raw %q is not JSON", raw, got.Raw)
		}
	}
}
