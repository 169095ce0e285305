package hookenv

import (
	"context"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
)

// RunRules runs the rules that apply to ev and returns their combined
// result with the call they saw.
func (env *Env) RunRules(ctx context.Context, ev *protocol.Event) (engine.Result, *engine.Call) {
	call := &engine.Call{
		Client:       env.Client,
		Event:        ev,
		HookType:     ev.HookEventName,
		Agent:        env.Agent,
		Recipient:    env.Recipient,
		Orchestrator: env.Orchestrator,
		Roster:       env.roster(),
		Now:          env.Now,
		Project:      env.Layout.Project,
		ToolInput:    ev.ToolInput,
		ToolOutput:   ev.ToolResponse,
		Environ:      env.Environ,
		Detach:       env.Detach,
		Replay:       env.Replay,
		State:        env.State,
		Notes:        env.Notes,
	}
	if env.Rules == nil {
		return engine.Result{Decision: "none"}, call
	}
	// Found only by the inbox rule, after a tool: it may read a folder.
	call.Memo(massgenFilesKey{}, func() any { return func() []payloadFile { return env.massgenPayloadFiles(ev) } })
	call.Memo(brokerKey{}, func() any { return env.Broker })
	return env.Rules.Run(ctx, call), call
}
