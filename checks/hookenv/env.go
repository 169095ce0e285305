package hookenv

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/scratchpad"
	"github.com/massgen/massgen-hook/state"
)

// Env is everything a check may look at besides the event.
type Env struct {
	Layout scratchpad.Layout
	Config config.Config
	// Now is the current time; its local date is "today".
	Now   time.Time
	State *state.Dir
	// Notes receives one-line explanations of fail-open decisions (stderr:
	// Claude Code keeps it in its debug log). Never shown to the agent.
	Notes io.Writer
	// GitLog returns `git log --oneline -n` for dir; nil uses the git on PATH.
	GitLog func(ctx context.Context, dir string, n int) (string, error)

	// Rules is the compiled hook engine of Config.
	Rules *engine.Engine
	// Agent is the agent whose rules apply ("" is the main thread).
	Agent string
	// Orchestrator is $MASSGEN_ORCHESTRATOR_ID.
	Orchestrator string
	// Environ is the environment command handlers inherit.
	Environ []string
	// Detach starts massgen-hook again with args, detached (see
	// engine.Call.Detach); nil in a dry run.
	Detach func(args ...string) error
	// Replay marks a replay of a recorded event (see engine.Call.Replay).
	Replay bool
	// DryRun is explain's mode: decide, but write no audit line and change
	// no state.
	DryRun bool
	// Client is what the CLI that sent the event does with the answer.
	Client engine.Client
	// Recipient is who the inbox delivers to: the agent whose context this
	// hook's answer reaches. It differs from Agent inside a Claude Code
	// subagent of an orchestrated agent: $MASSGEN_AGENT_ID selects the
	// agent's rules there, but context added there reaches the subagent.
	Recipient string
	// FileToolScratchpad: tell subagents to write their scratchpad with the
	// Write or Edit tool (see dialect.Dialect.FileToolScratchpad).
	FileToolScratchpad bool
	// DelegationTool is the tool whose call is a whole subagent's run,
	// where the CLI fires no subagent events (see
	// dialect.Dialect.DelegationTool).
	DelegationTool string

	settles, lastSettles []func(answered bool)
}

// OnAnswer registers f to run once the hook's answer was written (true) or
// could not be (false).
func (env *Env) OnAnswer(f ...func(answered bool)) { env.settles = append(env.settles, f...) }

// Settle runs what OnAnswer registered: the CLI calls it after writing the
// answer, so what a hook handed over is confirmed only when it went out.
func (env *Env) Settle(answered bool) {
	for _, f := range append(env.settles, env.lastSettles...) {
		f(answered)
	}
	env.settles, env.lastSettles = nil, nil
}

// OnAnswerLast registers f to run after everything OnAnswer registered:
// the broker is told a message was taken only once the local inbox
// recorded its delivery.
func (env *Env) OnAnswerLast(f func(answered bool)) { env.lastSettles = append(env.lastSettles, f) }

// Today is the local date of Now as a scratchpad day.
func (env *Env) Today() string { return scratchpad.Today(env.Now) }

// Note writes one fail-open explanation line.
func (env *Env) Note(format string, args ...any) {
	if env.Notes != nil {
		fmt.Fprintf(env.Notes, "massgen-hook: "+format+"\n", args...)
	}
}
