//go:build realcli

package realcli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Request is one model turn the CLI asked for, read into a shape every CLI's
// wire shares, so scripts and assertions do not depend on the wire format.
type Request struct {
	N        int    // 1-based, in arrival order (for logs, never for matching)
	Path     string // URL path and query
	Body     []byte // the raw JSON the CLI sent
	Subagent bool   // a subagent's turn, not the main agent's
	System   string // the system prompt as text
	Messages []Message
	Step     string // the script step that answered it ("" when none did)
}

// Message is one entry of the conversation the CLI sent.
type Message struct {
	Role   string // user, assistant, system (or the wire's own names)
	Blocks []Block
}

// Block is one part of a message.
type Block struct {
	Type    string // text, tool_use, tool_result
	Text    string // text; a tool result's content as text
	ID      string // tool_use id, or the id a tool_result answers
	Name    string // tool_use: the tool
	Input   json.RawMessage
	IsError bool // tool_result: the CLI reported the call as failed
}

// Text is everything the model reads in the request: the system prompt and
// every block, in order, one per line.
func (r *Request) Text() string {
	var b strings.Builder
	b.WriteString(r.System)
	for _, m := range r.Messages {
		for _, bl := range m.Blocks {
			b.WriteString("\n")
			b.WriteString(bl.Text)
			if len(bl.Input) > 0 {
				b.Write(bl.Input)
			}
		}
	}
	return b.String()
}

// Contains reports whether the model reads s anywhere in the request.
func (r *Request) Contains(s string) bool { return strings.Contains(r.Text(), s) }

// Count is how many times the model reads s in the request.
func (r *Request) Count(s string) int { return strings.Count(r.Text(), s) }

// Tail is what arrived since the model last spoke: the blocks of every
// message after the last assistant message (tool results, hook context, a
// stop hook's feedback). It is how a script tells which turn this is.
func (r *Request) Tail() []Block {
	last := -1
	for i, m := range r.Messages {
		if m.Role == "assistant" {
			last = i
		}
	}
	var out []Block
	for _, m := range r.Messages[last+1:] {
		out = append(out, m.Blocks...)
	}
	return out
}

// TailText is the text of Tail, one block per line.
func (r *Request) TailText() string {
	var parts []string
	for _, b := range r.Tail() {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// ToolResult is the result of the call id, wherever it is in the request.
func (r *Request) ToolResult(id string) (Block, bool) {
	for _, m := range r.Messages {
		for _, b := range m.Blocks {
			if b.Type == "tool_result" && b.ID == id {
				return b, true
			}
		}
	}
	return Block{}, false
}

// FirstUserText is the text of the first user message: the prompt of the
// main agent, or the task a subagent was given.
func (r *Request) FirstUserText() string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			var parts []string
			for _, b := range m.Blocks {
				parts = append(parts, b.Text)
			}
			return strings.Join(parts, "\n")
		}
	}
	return ""
}

// task is the last block of the first user message: the prompt or the
// subagent's task without the context the CLI put before it.
func (r *Request) task() string {
	for _, m := range r.Messages {
		if m.Role == "user" && len(m.Blocks) > 0 {
			return m.Blocks[len(m.Blocks)-1].Text
		}
	}
	return ""
}

// Spoke reports whether the model has answered at least once in this
// conversation (false on an agent's first turn).
func (r *Request) Spoke() bool {
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			return true
		}
	}
	return false
}

// Summary names the request for a failure message: who asked and what
// arrived last.
func (r *Request) Summary() string {
	who := "main agent"
	if r.Subagent {
		who = "subagent"
	}
	tail := r.TailText()
	if len(tail) > 600 {
		tail = tail[:600] + "…"
	}
	return fmt.Sprintf("request %d (%s, task %q) ending with: %s", r.N, who, clip(r.task(), 80), tail)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Reply is the model's answer to one turn: text, then tool calls. With no
// calls the turn ends (the agent wants to stop).
type Reply struct {
	Text  string
	Calls []Call
}

// Call is one tool call the model makes.
type Call struct {
	ID    string // unique in the scenario, so the next turn can be told by its result
	Name  string // the tool's name as the CLI offers it
	Input any    // marshalled to JSON; a string is a freeform tool's raw input (chatWire)
}

// Say ends the turn with text.
func Say(text string) Reply { return Reply{Text: text} }

// Use makes the model call one tool.
func Use(id, name string, input any) Reply {
	return Reply{Calls: []Call{{ID: id, Name: name, Input: input}}}
}

// When tells whether a step answers a request.
type When func(*Request) bool

// Step is one scripted turn: the request it answers, picked by what the
// request contains (never by its position), and the answer.
type Step struct {
	Name string
	When When
	// Reply answers the request; it may read it (a path the hook named).
	Reply func(*Request) Reply
	// Before runs when the step is picked, before the answer is sent: an
	// action from outside the agent between two of its turns.
	Before func(*Request) error
	// Times is how many requests the step may answer (0 means 1; -1 any).
	Times int

	used []*Request
}

// Wire is one CLI's model API: it reads a request into a Request and writes
// a Reply in the CLI's streaming format.
type Wire interface {
	// Parse reads one request. handled is true when the wire answered it
	// itself (a request that is not a model turn, e.g. a token count).
	Parse(w http.ResponseWriter, r *http.Request, body []byte) (req *Request, handled bool, err error)
	// Write streams reply as the answer to req.
	Write(w http.ResponseWriter, req *Request, reply Reply) error
	// Refuse answers with an error the CLI does not retry.
	Refuse(w http.ResponseWriter, why string)
}

// Model is the fake model API of one scenario: it answers each request with
// the one script step that matches it, records every request, and ends the
// run (through Abort) at the first request no step, or more than one step,
// answers.
type Model struct {
	wire  Wire
	steps []*Step

	mu       sync.Mutex
	requests []*Request
	failures []string
	abort    func()

	srv *httptest.Server
}

func newModel(wire Wire) *Model {
	m := &Model{wire: wire, abort: func() {}}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

// URL is the fake API's base URL, on 127.0.0.1.
func (m *Model) URL() string { return m.srv.URL }

// Close stops the server.
func (m *Model) Close() { m.srv.Close() }

// On adds a step answering with reply.
func (m *Model) On(name string, when When, reply Reply) *Step {
	return m.OnFunc(name, when, func(*Request) Reply { return reply })
}

// OnFunc adds a step whose answer is computed from the request.
func (m *Model) OnFunc(name string, when When, reply func(*Request) Reply) *Step {
	s := &Step{Name: name, When: when, Reply: reply}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.steps = append(m.steps, s)
	return s
}

// Requests is every request received so far, in arrival order.
func (m *Model) Requests() []*Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Request(nil), m.requests...)
}

