package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/massgen/massgen-hook/internal/testrace"
)

// inputErr asserts err is an *InputError with the given Field and a message
// containing each of msgParts.
func inputErr(t *testing.T, err error, field string, msgParts ...string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error = %v (%T), want *InputError", err, err)
	}
	if ie.Field != field {
		t.Errorf("InputError.Field = %q, want %q (err: %v)", ie.Field, field, err)
	}
	for _, p := range msgParts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err.Error(), p)
		}
	}
}

func TestParseEventRejectsNonObjects(t *testing.T) {
	tests := []struct {
		name  string
		input string
		msg   string
	}{
		{"empty", "", "stdin is empty"},
		{"whitespace only", " \t\r\n\n ", "stdin is empty"},
		{"BOM only", "\uFEFF", "stdin is empty"},
		{"BOM and whitespace", "\uFEFF \n", "stdin is empty"},
		{"plain text", "hello world", `text that is not JSON (starts "hello world")`},
		{"long text is clipped", strings.Repeat("z", 100), `(starts "` + strings.Repeat("z", 20) + `")`},
		{"array", `[{"hook_event_name":"Stop"}]`, "got a JSON array"},
		{"empty array", `[]`, "got a JSON array"},
		{"string", `"Stop"`, "got a JSON string"},
		{"number", `42`, "got a JSON Number"},
		{"true", `true`, "got a JSON True"},
		{"null", `null`, "got a JSON Null"},
		{"truncated object", `{"hook_event_name":"Stop","session_id":"ab`, "not valid JSON"},
		{"unclosed object", `{"hook_event_name":"Stop"`, "not valid JSON"},
		{"trailing comma", `{"hook_event_name":"Stop",}`, "not valid JSON"},
		{"two objects", `{"hook_event_name":"Stop"} {"hook_event_name":"Stop"}`, "not valid JSON"},
		{"trailing garbage", `{"hook_event_name":"Stop"}x`, "not valid JSON"},
		{"single quotes", `{'hook_event_name':'Stop'}`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ParseEvent([]byte(tt.input), Stop)
			if ev != nil {
				t.Errorf("got event %+v, want nil", ev)
			}
			inputErr(t, err, "", tt.msg)
			if !strings.HasPrefix(err.Error(), "bad hook input: ") {
				t.Errorf("error %q lacks the bad hook input prefix", err)
			}
		})
	}
}

func TestParseEventWrongTypes(t *testing.T) {
	tests := []struct {
		name, input, field, msg string
	}{
		{"agent_type number", `{"agent_type":5}`, "agent_type", "must be a string, got a number"},
		{"agent_type bool", `{"agent_type":true}`, "agent_type", "must be a string, got a boolean"},
		{"stop_hook_active string", `{"stop_hook_active":"yes"}`, "stop_hook_active", "must be a boolean, got a string"},
		{"stop_hook_active number", `{"stop_hook_active":1}`, "stop_hook_active", "must be a boolean, got a number"},
		{"background_tasks object", `{"background_tasks":{}}`, "background_tasks", "must be an array, got an object"},
		{"background_tasks number", `{"background_tasks":3}`, "background_tasks", "must be an array, got a number"},
		{"hook_event_name number", `{"hook_event_name":1}`, "hook_event_name", "must be a string, got a number"},
		{"hook_event_name object", `{"hook_event_name":{}}`, "hook_event_name", "must be a string, got an object"},
		{"session_id array", `{"session_id":[]}`, "session_id", "must be a string, got an array"},
		{"transcript_path bool", `{"transcript_path":false}`, "transcript_path", "must be a string"},
		{"cwd number", `{"cwd":0}`, "cwd", "must be a string"},
		{"permission_mode object", `{"permission_mode":{}}`, "permission_mode", "must be a string"},
		{"agent_id number", `{"agent_id":1.5}`, "agent_id", "must be a string"},
		{"source number", `{"source":1}`, "source", "must be a string"},
		{"tool_name bool", `{"tool_name":true}`, "tool_name", "must be a string"},
		{"tool_use_id array", `{"tool_use_id":["a"]}`, "tool_use_id", "must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ParseEvent([]byte(tt.input), Stop)
			if ev != nil {
				t.Errorf("got event %+v, want nil", ev)
			}
			inputErr(t, err, tt.field, `field "`+tt.field+`"`, tt.msg)
		})
	}
}

