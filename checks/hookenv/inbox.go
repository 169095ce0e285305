package hookenv

import (
	"context"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/internal/nats/natsinbox"
	"github.com/massgen/massgen-hook/protocol"
)

// inboxBudget bounds, in UTF-16 units, the messages one answer carries: the
// output's cap (10,000) less room for the other rules' context. Messages
// past it wait for the next call, whole, never cut.
const inboxBudget = 8000

// inboxOptions are the inbox rule's options.
type inboxOptions struct {
	// AnonymiseText also replaces peers' real ids inside a peer answer's
	// text with their anonymous ids; MassGen leaves the text as written.
	AnonymiseText bool `yaml:"anonymise_text"`
}

func NewInbox(options *yaml.Node) (engine.Builtin, error) {
	var o inboxOptions
	if err := DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	return engine.BuiltinFunc(func(ctx context.Context, call *engine.Call) (engine.Verdict, error) {
		return deliverInbox(ctx, call, o)
	}), nil
}

// inboxRuleOptions reads the options of the configured inbox rule, for
// deliveries outside the rules (a turn boundary's late messages).
func inboxRuleOptions(cfg config.Config) inboxOptions {
	var o inboxOptions
	for _, h := range cfg.Hooks.For(protocol.PostToolUse).Hooks {
		if h.Type == config.TypeBuiltin && h.Handler == "inbox" {
			_ = DecodeOptions(&h.Options, &o) // checked when the rules were compiled
		}
	}
	return o
}

// roster is the configured agents' ids.
func (env *Env) roster() []string {
	ids := make([]string, 0, len(env.Config.Agents))
	for _, a := range env.Config.Agents {
		ids = append(ids, a.ID)
	}
	return ids
}

// deliverInbox is the inbox check, a default rule after every tool call: it
// hands over the recipient's pending messages that match the tool, oldest
// first, each in its own strategy, then, if there is room, the next part
// of MassGen's injection file in the agent's workspace (PostToolUse only,
// as MassGen's own readers do; never in a replay, which leaves the project
// alone). What it hands over is confirmed delivered only once the hook's
// answer was written.
func deliverInbox(_ context.Context, call *engine.Call, o inboxOptions) (engine.Verdict, error) {
	ib := inbox.Open(call.State)
	ib.Roster, ib.AnonymiseText = call.Roster, o.AnonymiseText
	var v engine.Verdict
	room := inboxBudget
	// With the inbox on NATS, what the broker holds for the agent is
	// queued here first; the pull is acknowledged after the answer, once
	// the local receipts are confirmed.
	var pull *natsinbox.Pull
	if open, ok := call.Memo(brokerKey{}, func() any { return nil }).(func() *natsinbox.Broker); ok {
		if b := open(); b != nil {
			pull = b.Pull(call.Recipient, true)
			v.SystemMessage = pull.Warning
		}
	}
	via := inbox.Via{Event: call.HookType, Session: call.Event.SessionID, Tool: call.Event.ToolName}
	batch, err := ib.Take(call.Recipient, call.Event.ToolName, call.Now, inboxBudget, via)
	if pull != nil {
		if batch != nil {
			batch.Confirmed = pull.Report
		}
		defer call.OnAnswer(pull.Settle)
	}
	if err != nil {
		return v, err // MassGen's file stays for the next call, or MassGen's carry-forward
	}
	if !batch.Empty() {
		call.OnAnswer(batch.Settle)
		for _, p := range batch.Parts() {
			v.Injections = append(v.Injections, engine.Injection{Content: p.Text, Strategy: p.Strategy})
			room -= protocol.UTF16Len(p.Text)
		}
	}
	if call.HookType != protocol.PostToolUse || call.Replay {
		return v, nil
	}
	files := projectPayloadFiles(call.Project)
	if find, ok := call.Memo(massgenFilesKey{}, func() any { return nil }).(func() []payloadFile); ok {
		files = find()
	}
	for _, f := range files {
		part, perr := ib.TakeMassGen(f.dir, f.kind, call.Event.ToolName, call.Event.SessionID, call.Now, room)
		if perr != nil {
			v.Notes = append(v.Notes, perr.Error())
		}
		if part != nil {
			call.OnAnswer(part.Settle)
			v.Injections = append(v.Injections, engine.Injection{Content: part.Text, Strategy: part.Strategy})
			break // one part an answer: a part may fill it
		}
	}
	return v, nil
}