// Answered is the requests step name answered.
func (m *Model) Answered(name string) []*Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.steps {
		if s.Name == name {
			return append([]*Request(nil), s.used...)
		}
	}
	return nil
}

// Failures is what went wrong in the server: unscripted or ambiguous
// requests, a failed Before action, a malformed request.
func (m *Model) Failures() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.failures...)
}

func (m *Model) fail(format string, args ...any) {
	m.failures = append(m.failures, fmt.Sprintf(format, args...))
	m.abort()
}

func (m *Model) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req, handled, err := m.wire.Parse(w, r, body)
	if handled {
		return
	}
	m.mu.Lock()
	if err != nil {
		m.fail("unreadable request %s %s: %v", r.Method, r.URL, err)
		m.mu.Unlock()
		m.wire.Refuse(w, err.Error())
		return
	}
	req.N = len(m.requests) + 1
	m.requests = append(m.requests, req)
	step, why := m.pick(req)
	if step == nil {
		m.fail("%s: %s", why, req.Summary())
		m.mu.Unlock()
		m.wire.Refuse(w, why)
		return
	}
	step.used = append(step.used, req)
	req.Step = step.Name
	m.mu.Unlock()

	if step.Before != nil {
		if err := step.Before(req); err != nil {
			m.mu.Lock()
			m.fail("step %q: before answering %s: %v", step.Name, req.Summary(), err)
			m.mu.Unlock()
			m.wire.Refuse(w, err.Error())
			return
		}
	}
	if err := m.wire.Write(w, req, step.Reply(req)); err != nil {
		m.mu.Lock()
		m.fail("step %q: writing the answer: %v", step.Name, err)
		m.mu.Unlock()
	}
}

// pick is the one step with room left that matches req. None, or more than
// one, is a scripting failure: a turn must never be answered by order alone.
func (m *Model) pick(req *Request) (*Step, string) {
	var found []*Step
	for _, s := range m.steps {
		limit := s.Times
		if limit == 0 {
			limit = 1
		}
		if limit > 0 && len(s.used) >= limit {
			continue
		}
		if s.When(req) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		return nil, "unscripted request"
	case 1:
		return found[0], ""
	}
	names := make([]string, len(found))
	for i, s := range found {
		names[i] = s.Name
	}
	return nil, fmt.Sprintf("ambiguous request: steps %s all match", strings.Join(names, ", "))
}

// Predicates for steps. They read what the request holds, never its position.

// Main is a turn of the main agent.
func Main(r *Request) bool { return !r.Subagent }

// Subagent is a turn of a subagent whose task contains task.
func Subagent(task string) When {
	return func(r *Request) bool { return r.Subagent && strings.Contains(r.FirstUserText(), task) }
}

// First is an agent's first turn: the model has not spoken yet.
func First(r *Request) bool { return !r.Spoke() }

// After is the turn that follows the result of call id: the result arrived
// since the model last spoke.
func After(id string) When {
	return func(r *Request) bool {
		for _, b := range r.Tail() {
			if b.Type == "tool_result" && b.ID == id {
				return true
			}
		}
		return false
	}
}

// Arrived is a turn where text arrived since the model last spoke (a stop
// hook's feedback, hook context).
func Arrived(text string) When {
	return func(r *Request) bool { return strings.Contains(r.TailText(), text) }
}

// All is a turn every one of ws matches.
func All(ws ...When) When {
	return func(r *Request) bool {
		for _, w := range ws {
			if !w(r) {
				return false
			}
		}
		return true
	}
}

// Called is a turn whose history holds the call id, made by the agent
// that asks.
func Called(id string) When {
	return func(r *Request) bool {
		for _, m := range r.Messages {
			for _, b := range m.Blocks {
				if b.Type == "tool_use" && b.ID == id {
					return true
				}
			}
		}
		return false
	}
}

// Not is a turn w does not match.
func Not(w When) When { return func(r *Request) bool { return !w(r) } }
