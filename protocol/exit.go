package protocol

import (
	"errors"
	"fmt"
	"time"
)

// Exit codes. For a hook the exit code is the protocol: 0 means "read my
// stdout" (or no opinion), 2 blocks where the event can be blocked, and any
// other code is a non-blocking error: the action proceeds and the user sees
// the first line of stderr.
const (
	ExitOK    = 0
	ExitError = 1
	ExitBlock = 2
)

// ExitCode is the one place that turns a hook's failure into an exit code.
// A nil err is ExitOK (the answer is on stdout). A failure is ExitError, so
// the agent proceeds (fail open), unless the hook is configured fail-closed
// and event can be blocked, or the failure is a tool call the guards cannot
// read (Unreadable): then ExitBlock, because a hook that failed has no
// trustworthy JSON to block with.
func ExitCode(err error, event string, failClosed bool) int {
	switch {
	case err == nil:
		return ExitOK
	case failClosed && CanBlock(event), Unreadable(err, event):
		return ExitBlock
	default:
		return ExitError
	}
}

// Unreadable says err is a tool call the guards could not judge: the
// agent nested its input past MaxDepth, or the judgement outlasted the
// guards' time (UnjudgedError). The agent writes that input, so it can
// shape it on purpose to have the guards fail open, or to outlast the
// CLI's timeout, after which the call goes ahead unjudged; such a call is
// blocked whatever fail_closed says. No tool needs input nested that deep,
// and no everyday command takes more than milliseconds to judge.
func Unreadable(err error, event string) bool {
	if event != PreToolUse && event != PermissionRequest {
		return false
	}
	var in *InputError
	var late *UnjudgedError
	return errors.As(err, &in) && in.TooDeep || errors.As(err, &late)
}

// UnjudgedError says the guards had not finished judging a tool call when
// their time (guard_timeout) was up.
type UnjudgedError struct{ After time.Duration }

func (e *UnjudgedError) Error() string {
	return fmt.Sprintf("the guards did not finish judging this tool call within guard_timeout (%s)", e.After)
}
