package limits

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// roundTimeout bounds the time an agent spends on one round (seed 001,
// "Round Timeout"). Declared under PreToolUse, it also runs on PostToolUse.
//
//   - The round's clock starts at the agent's first tool call, or at
//     `massgen-hook round start`.
//   - At the soft limit (initial_timeout for the first round,
//     subsequent_timeout for later ones), or when `massgen-hook round
//     wrap-up` asks for an answer now, the next PostToolUse injects one
//     wrap-up warning.
//   - grace seconds after the warning (or after the soft limit, if no call
//     has finished since), PreToolUse denies every tool but the terminal
//     ones (vote, new_answer, by glob), counting the attempts.
//   - After max_denials consecutive denials the output also carries
//     continue: false. Terminal tools are never refused, even then: unlike
//     MassGen, force-termination still lets the agent submit its answer.
//
// Each agent of a session has its own round record.
type roundTimeout struct {
	initial, subsequent, grace time.Duration
	terminal                   []match.Matcher
	terminalNames              []string
	maxDenials                 int
}

type roundOptions struct {
	InitialTimeout    float64  `yaml:"initial_timeout"`
	SubsequentTimeout float64  `yaml:"subsequent_timeout"`
	Grace             *float64 `yaml:"grace"`
	TerminalTools     []string `yaml:"terminal_tools"`
	MaxDenials        int      `yaml:"max_denials"`
}

// defaultTerminalTools are MassGen's, as plain and as MCP tools.
var defaultTerminalTools = []string{"vote", "new_answer", "mcp__*__vote", "mcp__*__new_answer"}

func NewRoundTimeout(options *yaml.Node) (engine.Builtin, error) {
	o := roundOptions{MaxDenials: 10}
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	if o.InitialTimeout <= 0 {
		return nil, fmt.Errorf("initial_timeout: give the first round's time limit in seconds (e.g. initial_timeout: 600)")
	}
	if o.SubsequentTimeout < 0 {
		return nil, fmt.Errorf("subsequent_timeout: must be positive seconds")
	}
	if o.SubsequentTimeout == 0 {
		o.SubsequentTimeout = o.InitialTimeout
	}
	grace := 120.0
	if o.Grace != nil {
		grace = *o.Grace
	}
	if grace < 0 {
		return nil, fmt.Errorf("grace: must be 0 or more seconds")
	}
	if o.MaxDenials < 1 {
		return nil, fmt.Errorf("max_denials: must be 1 or more")
	}
	if o.TerminalTools == nil {
		o.TerminalTools = defaultTerminalTools
	}
	r := &roundTimeout{initial: seconds(o.InitialTimeout), subsequent: seconds(o.SubsequentTimeout),
		grace: seconds(grace), maxDenials: o.MaxDenials, terminalNames: o.TerminalTools}
	for i, p := range o.TerminalTools {
		m, err := match.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("terminal_tools[%d]: %v", i, err)
		}
		r.terminal = append(r.terminal, m)
	}
	return r, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// roundRecord is one agent's current round.
type roundRecord struct {
	Round     int       `json:"round"` // 1 is the first
	StartedAt time.Time `json:"started_at"`
	// WrapUpAt is when `round wrap-up` asked for an answer now.
	WrapUpAt time.Time `json:"wrap_up_at,omitzero"`
	// WarnedAt is when the wrap-up warning was injected.
	WarnedAt time.Time `json:"warned_at,omitzero"`
	// Denials counts consecutive refused calls.
	Denials int `json:"denials,omitempty"`
}

// RoundRecordName is the name of agent's round record in a session.
func RoundRecordName(agent string) string { return AgentRecord("round", agent) }

// RoundRecords lists the round records of a session, one per agent that
// has a round.
func RoundRecords(st *state.Dir, session string) ([]string, error) {
	names, err := st.SessionRecords(session)
	var rounds []string
	for _, n := range names {
		if strings.HasPrefix(n, "round-") {
			rounds = append(rounds, n)
		}
	}
	return rounds, err
}

func (r *roundTimeout) limitFor(rec *roundRecord) time.Duration {
	if rec.Round > 1 {
		return r.subsequent
	}
	return r.initial
}