// A tool_input that is not an object is read as it is, for the
// malformed_tool_call check to deny with guidance.
func TestParseEventToolInputAnyType(t *testing.T) {
	for _, in := range []string{`"x"`, `[1]`, `5`, `{"command":"ls"}`} {
		ev, err := ParseEvent([]byte(`{"hook_event_name":"PreToolUse","tool_input":`+in+`}`), PreToolUse)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if string(ev.ToolInput) != in {
			t.Errorf("ToolInput = %s, want %s", ev.ToolInput, in)
		}
	}
}

func TestParseEventError(t *testing.T) {
	for in, want := range map[string]string{`"Exit code 1"`: "Exit code 1", `{"code":2}`: `{"code":2}`} {
		ev, err := ParseEvent([]byte(`{"hook_event_name":"PostToolUseFailure","error":`+in+`}`), PostToolUseFailure)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Error != want {
			t.Errorf("Error = %q, want %q", ev.Error, want)
		}
	}
}

func TestParseEventToolResponseAnyType(t *testing.T) {
	for _, resp := range []string{`{"a":1}`, `[1,2]`, `"text"`, `12.5`, `true`, `false`} {
		t.Run(resp, func(t *testing.T) {
			ev, err := ParseEvent([]byte(`{"hook_event_name":"PostToolUse","tool_response":`+resp+`}`), PostToolUse)
			if err != nil {
				t.Fatal(err)
			}
			if string(ev.ToolResponse) != resp {
				t.Errorf("ToolResponse = %s, want %s", ev.ToolResponse, resp)
			}
		})
	}
}

func TestParseEventNullsAreMissing(t *testing.T) {
	input := `{"hook_event_name":null,"session_id":null,"transcript_path":null,"cwd":null,
		"permission_mode":null,"agent_id":null,"agent_type":null,"source":null,
		"stop_hook_active":null,"background_tasks":null,"tool_name":null,"tool_use_id":null,
		"tool_input":null,"tool_response":null}`
	ev, err := ParseEvent([]byte(input), SubagentStop)
	if err != nil {
		t.Fatal(err)
	}
	want := Event{HookEventName: SubagentStop}
	got := *ev
	got.Raw = nil
	if !eventEqual(got, want) {
		t.Errorf("got %+v, want only HookEventName set", got)
	}
	if ev.HasAgentType {
		t.Error("HasAgentType is true for agent_type: null")
	}
	if ev.ToolInput != nil || ev.ToolResponse != nil {
		t.Errorf("ToolInput=%q ToolResponse=%q, want nil", ev.ToolInput, ev.ToolResponse)
	}
}

func eventEqual(a, b Event) bool {
	return a.HookEventName == b.HookEventName && a.SessionID == b.SessionID &&
		a.TranscriptPath == b.TranscriptPath && a.Cwd == b.Cwd && a.PermissionMode == b.PermissionMode &&
		a.AgentID == b.AgentID && a.AgentType == b.AgentType && a.HasAgentType == b.HasAgentType &&
		a.Source == b.Source && a.StopHookActive == b.StopHookActive && a.BackgroundTasks == b.BackgroundTasks &&
		a.ToolName == b.ToolName && a.ToolUseID == b.ToolUseID &&
		bytes.Equal(a.ToolInput, b.ToolInput) && bytes.Equal(a.ToolResponse, b.ToolResponse)
}