// payloadFile is a MassGen injection file a call may deliver: its kind, in
// a workspace.
type payloadFile struct {
	dir  string
	kind inbox.MassGenFile
}

// brokerKey is the call memo of the function that opens the inbox's NATS
// broker (Env.Broker), set by RunRules; a call without it has none.
type brokerKey struct{}

// massgenFilesKey is the call memo of the function that finds the
// injection files a call may deliver. RunRules sets it from the config
// (massgenPayloadFiles), which the call does not carry; a call without it
// looks in the project.
type massgenFilesKey struct{}

// listDir is the names in dir; none when it cannot be read.
func listDir(dir string) []string {
	entries, _ := os.ReadDir(dir)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}

// projectPayloadFiles are both kinds of injection file in the project.
func projectPayloadFiles(project string) []payloadFile {
	return []payloadFile{{project, inbox.CodexPayload}, {project, inbox.GeminiPayload}}
}

// massgenPayloadFiles are the injection files of the agent whose hook this
// is: in its workspace when the config gives one (its workspace:, or
// where MassGen puts its backend.cwd), else in the project; its backend's
// file when the config names the backend (codex, gemini_cli), none for
// another backend (MassGen hands those text its own way), else both.
func (env *Env) massgenPayloadFiles(ev *protocol.Event) []payloadFile {
	id := env.Agent
	if id == "" {
		id = env.Recipient
	}
	a := env.Config.AgentByID(id)
	if a == nil {
		return projectPayloadFiles(env.Layout.Project)
	}
	dir := a.WorkspaceDir(env.Layout.Project, ev.Cwd, listDir)
	if dir == "" {
		dir = env.Layout.Project
	}
	switch a.Backend.Type {
	case "":
		return []payloadFile{{dir, inbox.CodexPayload}, {dir, inbox.GeminiPayload}}
	case "codex":
		return []payloadFile{{dir, inbox.CodexPayload}}
	case "gemini_cli":
		return []payloadFile{{dir, inbox.GeminiPayload}}
	}
	return nil
}

// LateMessages claims, at a turn boundary, the recipient's messages that
// expired before a tool call could deliver them. The caller hands them over
// and settles the batch; a failure leaves them undelivered (they wait for
// the next boundary and show in `massgen-hook inbox`), noted, and the hook
// goes on: its own answer matters as much.
func (env *Env) LateMessages(ev *protocol.Event) *inbox.Batch {
	if env.State == nil {
		return nil
	}
	ib := inbox.Open(env.State)
	ib.Roster, ib.AnonymiseText = env.roster(), inboxRuleOptions(env.Config).AnonymiseText
	via := inbox.Via{Event: ev.HookEventName, Session: ev.SessionID}
	var pull *natsinbox.Pull
	if b := env.Broker(); b != nil {
		// A turn boundary's answer has no place for an outage warning:
		// the next tool call tells it.
		pull = b.Pull(env.Recipient, false)
	}
	batch, err := ib.TakeLate(env.Recipient, env.Now, inboxBudget, via)
	if pull != nil {
		if batch != nil {
			batch.Confirmed = pull.Report
		}
		env.OnAnswerLast(pull.Settle)
	}
	if err != nil {
		env.Note("inbox: undelivered messages for %s not handed over: %v", env.Recipient, err)
		return nil
	}
	if batch.Empty() {
		return nil
	}
	return batch
}

// WithLate puts the late messages first in a turn boundary's context (a
// long scratchpad tail is then what the output cap cuts, never a message)
// and settles them with the answer.
func (env *Env) WithLate(event string, late *inbox.Batch, out protocol.Output) protocol.Output {
	if late == nil {
		return out
	}
	env.OnAnswer(late.Settle)
	text := late.Text()
	if h := out.HookSpecificOutput; h != nil && h.AdditionalContext != "" {
		text += "\n\n" + h.AdditionalContext
	}
	out.HookSpecificOutput = &protocol.HookSpecific{HookEventName: event, AdditionalContext: text}
	return out
}
