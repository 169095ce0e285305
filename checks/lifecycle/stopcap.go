package lifecycle

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/internal/jsonw"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// stopRecord counts one agent's consecutive blocked stops in one session.
//
// The counter is a file of lines, one per blocked stop, each the count so
// far and the start of the reason given: {"blocks":2,"last_reason":"..."}.
// A block appends its line (state.UpdateLines) and a pass or a release
// removes the file, so it holds at most block_cap lines (and never more
// than the bounds below). A file of one line without its newline (as an
// earlier release wrote the counter) reads the same way.
type stopRecord struct {
	Blocks int
	Reason string
}

// A counter keeps at most maxStopLines lines and maxStopBytes bytes,
// whatever block_cap says: past either it starts a new file with its new
// line. A line keeps the first maxStopReason bytes of its reason (it is
// there for a person reading the file; only the count is read), so that
// long reasons (late inbox messages) never make a counter too large to
// read.
const (
	maxStopLines  = 64
	maxStopBytes  = 16 << 10
	maxStopReason = 240
)

// lastStop reads the counter old: its last line, and the lines to keep
// before a new one (nil to start a new file). ok is false when the last
// line does not parse (a crash cut it short, or the file was damaged):
// the count is then 0.
func lastStop(old []byte) (rec stopRecord, kept []byte, ok bool) {
	if len(old) == 0 {
		return stopRecord{}, nil, true
	}
	kept = old
	if old[len(old)-1] != '\n' {
		kept = append(slices.Clip(old), '\n')
	}
	body := kept[:len(kept)-1]
	last := body[bytes.LastIndexByte(body, '\n')+1:]
	blocks := gjson.GetBytes(last, "blocks")
	reason := gjson.GetBytes(last, "last_reason")
	if !gjson.ValidBytes(last) || last[0] != '{' ||
		blocks.Exists() && (blocks.Type != gjson.Number || blocks.Num != float64(int(blocks.Num)) || blocks.Num < 0) ||
		reason.Exists() && reason.Type != gjson.String {
		return stopRecord{}, nil, false
	}
	if len(kept) >= maxStopBytes || bytes.Count(kept, []byte{'\n'}) >= maxStopLines {
		kept = nil
	}
	return stopRecord{Blocks: int(blocks.Int()), Reason: reason.String()}, kept, true
}

// appendLine is kept with r's line after it.
func (r stopRecord) appendLine(kept []byte) []byte {
	b := append(slices.Clip(kept), `{"blocks":`...)
	b = strconv.AppendInt(b, int64(r.Blocks), 10)
	if r.Reason != "" {
		b = jsonw.String(append(b, `,"last_reason":`...), clip(r.Reason, maxStopReason))
	}
	return append(b, "}\n"...)
}

// capStopsWithLate is capStops with the inbox's late messages: the agent's
// messages that expired before a tool call could carry them block its stop
// once, beside the protocol's own reason, and the block counts toward the
// cap. When the cap lets the agent go, they stay undelivered, for the next
// session start or stop, and `massgen-hook inbox` shows them. The main
// thread's stop also carries its subagents' notices (withNotices), on the
// same terms.
func capStopsWithLate(env *hookenv.Env, ev *protocol.Event, agent, label, reason string, withNotices bool) (protocol.Output, stopOutcome, error) {
	why := stopReason{protocol: reason}
	var settles []func(bool)
	if late := env.LateMessages(ev); late != nil {
		why.late, why.lateCount = late.Text(), len(late.Items)
		settles = append(settles, late.Settle)
	}
	if withNotices {
		var settle func(bool)
		if why.notices, settle = env.TakeNotices(ev); settle != nil {
			settles = append(settles, settle)
		}
	}
	out, outcome, err := capStops(env, ev, agent, label, why)
	for _, settle := range settles {
		if err == nil && outcome == stopBlocked {
			env.OnAnswer(settle)
		} else {
			settle(false)
		}
	}
	return out, outcome, err
}

// stopOutcome is what a stop check did: let the agent stop, block it, or
// let it go at the cap.
type stopOutcome int

const (
	stopPassed stopOutcome = iota
	stopBlocked
	stopReleased
)

