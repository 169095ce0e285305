package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/tidwall/gjson"
)

// Event is one hook input. Only the fields massgen-hook reads are decoded;
// everything else stays in Raw, reachable with Get. Every field but the event
// name may be missing (2025-era events lack permission_mode, tool_use_id and
// agent_id), so a missing field is simply its zero value.
type Event struct {
	HookEventName  string
	SessionID      string
	TranscriptPath string
	Cwd            string
	PermissionMode string
	// AgentID is set only inside a Claude Code subagent: the subagent's
	// id. A MassGen HookEvent's agent_id names a MassGen agent instead, and
	// goes to MassGenAgent.
	AgentID string
	// MassGenAgent and Orchestrator are a MassGen HookEvent's agent_id and
	// orchestrator_id. An event is MassGen's when it has orchestrator_id
	// or hook_type, keys no agent CLI sends.
	MassGenAgent string
	Orchestrator string
	// FromMassGen marks a MassGen HookEvent.
	FromMassGen bool
	// FromMCP marks a call of an MCP server's tool whose name does not
	// say so (Cursor's beforeMCPExecution gives the bare name): its
	// dialect sets the event's MCPField.
	FromMCP bool
	// AgentType is the subagent's type. Real Claude Code sends "" on
	// SubagentStop; HasAgentType tells "" apart from a missing field.
	AgentType    string
	HasAgentType bool
	// Source is SessionStart's startup, resume, clear, compact or fork.
	Source string
	// StopHookActive is true when the agent is already continuing because a
	// stop hook blocked it.
	StopHookActive bool
	// BackgroundTasks counts Stop's in-flight background tasks.
	BackgroundTasks int
	ToolName        string
	ToolUseID       string
	// TurnID is Codex CLI's turn id, a field Claude Code does not send:
	// it tells a Codex event from Claude Code's.
	TurnID string
	// ToolInput and ToolResponse are the raw JSON values, sub-slices of
	// Raw, except that a ToolInput that repeats a key is re-encoded with
	// each key's last value (see LastWins).
	ToolInput    json.RawMessage
	ToolResponse json.RawMessage
	// Error is PostToolUseFailure's error message (its JSON text when it is
	// not a string).
	Error    string
	hookType string
	// Raw is the whole event as read, without a leading UTF-8 byte order
	// mark; an event that repeats a top-level key is re-encoded with each
	// key's last value, so Get reads what the fields hold.
	Raw []byte
}

// Get returns any field of the raw event by gjson path, for fields Event does
// not decode.
func (e *Event) Get(path string) gjson.Result { return View(e.Raw).Get(path) }

// MaxEventDepth is how deeply an event may nest: one level less than
// MaxDepth, because a command handler is given the event inside an object
// of its own (engine's HookEvent), which must stay within encoding/json's
// limit, and within the handler's parser's.
const MaxEventDepth = MaxDepth - 1

// InputError says why an event on stdin cannot be used. Field names the
// offending field when there is one. TooDeep marks an event nested past
// MaxEventDepth: valid JSON that an agent can write on purpose into a tool call's
// input, unlike the other faults (not JSON, empty), which are the CLI's.
type InputError struct {
	Field   string
	Msg     string
	TooDeep bool
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return "bad hook input: " + e.Msg
	}
	return fmt.Sprintf("bad hook input: field %q %s", e.Field, e.Msg)
}

// kind is the JSON type a known field must have (null always counts as missing).
type kind int

const (
	kString kind = iota
	kBool
	kObject
	kArray
	kNumber
	kAny
)

func (k kind) String() string {
	return [...]string{"a string", "a boolean", "an object", "an array", "a number", "any value"}[k]
}

// fieldKind is the type a field Event decodes must have, and whether
// Event decodes it at all. A field Claude Code may add tomorrow is not
// here, and so is never an error. A switch rather than a map: a hook reads
// a handful of fields once, and building a map would cost more than that.
func fieldKind(key string) (kind, bool) {
	switch key {
	case "hook_event_name", "session_id", "transcript_path", "cwd", "permission_mode",
		"agent_id", "agent_type", "source", "tool_name", "tool_use_id", "turn_id",
		"orchestrator_id", "hook_type":
		return kString, true
	case "stop_hook_active", MCPField:
		return kBool, true
	case "background_tasks":
		return kArray, true
	case "tool_input", "tool_response", "error":
		// tool_input is an object from a sane client; anything else reaches
		// the malformed_tool_call check, which tells the agent what to fix,
		// rather than failing the hook.
		return kAny, true
	}
	return 0, false
}

// MCPField is the field a dialect sets on a call of an MCP server's tool
// whose name does not say so (FromMCP). Set by anyone else it only makes
// the guards look at more.
const MCPField = "massgen_hook_mcp"

var bom = []byte{0xEF, 0xBB, 0xBF}

// jsonSpace is what JSON allows around a value.
const jsonSpace = " \t\r\n"

// ReadEvent reads all of r (multi-megabyte tool responses are normal) and
// decodes one hook event. want is the event the caller handles: a missing
// hook_event_name is taken to be want (people pipe `{}` by hand, and the
// scratchpad design's own examples do), a different one is an InputError.
// Pass want "" to accept any event.
func ReadEvent(r io.Reader, want string) (*Event, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading hook input from stdin: %w", err)
	}
	return ParseEvent(raw, want)
}

