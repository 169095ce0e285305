package engine

import (
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// Client is what the agent CLI does with an answer, where the rules'
// answers depend on it.
type Client struct {
	// PlainContext: the CLI shows additionalContext to the model as a
	// message of its own, labelled as hook context, with markup escaped
	// (Claude Code: "PostToolUse:Bash hook additional context: …", "<" as
	// "&lt;"). A <system-reminder> frame would arrive as
	// "&lt;system-reminder>", so user_message injections go as plain text.
	PlainContext bool
	// JudgesRewrites: the CLI applies a PreToolUse updatedInput sent
	// without a permission decision, and its own permission rules judge
	// the rewritten call (Claude Code: it runs where the user's settings
	// allow it, is asked about where they ask, and is denied headless).
	JudgesRewrites bool
	// ShapesOutput: the CLI keeps a PostToolUse updatedToolOutput only in
	// the tool's own output shape, and drops any other without a word
	// (Claude Code), so a rule's replacement is given that shape (see
	// conformOutput). Other CLIs' dialects carry it in their own way.
	ShapesOutput bool
}

// Call is one tool call as the rules see it.
type Call struct {
	// Client is what the CLI that sent the event does with the answer.
	Client Client
	// Event is the Claude Code event, as read.
	Event *protocol.Event
	// HookType is the event name: PreToolUse, PostToolUse or
	// PostToolUseFailure.
	HookType string
	// Agent is the agent the rules are selected for; "" is the main thread.
	Agent string
	// Recipient is who the inbox delivers to at this call: the agent whose
	// context the hook's answer reaches (see hookenv.Env.Recipient).
	Recipient string
	// Orchestrator is $MASSGEN_ORCHESTRATOR_ID, "" outside an orchestrator.
	Orchestrator string
	// Roster is the configured agents' ids, which number peers as MassGen
	// does (see inbox.Inbox.Roster).
	Roster []string
	Now    time.Time
	// Project is the project root; command handlers run there.
	Project string
	// ToolInput is the input as the current rule sees it: the event's, or
	// the previous PreToolUse rule's rewrite.
	ToolInput json.RawMessage
	// ToolOutput is PostToolUse's tool response, as the current rule sees it.
	ToolOutput json.RawMessage
	// Environ is the environment command handlers inherit.
	Environ []string
	// Detach starts massgen-hook again with args, detached, without
	// waiting: for work that must not delay the agent (observers). Nil
	// where nothing may be started (explain).
	Detach func(args ...string) error
	// Replay marks a replay of a recorded event (massgen-hook replay):
	// nothing outside the runtime directory may change, so no project
	// file (MassGen's Codex payload) is taken over.
	Replay bool
	// State is the project's runtime directory, where built-in checks keep
	// their per-session records; read-only in explain's dry run.
	State *state.Dir
	// Notes receives the notes of built-in checks, one line each (stderr:
	// Claude Code keeps it in its debug log); nil drops them.
	Notes io.Writer
	// Scope is the scope of the rule being run ("default", "global",
	// "agent <id>"): checks that count keep one count per scope.
	Scope string

	memo    map[any]any
	settles []func(answered bool)
}

// OnAnswer registers f to run once the hook's answer was written (answered
// true) or could not be (false): a check that hands something over, such as
// the inbox's messages, confirms it only when it really went out.
func (c *Call) OnAnswer(f func(answered bool)) { c.settles = append(c.settles, f) }

// Settlers are the functions registered with OnAnswer, in order.
func (c *Call) Settlers() []func(answered bool) { return c.settles }

// Memo returns what compute gives for key, computing it once per call, so
// checks that derive the same thing from a call (the parsed Bash command,
// the resolved project) share the work. Key on everything the value
// depends on: a rewrite of the input by an earlier rule is a new key.
func (c *Call) Memo(key any, compute func() any) any {
	if v, ok := c.memo[key]; ok {
		return v
	}
	if c.memo == nil {
		c.memo = map[any]any{}
	}
	v := compute()
	c.memo[key] = v
	return v
}

// hookEvent is the seeds' HookEvent, what a command handler reads on stdin,
// with the original Claude Code event under "event".
type hookEvent struct {
	HookType       string          `json:"hook_type"`
	SessionID      string          `json:"session_id"`
	OrchestratorID string          `json:"orchestrator_id"`
	AgentID        *string         `json:"agent_id"`
	Timestamp      string          `json:"timestamp"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	// ToolOutput is a string in MassGen's contract: a string response as
	// it is, any other JSON as its text.
	ToolOutput *string         `json:"tool_output,omitempty"`
	Event      json.RawMessage `json:"event"`
}

// stdin encodes c as the HookEvent a command handler reads.
func (c *Call) stdin() ([]byte, error) {
	he := hookEvent{
		HookType:       c.HookType,
		SessionID:      c.Event.SessionID,
		OrchestratorID: c.Orchestrator,
		Timestamp:      c.Now.Format(time.RFC3339Nano),
		ToolName:       c.Event.ToolName,
		ToolInput:      c.ToolInput,
		Event:          json.RawMessage(c.Event.Raw),
	}
	if he.ToolInput == nil {
		he.ToolInput = json.RawMessage("{}")
	}
	if c.Agent != "" {
		he.AgentID = &c.Agent
	}
	if c.HookType == protocol.PostToolUse {
		out := toolOutputText(c.ToolOutput)
		he.ToolOutput = &out
	}
	return json.Marshal(he)
}

// toolOutputText is a tool response as text.
func toolOutputText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// environ is the handler's environment: the hook's own, plus the seeds'
// MASSGEN_* variables and CLAUDE_PROJECT_DIR. Values come from the event, so
// NUL bytes (which no environment can hold) are dropped rather than failing
// the handler's start.
func (c *Call) environ() []string {
	env := append([]string(nil), c.Environ...)
	set := func(k, v string) {
		env = append(env, k+"="+stripNUL(v))
	}
	set("MASSGEN_HOOK_TYPE", c.HookType)
	set("MASSGEN_TOOL_NAME", c.Event.ToolName)
	set("MASSGEN_SESSION_ID", c.Event.SessionID)
	set("MASSGEN_AGENT_ID", c.Agent)
	set("MASSGEN_ORCHESTRATOR_ID", c.Orchestrator)
	set("CLAUDE_PROJECT_DIR", c.Project)
	return env
}

func stripNUL(s string) string { return strings.ReplaceAll(s, "\x00", "") }