// stopReason is why a stop is blocked: the protocol's own reason, the
// subagents' notices, and the inbox's late messages (told to the agent,
// but only counted when the user is told of a release: they are addressed
// to the agent).
type stopReason struct {
	protocol  string
	notices   string
	late      string
	lateCount int
}

func (r stopReason) forAgent() string { return protocol.Paragraphs(r.protocol, r.notices, r.late) }

// forUser says what was not done when the cap let the agent go.
func (r stopReason) forUser() string {
	var parts []string
	if r.protocol != "" {
		parts = append(parts, "the scratchpad protocol was NOT met: "+r.protocol)
	}
	if r.lateCount > 0 {
		parts = append(parts, strconv.Itoa(r.lateCount)+" inbox message(s) are still undelivered (see massgen-hook inbox)")
	}
	return strings.Join(parts, "; ")
}

// capStops turns a stop check's verdict into the hook's answer, keeping the
// loop guard: a stop hook that blocks forever traps the user (Claude Code
// only gives up after 8 blocks), so after block_cap blocks in a row the agent
// is let go with a systemMessage saying the protocol was not met, and the
// release is recorded in the audit trail. A pass resets the count.
//
// agent keys the count (a subagent's agent_id, so two parallel subagents of
// one type are counted apart); label names the agent in the message.
func capStops(env *hookenv.Env, ev *protocol.Event, agent, label string, why stopReason) (protocol.Output, stopOutcome, error) {
	name := "sessions/" + state.Key(ev.SessionID) + "/stop-" + state.Key(agent) + ".json"
	reason := why.forAgent()
	if reason == "" {
		if err := env.State.Remove(name); err != nil {
			env.Note("could not reset the stop counter: %v", err)
		}
		return protocol.Output{}, stopPassed, nil
	}
	limit := env.Config.Scratchpad.BlockCap
	released := 0
	count := func(old []byte) ([]byte, error) {
		rec, kept, ok := lastStop(old)
		if !ok {
			env.Note("stop counter %s was corrupt; starting again from 0", name)
		}
		if rec.Blocks >= limit {
			released = rec.Blocks
			return nil, nil
		}
		rec.Blocks++
		rec.Reason = reason
		return rec.appendLine(kept), nil
	}
	err := env.State.UpdateLines(name, count)
	if tooLarge := (*hookfs.TooLargeError)(nil); errors.As(err, &tooLarge) {
		// Far larger than any counter written here: planted, or damaged.
		// Removed (without reading it) and counted again from 0, so that
		// the cap still lets the agent go.
		env.Note("stop counter %s was corrupt (%v); starting again from 0", name, tooLarge)
		if err = env.State.Remove(name); err == nil {
			err = env.State.UpdateLines(name, count)
		}
	}
	if err != nil {
		// Without the counter the cap cannot be kept; blocking anyway could
		// trap the agent, so this is an error (fail open unless fail_closed).
		return protocol.Output{}, stopPassed, fmt.Errorf("stop loop guard: %w", err)
	}
	if released == 0 {
		return protocol.Block(reason), stopBlocked, nil
	}
	msg := "massgen-hook: let " + label + " stop after " + strconv.Itoa(released) + " blocked attempts; " + why.forUser()
	if err := env.State.Audit(releaseRecord{
		Time: env.Now.UTC().Format(time.RFC3339), Event: ev.HookEventName, Session: ev.SessionID,
		Agent: agent, Who: label, Rule: "scratchpad.block_cap", Outcome: "released", Blocks: released, Reason: why.forUser(),
	}); err != nil {
		env.Note("could not record the release: %v", err)
	}
	return protocol.Output{SystemMessage: msg}, stopReleased, nil
}

// releaseRecord is the audit line of a stop the cap let go. Agent is the
// count's key (a subagent's agent_id, or "main"); Who names it.
type releaseRecord struct {
	Time    string `json:"time"`
	Event   string `json:"event"`
	Session string `json:"session"`
	Agent   string `json:"agent"`
	Who     string `json:"who"`
	Rule    string `json:"rule"`
	Outcome string `json:"outcome"`
	Blocks  int    `json:"blocks"`
	Reason  string `json:"reason"`
}

// clip is s cut to at most n bytes, at a character's start, with "…" for
// what it left out.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