func TestParseEventAllFields(t *testing.T) {
	input := `{
  "hook_event_name": "PreToolUse",
  "session_id": "sess-1",
  "transcript_path": "/tmp/t.jsonl",
  "cwd": "/work",
  "permission_mode": "default",
  "agent_id": "agent-7",
  "agent_type": "plugin:reviewer",
  "source": "startup",
  "stop_hook_active": true,
  "background_tasks": [{"id":1},{"id":2},{"id":3}],
  "tool_name": "Bash",
  "tool_use_id": "toolu_1",
  "tool_input": {"command": "ls", "nested": {"a": [1, 2]}},
  "tool_response": ["x", "y"],
  "future_field": {"ignored": true},
  "another": 12
}`
	ev, err := ParseEvent([]byte(input), PreToolUse)
	if err != nil {
		t.Fatal(err)
	}
	want := Event{
		HookEventName: PreToolUse, SessionID: "sess-1", TranscriptPath: "/tmp/t.jsonl", Cwd: "/work",
		PermissionMode: "default", AgentID: "agent-7", AgentType: "plugin:reviewer", HasAgentType: true,
		Source: "startup", StopHookActive: true, BackgroundTasks: 3, ToolName: "Bash", ToolUseID: "toolu_1",
		ToolInput:    []byte(`{"command": "ls", "nested": {"a": [1, 2]}}`),
		ToolResponse: []byte(`["x", "y"]`),
	}
	if !eventEqual(*ev, want) {
		t.Errorf("got  %+v\nwant %+v", *ev, want)
	}
	if string(ev.Raw) != input {
		t.Error("Raw is not the input")
	}
	if got := ev.Get("future_field.ignored").Bool(); !got {
		t.Error("Get(future_field.ignored) = false, want true")
	}
	if got := ev.Get("another").Int(); got != 12 {
		t.Errorf("Get(another) = %d, want 12", got)
	}
}

func TestParseEventEscapes(t *testing.T) {
	// Escaped keys and values are decoded; raw values keep their escapes.
	input := `{"hook_event_name":"Sto\u0070","session_id":"a\"b\\c\n","tool_input":{"s":"\u00e9"}}`
	ev, err := ParseEvent([]byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.HookEventName != Stop {
		t.Errorf("HookEventName = %q", ev.HookEventName)
	}
	if ev.SessionID != "a\"b\\c\n" {
		t.Errorf("SessionID = %q", ev.SessionID)
	}
	if string(ev.ToolInput) != `{"s":"\u00e9"}` {
		t.Errorf("ToolInput = %s", ev.ToolInput)
	}
}

func TestParseEventEventName(t *testing.T) {
	tests := []struct {
		name, input, want string
		wantName          string
		errField          string
		errMsg            string
	}{
		{"missing takes want", `{}`, Stop, Stop, "", ""},
		{"empty string takes want", `{"hook_event_name":""}`, SubagentStop, SubagentStop, "", ""},
		{"null takes want", `{"hook_event_name":null}`, Stop, Stop, "", ""},
		{"matching", `{"hook_event_name":"Stop"}`, Stop, Stop, "", ""},
		{"want empty accepts any", `{"hook_event_name":"Notification"}`, "", Notification, "", ""},
		{"want empty accepts unknown event", `{"hook_event_name":"FutureEvent"}`, "", "FutureEvent", "", ""},
		{"mismatch", `{"hook_event_name":"PreToolUse"}`, Stop, "", "hook_event_name", `is "PreToolUse", but this hook handles Stop events`},
		{"case matters", `{"hook_event_name":"stop"}`, Stop, "", "hook_event_name", `is "stop"`},
		{"want empty and missing", `{}`, "", "", "hook_event_name", "is missing"},
		{"want empty and empty", `{"hook_event_name":""}`, "", "", "hook_event_name", "is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ParseEvent([]byte(tt.input), tt.want)
			if tt.errField != "" {
				if ev != nil {
					t.Errorf("got event %+v with error", ev)
				}
				inputErr(t, err, tt.errField, tt.errMsg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.HookEventName != tt.wantName {
				t.Errorf("HookEventName = %q, want %q", ev.HookEventName, tt.wantName)
			}
		})
	}
}

func TestParseEventAgentType(t *testing.T) {
	tests := []struct {
		input    string
		agent    string
		hasAgent bool
	}{
		{`{}`, "", false},
		{`{"agent_type":null}`, "", false},
		{`{"agent_type":""}`, "", true},
		{`{"agent_type":"Explore"}`, "Explore", true},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			ev, err := ParseEvent([]byte(tt.input), SubagentStop)
			if err != nil {
				t.Fatal(err)
			}
			if ev.AgentType != tt.agent || ev.HasAgentType != tt.hasAgent {
				t.Errorf("AgentType=%q HasAgentType=%v, want %q %v", ev.AgentType, ev.HasAgentType, tt.agent, tt.hasAgent)
			}
		})
	}
}

