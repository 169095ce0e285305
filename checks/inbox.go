package checks

import (
	"context"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/inbox"
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

func newInbox(options *yaml.Node) (engine.Builtin, error) {
	var o inboxOptions
	if err := decodeOptions(options, &o); err != nil {
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
			_ = decodeOptions(&h.Options, &o) // checked when the rules were compiled
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
// takes over MassGen's Codex injection file (PostToolUse only, as MassGen's
// middleware did; never in a replay, which leaves the project alone), then hands the recipient its pending messages that
// match the tool, oldest first, each in its own strategy. They are confirmed
// delivered only once the hook's answer was written.
func deliverInbox(_ context.Context, call *engine.Call, o inboxOptions) (engine.Verdict, error) {
	ib := inbox.Open(call.State)
	ib.Roster, ib.AnonymiseText = call.Roster, o.AnonymiseText
	var notes []string
	if call.HookType == protocol.PostToolUse && !call.Replay {
		if err := ib.ImportCodex(call.Project, call.Recipient, call.Event.ToolName, call.Event.SessionID, call.Now); err != nil {
			notes = append(notes, err.Error())
		}
	}
	via := inbox.Via{Event: call.HookType, Session: call.Event.SessionID, Tool: call.Event.ToolName}
	batch, err := ib.Take(call.Recipient, call.Event.ToolName, call.Now, inboxBudget, via)
	if err != nil {
		return engine.Verdict{Notes: notes}, err
	}
	if batch.Empty() {
		return engine.Verdict{Notes: notes}, nil
	}
	call.OnAnswer(batch.Settle)
	v := engine.Verdict{Notes: notes}
	for _, p := range batch.Parts() {
		v.Injections = append(v.Injections, engine.Injection{Content: p.Text, Strategy: p.Strategy})
	}
	return v, nil
}

// lateMessages claims, at a turn boundary, the recipient's messages that
// expired before a tool call could deliver them. The caller hands them over
// and settles the batch; a failure leaves them undelivered (they wait for
// the next boundary and show in `massgen-hook inbox`), noted, and the hook
// goes on: its own answer matters as much.
func (env *Env) lateMessages(ev *protocol.Event) *inbox.Batch {
	if env.State == nil {
		return nil
	}
	ib := inbox.Open(env.State)
	ib.Roster, ib.AnonymiseText = env.roster(), inboxRuleOptions(env.Config).AnonymiseText
	via := inbox.Via{Event: ev.HookEventName, Session: ev.SessionID}
	batch, err := ib.TakeLate(env.Recipient, env.Now, inboxBudget, via)
	if err != nil {
		env.note("inbox: undelivered messages for %s not handed over: %v", env.Recipient, err)
		return nil
	}
	if batch.Empty() {
		return nil
	}
	return batch
}

// withLate puts the late messages first in a turn boundary's context (a
// long scratchpad tail is then what the output cap cuts, never a message)
// and settles them with the answer.
func (env *Env) withLate(event string, late *inbox.Batch, out protocol.Output) protocol.Output {
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
