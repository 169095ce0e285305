package cli

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/memcap"
	"github.com/massgen/massgen-hook/internal/proc"
	"github.com/massgen/massgen-hook/internal/watchdog"
	"github.com/massgen/massgen-hook/protocol"
)

// unjudged is what the watchdog of a pre-tool-use needs to deny the call
// itself: the CLI's dialect and event, and, once it is built, the
// environment whose audit trail records the deny.
type unjudged struct {
	a      *app
	d      *dialect.Dialect
	native dialect.Native
	ev     *protocol.Event
	budget time.Duration
	env    atomic.Pointer[hookenv.Env]
}

// guardJudgement bounds the judgement of a tool call pre-tool-use judges:
// its memory (judgementMemory), and its time (guard_timeout), past which
// the call is denied from the watchdog's goroutine while the judgement
// still runs. A CLI whose hook outlasts its timeout, or is killed for
// memory, lets the call go ahead unjudged. Other hooks fail safe when
// late: a permission-request that times out leaves the CLI's own prompt
// to the user. The watchdog is nil for them, and in a replay, which has
// no CLI waiting for it. Stop it (stopJudgement) before answering.
func (a *app) guardJudgement(ctx context.Context, event string, d *dialect.Dialect, native dialect.Native, ev *protocol.Event, budget time.Duration) (context.Context, *watchdog.Watchdog, *unjudged) {
	if event != protocol.PreToolUse || a.sandbox != "" {
		return ctx, nil, nil
	}
	if CapMemory {
		memcap.Cap(judgementMemory)
	}
	u := &unjudged{a: a, d: d, native: native, ev: ev, budget: budget}
	ctx, w := watchdog.Start(ctx, budget, u.deny)
	return ctx, w, u
}

// seen hands the watchdog the environment, for the audit line of its deny.
func (u *unjudged) seen(env *hookenv.Env) {
	if u != nil {
		u.env.Store(env)
	}
}

// deny answers for a judgement still running: it kills what the
// judgement started (git, in process groups of their own, which would
// outlive the hook), answers with the CLI's own deny and why, writes an
// audit line, and ends the process. An answer that cannot be written
// falls back on exit 2 and why on stderr, which every CLI takes as a
// block.
func (u *unjudged) deny() {
	proc.KillAll()
	late := &protocol.UnjudgedError{After: u.budget}
	out := protocol.Deny("⚠️ BLOCKED (not judged in time): " + late.Error() +
		", and what the guards cannot judge in time does not run. Split the command into simpler ones.")
	out.SystemMessage = "massgen-hook: blocked a tool call the guards did not finish judging within guard_timeout (" + u.budget.String() + ")."
	if _, err := u.d.Answer(u.a.stdout, u.a.stderr, u.native, protocol.PreToolUse, out); err != nil {
		failure := &hookFailure{event: protocol.PreToolUse, dialect: u.d, err: late}
		report(u.a.stderr, failure)
		Exit(exitCode(failure))
		return
	}
	if env := u.env.Load(); env != nil && !env.DryRun {
		// Only the input's size: the input may be what takes so long.
		rec := engine.AuditRecord{Time: env.Now.UTC().Format(time.RFC3339Nano), Event: protocol.PreToolUse,
			Session: u.ev.SessionID, Agent: env.Agent, Tool: u.ev.ToolName, ToolUseID: u.ev.ToolUseID,
			InputBytes: len(u.ev.ToolInput), Decision: engine.Deny, Reason: out.HookSpecificOutput.PermissionDecisionReason}
		if err := env.State.AuditLine(rec); err != nil {
			report(u.a.stderr, err)
		}
	}
	Exit(protocol.ExitOK) // the judgement is still running: it cannot be waited for
}

// denyUnreadable answers a pre-tool-use whose event cannot be read for
// a reason the agent controls (its input nested past MaxDepth: see
// protocol.Unreadable) with the CLI's own deny, as the watchdog does: an
// exit 2 blocks too, but some CLIs then give the model only "exit code
// 2", and some plugins pass the message on without marking the call as
// denied. It reports whether it answered; when it did not, the caller
// fails as usual (exit 2).
func (a *app) denyUnreadable(event string, d *dialect.Dialect, native dialect.Native, err error) bool {
	if event != protocol.PreToolUse || !protocol.Unreadable(err, event) || native.Event == "" {
		return false
	}
	out := protocol.Deny(fmt.Sprintf("⚠️ BLOCKED (input cannot be read): the tool call's input nests arrays or objects more than %d levels deep, "+
		"and the guards cannot judge what they cannot read. Pass the tool flatter input.", protocol.MaxEventDepth))
	out.SystemMessage = "massgen-hook: blocked a tool call whose input nests too deep to be read."
	_, werr := d.Answer(a.stdout, a.stderr, native, event, out)
	return werr == nil
}

// stopJudgement stops the guards' time before the answer. When the
// watchdog has fired, it is answering and exiting, and the hook must not
// answer as well: the caller waits here for the exit.
func stopJudgement(w *watchdog.Watchdog) {
	if w != nil && !w.Stop() {
		select {}
	}
}

// judgementMemory caps the data of a pre-tool-use process (memcap): a
// hook the kernel kills for memory lets the call go ahead, one the Go
// runtime ends for it exits 2 and blocks. Judging an 8 MB tool input
// peaks under 100 MiB; the runtime's own mappings are about 80 MiB.
const judgementMemory = 1 << 30

// CapMemory lets pre-tool-use cap its process's memory (judgementMemory).
// Only a program whose process is the hook's alone sets it (the binary's
// main), not a test running hooks in its own process.
var CapMemory bool

// Exit ends the process with a code when a hook answers while its
// judgement still runs (guardJudgement), which cannot return from Main.
// A program running Main may put its own first, to see the code.
var Exit = os.Exit