func TestParseEventBackgroundTasks(t *testing.T) {
	tests := []struct {
		input string
		want  int
	}{
		{`{}`, 0},
		{`{"background_tasks":null}`, 0},
		{`{"background_tasks":[]}`, 0},
		{`{"background_tasks":[{}]}`, 1},
		{`{"background_tasks":[1,"two",null,[],{}]}`, 5},
		{`{"background_tasks":[{"id":"a","nested":[1,2,3]},{"id":"b"}]}`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			ev, err := ParseEvent([]byte(tt.input), Stop)
			if err != nil {
				t.Fatal(err)
			}
			if ev.BackgroundTasks != tt.want {
				t.Errorf("BackgroundTasks = %d, want %d", ev.BackgroundTasks, tt.want)
			}
		})
	}
}

func TestParseEventStopHookActive(t *testing.T) {
	for input, want := range map[string]bool{
		`{}`:                         false,
		`{"stop_hook_active":false}`: false,
		`{"stop_hook_active":true}`:  true,
		`{"stop_hook_active":null}`:  false,
	} {
		ev, err := ParseEvent([]byte(input), Stop)
		if err != nil {
			t.Fatalf("%s: %v", input, err)
		}
		if ev.StopHookActive != want {
			t.Errorf("%s: StopHookActive = %v, want %v", input, ev.StopHookActive, want)
		}
	}
}

func TestParseEventBOM(t *testing.T) {
	body := `{"hook_event_name":"Stop","session_id":"s"}`
	for _, input := range []string{"\uFEFF" + body, "\uFEFF  \n" + body + "\n", "\n\t " + body + " \r\n"} {
		ev, err := ParseEvent([]byte(input), Stop)
		if err != nil {
			t.Fatalf("%q: %v", input, err)
		}
		if ev.SessionID != "s" {
			t.Errorf("%q: SessionID = %q", input, ev.SessionID)
		}
		if bytes.HasPrefix(ev.Raw, bom) {
			t.Errorf("%q: Raw keeps the BOM", input)
		}
	}
	// A BOM anywhere but the very start is not skipped.
	if _, err := ParseEvent([]byte(" \uFEFF"+body), Stop); err == nil {
		t.Error("BOM after whitespace accepted")
	}
}

