package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/protocol"
)

// hookFailure is any error of a hook subcommand. For a hook the exit code is
// the protocol, so the event and the fail-closed setting travel with it.
type hookFailure struct {
	event      string
	failClosed bool
	// dialect maps the exit status to the CLI that ran the hook; nil is
	// Claude Code.
	dialect *dialect.Dialect
	err     error
}

func (e *hookFailure) Error() string { return e.err.Error() }
func (e *hookFailure) Unwrap() error { return e.err }

// usageError is a mistake in the command line of a non-hook command, or a
// setup it cannot work with (exit 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// errViolations says `check` found protocol violations; the report is
// already printed, so nothing more is said.
var errViolations = errors.New("scratchpad protocol violations found")

// exitCode is the one place that maps an error to the process exit code.
func exitCode(err error) int {
	var hook *hookFailure
	var usage *usageError
	var cfg *config.Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &hook):
		code := protocol.ExitCode(hook.err, hook.event, hook.failClosed)
		if hook.dialect != nil {
			code = hook.dialect.Exit(code, hook.event)
		}
		return code
	case errors.Is(err, errViolations):
		return 1
	case errors.Is(err, errNotSetUp):
		return 3
	case errors.As(err, &usage), errors.As(err, &cfg):
		return 2
	default:
		return 1
	}
}

// report prints err for a person: one line per problem, each starting
// "massgen-hook:". A fail-closed hook says so, since its exit 2 blocks.
func report(w io.Writer, err error) {
	if err == nil || errors.Is(err, errViolations) || errors.Is(err, errNotSetUp) {
		return
	}
	msg := err.Error()
	var hook *hookFailure
	if errors.As(err, &hook) && exitCode(err) == protocol.ExitBlock {
		var late *protocol.UnjudgedError
		switch {
		case errors.As(hook.err, &late):
			msg += " (the tool call is blocked: what the guards cannot judge in time does not run; split the command into simpler ones)"
		case protocol.Unreadable(hook.err, hook.event):
			msg += " (the tool call is blocked: the guards cannot judge what they cannot read)"
		default:
			msg += " (blocked because fail_closed is set)"
		}
	}
	for _, line := range strings.Split(msg, "\n") {
		fmt.Fprintln(w, "massgen-hook: "+line)
	}
}