// ParseEvent is ReadEvent for an event already in memory. The Event keeps
// references into raw.
func ParseEvent(raw []byte, want string) (*Event, error) {
	raw = bytes.TrimPrefix(raw, bom)
	// JSON's whitespace only: bytes.TrimSpace would also take \v, \f and
	// U+0085 off an event whose Raw, kept whole, is then not JSON.
	body := bytes.Trim(raw, jsonSpace)
	switch {
	case len(body) == 0:
		return nil, &InputError{Msg: "stdin is empty; expected one JSON object"}
	case body[0] != '{':
		return nil, &InputError{Msg: fmt.Sprintf("expected one JSON object, got %s", describeStart(body))}
	case nestsDeeper(bytesString(body), MaxEventDepth):
		return nil, &InputError{Msg: fmt.Sprintf("stdin nests arrays or objects more than %d levels deep", MaxEventDepth), TooDeep: true}
	case !gjson.ValidBytes(body):
		return nil, &InputError{Msg: "stdin is not valid JSON"}
	}
	if fixed, changed := loneSurrogatesFixed(body); changed {
		// Read as the agent runs it (see loneSurrogatesFixed); handlers
		// get the event so written too.
		raw, body = fixed, fixed
	}
	ev, repeated, err := decodeFields(raw, body)
	if err == nil && repeated {
		// A key given twice at the top: read the event as the agent's
		// runtime does (see LastWins), every field from the same text.
		body = LastWins(body)
		ev, _, err = decodeFields(body, body)
	}
	if err != nil {
		return nil, err
	}
	// The agent writes tool_input; a key it repeats must mean for the
	// checks what it means for the tool.
	if ev.ToolInput != nil {
		if fixed := LastWins(ev.ToolInput); !bytes.Equal(fixed, ev.ToolInput) {
			// So must it for a command handler, which reads the whole event
			// too, and for Get: Raw is read the same way.
			ev.ToolInput, ev.Raw = fixed, LastWins(ev.Raw)
		}
	}
	if ev.FromMassGen {
		// MassGen's agent is no subagent: its id must not make the event
		// a subagent's (see MassGenAgent).
		ev.MassGenAgent, ev.AgentID = ev.AgentID, ""
		if ev.HookEventName == "" {
			ev.HookEventName = ev.hookType
		}
	}
	if ev.HookEventName == "" {
		ev.HookEventName = want
	}
	if want != "" && ev.HookEventName != want {
		return nil, &InputError{Field: "hook_event_name",
			Msg: fmt.Sprintf("is %q, but this hook handles %s events", ev.HookEventName, want)}
	}
	if ev.HookEventName == "" {
		return nil, &InputError{Field: "hook_event_name", Msg: "is missing"}
	}
	return ev, nil
}

// decodeFields decodes the top-level fields of body, the event raw without
// its surrounding white space, and reports whether a key came twice.
func decodeFields(raw, body []byte) (ev *Event, repeated bool, err error) {
	ev = &Event{Raw: raw}
	var keys keySet
	View(body).ForEach(func(key, value gjson.Result) bool {
		repeated = !keys.add(key.Str) || repeated
		err = ev.set(key.Str, value, body)
		return err == nil
	})
	return ev, repeated, err
}

// set decodes one top-level field into ev after checking its type.
func (ev *Event) set(key string, v gjson.Result, body []byte) error {
	if key == "orchestrator_id" || key == "hook_type" {
		ev.FromMassGen = true
	}
	want, known := fieldKind(key)
	if !known || v.Type == gjson.Null {
		return nil
	}
	if got := kindOf(v); want != kAny && got != want {
		return &InputError{Field: key, Msg: fmt.Sprintf("must be %s, got %s", want, got)}
	}
	switch key {
	case "hook_event_name":
		ev.HookEventName = v.Str
	case "session_id":
		ev.SessionID = v.Str
	case "transcript_path":
		ev.TranscriptPath = v.Str
	case "cwd":
		ev.Cwd = v.Str
	case "permission_mode":
		ev.PermissionMode = v.Str
	case "agent_id":
		ev.AgentID = v.Str
	case "agent_type":
		ev.AgentType, ev.HasAgentType = v.Str, true
	case "source":
		ev.Source = v.Str
	case "stop_hook_active":
		ev.StopHookActive = v.Bool()
	case MCPField:
		ev.FromMCP = v.Bool()
	case "background_tasks":
		ev.BackgroundTasks = len(v.Array())
	case "tool_name":
		ev.ToolName = v.Str
	case "tool_use_id":
		ev.ToolUseID = v.Str
	case "turn_id":
		ev.TurnID = v.Str
	case "orchestrator_id":
		ev.Orchestrator = v.Str
	case "hook_type":
		ev.hookType = v.Str
	case "tool_input":
		ev.ToolInput = rawOf(v, body)
	case "tool_response":
		ev.ToolResponse = rawOf(v, body)
	case "error":
		ev.Error = v.String()
	}
	return nil
}

// rawOf returns v's JSON text as a sub-slice of body, without copying.
func rawOf(v gjson.Result, body []byte) json.RawMessage {
	if v.Index > 0 && v.Index+len(v.Raw) <= len(body) {
		return json.RawMessage(body[v.Index : v.Index+len(v.Raw)])
	}
	return json.RawMessage(v.Raw)
}

func kindOf(v gjson.Result) kind {
	switch {
	case v.Type == gjson.String:
		return kString
	case v.Type == gjson.True || v.Type == gjson.False:
		return kBool
	case v.IsObject():
		return kObject
	case v.IsArray():
		return kArray
	}
	return kNumber
}

// describeStart names what stdin holds instead of an object, for the error.
func describeStart(body []byte) string {
	switch body[0] {
	case '[':
		return "a JSON array"
	case '"':
		return "a JSON string"
	}
	if ValidBytes(body) {
		return "a JSON " + gjson.ParseBytes(body).Type.String()
	}
	n := min(len(body), 20)
	return fmt.Sprintf("text that is not JSON (starts %q)", body[:n])
}