func TestParseEventRawValuesExact(t *testing.T) {
	tests := []struct {
		name, input, in, resp string
	}{
		{"object with spaces", `{ "tool_input" : { "a" : 1 } , "tool_response" : { "b" : [ 1 , 2 ] } }`,
			`{ "a" : 1 }`, `{ "b" : [ 1 , 2 ] }`},
		{"array response", `{"tool_input":{},"tool_response":[{"type":"text","text":"hi"}]}`,
			`{}`, `[{"type":"text","text":"hi"}]`},
		{"string response", `{"tool_input":{"x":"}"},"tool_response":"line1\nline2 \"q\""}`,
			`{"x":"}"}`, `"line1\nline2 \"q\""`},
		{"newlines inside", "{\n\"tool_input\":{\n\"a\":\n1\n},\n\"tool_response\":\n\"r\"\n}",
			"{\n\"a\":\n1\n}", `"r"`},
		{"response first", `{"tool_response":0,"tool_input":{"k":"v"}}`, `{"k":"v"}`, `0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ParseEvent([]byte("\uFEFF "+tt.input), PostToolUse)
			if err != nil {
				t.Fatal(err)
			}
			if string(ev.ToolInput) != tt.in {
				t.Errorf("ToolInput = %q, want %q", ev.ToolInput, tt.in)
			}
			if string(ev.ToolResponse) != tt.resp {
				t.Errorf("ToolResponse = %q, want %q", ev.ToolResponse, tt.resp)
			}
		})
	}
}

// A 20 MiB tool_response is read whole, with the fields after it.
//
// It starts no goroutine but itself, sharing nothing, and protocol none:
// it skips itself under -race, which made it ten times slower, and make
// test runs it without.
func TestParseEventHugeToolResponse(t *testing.T) {
	t.Parallel()
	testrace.Skip(t)
	const size = 20 << 20
	var b bytes.Buffer
	b.WriteString(`{"hook_event_name":"PostToolUse","tool_input":{"command":"cat big"},"tool_response":{"stdout":"`)
	chunk := strings.Repeat("0123456789abcdef", 1024)
	for b.Len() < size {
		b.WriteString(chunk)
	}
	b.WriteString(`\n\"end\"","exit":0},"tool_use_id":"toolu_after","session_id":"after-session","agent_type":"after-agent"}`)
	input := b.Bytes()
	start := bytes.Index(input, []byte(`{"stdout"`))
	end := bytes.Index(input, []byte(`,"tool_use_id"`))

	ev, err := ReadEvent(bytes.NewReader(input), PostToolUse)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.ToolResponse) != end-start || !bytes.Equal(ev.ToolResponse, input[start:end]) {
		t.Errorf("ToolResponse is %d bytes, want the %d bytes of the input", len(ev.ToolResponse), end-start)
	}
	if ev.ToolUseID != "toolu_after" || ev.SessionID != "after-session" || ev.AgentType != "after-agent" {
		t.Errorf("fields after the big response: tool_use_id=%q session_id=%q agent_type=%q",
			ev.ToolUseID, ev.SessionID, ev.AgentType)
	}
	if string(ev.ToolInput) != `{"command":"cat big"}` {
		t.Errorf("ToolInput = %s", ev.ToolInput)
	}
}

func TestReadEvent(t *testing.T) {
	ev, err := ReadEvent(iotest.OneByteReader(strings.NewReader(`{"hook_event_name":"Stop"}`)), Stop)
	if err != nil || ev.HookEventName != Stop {
		t.Fatalf("ReadEvent = %+v, %v", ev, err)
	}
	boom := errors.New("boom")
	_, err = ReadEvent(iotest.ErrReader(boom), Stop)
	if !errors.Is(err, boom) {
		t.Errorf("ReadEvent on a failing reader = %v, want it to wrap %v", err, boom)
	}
	var ie *InputError
	if errors.As(err, &ie) {
		t.Errorf("a read failure is reported as bad input: %v", err)
	}
}

func TestInputErrorText(t *testing.T) {
	if got := (&InputError{Msg: "m"}).Error(); got != "bad hook input: m" {
		t.Errorf("got %q", got)
	}
	if got := (&InputError{Field: "f", Msg: "is x"}).Error(); got != `bad hook input: field "f" is x` {
		t.Errorf("got %q", got)
	}
}

// A key given twice means its last value, as in the agent's runtime: in
// tool_input at any depth, and at the event's top level (for the decoded
// fields and for Get alike).
func TestParseEventRepeatedKeysLastWins(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"ok.txt","file_path":".env"}}`), PreToolUse)
	if err != nil {
		t.Fatal(err)
	}
	if string(ev.ToolInput) != `{"file_path":".env"}` {
		t.Errorf("ToolInput = %s, want the last file_path", ev.ToolInput)
	}

	raw := `{"hook_event_name":"PostToolUseFailure","tool_name":"Read","is_interrupt":false,"tool_name":"Bash","is_interrupt":true,` +
		`"tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf /","options":{"a":1,"a":2}}}`
	ev, err = ParseEvent([]byte(raw), PostToolUseFailure)
	if err != nil {
		t.Fatal(err)
	}
	if ev.ToolName != "Bash" || !ev.Get("is_interrupt").Bool() || ev.Get("tool_name").String() != "Bash" {
		t.Errorf("tool_name %q, Get(tool_name) %q, Get(is_interrupt) %v: want the last of each",
			ev.ToolName, ev.Get("tool_name").String(), ev.Get("is_interrupt").Bool())
	}
	if string(ev.ToolInput) != `{"command":"rm -rf /","options":{"a":2}}` {
		t.Errorf("ToolInput = %s", ev.ToolInput)
	}
	if ev.Get("tool_input.options.a").Int() != 2 {
		t.Errorf("Get(tool_input.options.a) = %s", ev.Get("tool_input.options.a").Raw)
	}
}

// An event nested past MaxEventDepth is bad input, found in one pass: 100k
// levels of brackets are refused, not validated by recursion. One level
// under encoding/json's limit: a command handler gets the event inside an
// object of its own, which must still encode.
func TestParseEventTooDeep(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	_, err := ParseEvent([]byte(`{"hook_event_name":"PostToolUse","tool_response":`+deep+`}`), PostToolUse)
	var ie *InputError
	if !errors.As(err, &ie) || !ie.TooDeep || err.Error() != "bad hook input: stdin nests arrays or objects more than 9999 levels deep" {
		t.Errorf("err = %v", err)
	}
	atLimit := `{"hook_event_name":"PostToolUse","tool_response":` + nested(MaxEventDepth-1, "1") + `}`
	ev, err := ParseEvent([]byte(atLimit), PostToolUse)
	if err != nil || len(ev.ToolResponse) == 0 {
		t.Fatalf("nested to the limit: %v", err)
	}
	wrapped, err := json.Marshal(map[string]json.RawMessage{"event": ev.Raw})
	if err != nil {
		t.Errorf("an event at the limit does not encode inside a handler's input: %v", err)
	}
	var v any
	if err := json.Unmarshal(wrapped, &v); err != nil {
		t.Errorf("a handler's input at the limit does not decode: %v", err)
	}
	if _, err := ParseEvent([]byte(`{"hook_event_name":"PostToolUse","tool_response":`+nested(MaxEventDepth, "1")+`}`), PostToolUse); !errors.As(err, &ie) || !ie.TooDeep {
		t.Errorf("one level past the limit: err = %v", err)
	}
}

// A key the agent repeats inside tool_input means its last value for the
// checks (ToolInput) and for whatever reads the whole event: Get, and the
// command handlers, which are given Raw. gjson and many parsers take the
// first of a repeated key.
func TestParseEventRawToolInputLastWins(t *testing.T) {
	raw := `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}`
	ev, err := ParseEvent([]byte(raw), PreToolUse)
	if err != nil {
		t.Fatal(err)
	}
	if string(ev.ToolInput) != `{"command":"rm -rf ~"}` {
		t.Errorf("ToolInput = %s", ev.ToolInput)
	}
	if got := ev.Get("tool_input.command").String(); got != "rm -rf ~" {
		t.Errorf("Get(tool_input.command) = %q, want the last value", got)
	}
	if strings.Contains(string(ev.Raw), `"ls"`) {
		t.Errorf("Raw still holds the first value: %s", ev.Raw)
	}
	// Without a repeat, Raw is the input itself.
	plain := `{"hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}`
	if ev, err := ParseEvent([]byte(plain), PreToolUse); err != nil || string(ev.Raw) != plain {
		t.Errorf("plain event: Raw %s, err %v", ev.Raw, err)
	}
}
