package cli

import (
	"context"
	"os"
	"time"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/internal/watchdog"
	"github.com/massgen/massgen-hook/protocol"
)

// guardJudgement starts the guards' time (guard_timeout) on a tool call
// pre-tool-use judges, past which the call is blocked from the watchdog's
// goroutine while the judgement still runs: a CLI whose hook outlasts its
// timeout lets the call go ahead unjudged. Other hooks fail safe when
// late: a permission-request that times out leaves the CLI's own prompt
// to the user. The watchdog is nil for them, and in a replay, which has
// no CLI waiting for it. Stop it (stopJudgement) before answering.
func (a *app) guardJudgement(ctx context.Context, event string, d *dialect.Dialect, cfg *config.Config) (context.Context, *watchdog.Watchdog) {
	if event != protocol.PreToolUse || a.sandbox != "" {
		return ctx, nil
	}
	budget := time.Duration(cfg.GuardTimeout)
	return watchdog.Start(ctx, budget, func() {
		err := &hookFailure{event: event, dialect: d, err: &protocol.UnjudgedError{After: budget}}
		report(a.stderr, err)
		Exit(exitCode(err)) // the judgement is still running: it cannot be waited for
	})
}

// Exit ends the process with a code when a hook answers while its
// judgement still runs (guardJudgement), which cannot return from Main.
// A program running Main may put its own first, to see the code.
var Exit = os.Exit

// stopJudgement stops the guards' time before the answer. When the
// watchdog has fired, it is answering and exiting, and the hook must not
// answer as well: the caller waits here for the exit.
func stopJudgement(w *watchdog.Watchdog) {
	if w != nil && !w.Stop() {
		select {}
	}
}