// softAt is when the round's time is up.
func (r *roundTimeout) softAt(rec *roundRecord) time.Time {
	soft := rec.StartedAt.Add(r.limitFor(rec))
	if !rec.WrapUpAt.IsZero() && rec.WrapUpAt.Before(soft) {
		soft = rec.WrapUpAt
	}
	return soft
}

// hardAt is when other tools start being refused: grace after the
// warning, or after the soft limit if no call has finished to carry one.
func (r *roundTimeout) hardAt(rec *roundRecord) time.Time {
	from := r.softAt(rec)
	if rec.WarnedAt.After(from) {
		from = rec.WarnedAt
	}
	return from.Add(r.grace)
}

func (r *roundTimeout) isTerminal(tool string) bool {
	for _, m := range r.terminal {
		if m.Match(tool) {
			return true
		}
	}
	return false
}

func (r *roundTimeout) Check(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	var rec roundRecord
	var v engine.Verdict
	now := call.Now
	err := call.State.UpdateSession(call.Event.SessionID, RoundRecordName(call.Agent), &rec, func() (bool, error) {
		changed := false
		if rec.Round == 0 {
			rec = roundRecord{Round: 1, StartedAt: now}
			changed = true
		}
		if call.HookType == protocol.PostToolUse {
			if rec.WarnedAt.IsZero() && !now.Before(r.softAt(&rec)) {
				rec.WarnedAt = now
				v.Injections = []engine.Injection{{Content: r.warning(&rec), Strategy: engine.ToolResult}}
				changed = true
			}
			return changed, nil
		}
		if now.Before(r.hardAt(&rec)) {
			return changed, nil
		}
		if r.isTerminal(call.Event.ToolName) {
			changed = changed || rec.Denials > 0
			rec.Denials = 0
			return changed, nil
		}
		rec.Denials++
		v = r.denial(&rec, call.Event.ToolName)
		return true, nil
	})
	if err != nil {
		return engine.Verdict{}, err
	}
	return v, nil
}

func (r *roundTimeout) warning(rec *roundRecord) string {
	why := fmt.Sprintf("this round's time limit (%s) is up", r.limitFor(rec).Round(time.Second))
	if !rec.WrapUpAt.IsZero() && rec.WrapUpAt.Before(rec.StartedAt.Add(r.limitFor(rec))) {
		why = "you have been asked to answer now"
	}
	return fmt.Sprintf("⏰ ROUND TIME LIMIT: %s. Wrap up: stop exploring, finish the step you are on, and submit your answer with %s. In %s every other tool will be refused.",
		why, r.terminalText(), r.grace.Round(time.Second))
}

func (r *roundTimeout) denial(rec *roundRecord, tool string) engine.Verdict {
	v := engine.Verdict{Decision: engine.Deny,
		Reason: fmt.Sprintf("Round time is up and the grace period is over: only %s may run now. Submit your answer with one of them instead of calling %s. (Refused call %d of %d before the session is stopped.)",
			r.terminalText(), tool, rec.Denials, r.maxDenials)}
	if rec.Denials >= r.maxDenials {
		v.Stop = true
		v.StopReason = fmt.Sprintf("massgen-hook: round timeout: the agent made %d calls after its round ended without submitting an answer; stopping it.", rec.Denials)
	}
	return v
}

func (r *roundTimeout) terminalText() string { return strings.Join(r.terminalNames, " or ") }

// StartRound starts the next round of a round record (see
// RoundRecordName) now, a first one if it has none, and returns its number.
func StartRound(st *state.Dir, session, record string, now time.Time) (int, error) {
	var rec roundRecord
	err := st.UpdateSession(session, record, &rec, func() (bool, error) {
		rec = roundRecord{Round: rec.Round + 1, StartedAt: now}
		return true, nil
	})
	return rec.Round, err
}

// WrapUp asks the agent of a round record to answer now: the warning
// comes with its next finished call, and other tools are refused grace
// later. It starts a first round if there is none, and returns the
// round's number.
func WrapUp(st *state.Dir, session, record string, now time.Time) (int, error) {
	var rec roundRecord
	err := st.UpdateSession(session, record, &rec, func() (bool, error) {
		if rec.Round == 0 {
			rec = roundRecord{Round: 1, StartedAt: now}
		}
		if rec.WrapUpAt.IsZero() || now.Before(rec.WrapUpAt) {
			rec.WrapUpAt = now
		}
		return true, nil
	})
	return rec.Round, err
}
