package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/protocol"
)

// TestExitCode pins the one mapping from errors to exit codes. For a hook the
// code is the protocol: 1 lets the agent proceed, 2 blocks.
func TestExitCode(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"success", nil, 0},
		{"hook failure, fail open", &hookFailure{event: protocol.SubagentStop, err: boom}, 1},
		{"hook failure, fail closed, blocking event", &hookFailure{event: protocol.SubagentStop, failClosed: true, err: boom}, 2},
		{"hook failure, fail closed, PreToolUse", &hookFailure{event: protocol.PreToolUse, failClosed: true, err: boom}, 2},
		{"hook failure, fail closed, event that cannot block", &hookFailure{event: protocol.SessionStart, failClosed: true, err: boom}, 1},
		{"hook failure wrapping a config error stays a hook failure", &hookFailure{event: protocol.Stop, err: &config.Error{Path: "c.yaml", Msg: "x"}}, 1},
		{"wrapped hook failure", fmt.Errorf("ctx: %w", &hookFailure{event: protocol.Stop, failClosed: true, err: boom}), 2},
		{"check violations", errViolations, 1},
		{"usage error", &usageError{err: boom}, 2},
		{"config error outside a hook", &config.Error{Path: "c.yaml", Line: 3, Msg: "x"}, 2},
		{"anything else", boom, 1},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("%s: exitCode = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestReport: one line per problem, each prefixed; a fail-closed block says
// why it blocked; violations print nothing (the report is on stdout).
func TestReport(t *testing.T) {
	var b bytes.Buffer
	report(&b, errors.Join(errors.New("first"), errors.New("second")))
	if got := b.String(); got != "massgen-hook: first\nmassgen-hook: second\n" {
		t.Errorf("report of two problems = %q", got)
	}
	b.Reset()
	report(&b, &hookFailure{event: protocol.Stop, failClosed: true, err: errors.New("bad")})
	if got := b.String(); !strings.HasSuffix(got, "(blocked because fail_closed is set)\n") {
		t.Errorf("fail-closed report = %q", got)
	}
	b.Reset()
	report(&b, errViolations)
	report(&b, nil)
	if b.Len() != 0 {
		t.Errorf("report printed %q for violations or nil", b.String())
	}
}
