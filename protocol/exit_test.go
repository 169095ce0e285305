package protocol

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestExitCode(t *testing.T) {
	blocking := []string{PreToolUse, PostToolUse, PermissionRequest, UserPromptSubmit, Stop, SubagentStop}
	nonBlocking := []string{PostToolUseFailure, Notification, SubagentStart, SessionStart, SessionEnd, PreCompact, "", "Unknown"}
	fail := errors.New("boom")
	type tc struct {
		err        error
		event      string
		failClosed bool
		want       int
	}
	var tests []tc
	for _, ev := range blocking {
		tests = append(tests,
			tc{nil, ev, false, ExitOK},
			tc{nil, ev, true, ExitOK},
			tc{fail, ev, false, ExitError},
			tc{fail, ev, true, ExitBlock},
			tc{&InputError{Msg: "x"}, ev, true, ExitBlock},
		)
	}
	for _, ev := range nonBlocking {
		tests = append(tests,
			tc{nil, ev, false, ExitOK},
			tc{nil, ev, true, ExitOK},
			tc{fail, ev, false, ExitError},
			tc{fail, ev, true, ExitError},
		)
	}
	// A tool call nested past MaxDepth blocks whatever fail_closed says; a
	// deep event of any other kind, or any other bad input, fails open.
	// So does one the guards did not finish judging in their time.
	deep := &InputError{Msg: "deep", TooDeep: true}
	late := &UnjudgedError{After: 8 * time.Second}
	for _, ev := range []string{PreToolUse, PermissionRequest} {
		tests = append(tests,
			tc{deep, ev, false, ExitBlock},
			tc{late, ev, false, ExitBlock},
			tc{fmt.Errorf("judging: %w", late), ev, false, ExitBlock},
			tc{fmt.Errorf("reading: %w", deep), ev, false, ExitBlock},
			tc{&InputError{Msg: "not JSON"}, ev, false, ExitError},
		)
	}
	for _, ev := range []string{PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStop, SessionStart, ""} {
		tests = append(tests, tc{deep, ev, false, ExitError}, tc{late, ev, false, ExitError})
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/err=%v/failClosed=%v", tt.event, tt.err, tt.failClosed), func(t *testing.T) {
			if got := ExitCode(tt.err, tt.event, tt.failClosed); got != tt.want {
				t.Errorf("ExitCode = %d, want %d", got, tt.want)
			}
		})
	}
	if ExitOK != 0 || ExitError != 1 || ExitBlock != 2 {
		t.Error("exit code constants changed")
	}
}

func TestCanBlock(t *testing.T) {
	for ev, want := range map[string]bool{
		PreToolUse: true, PostToolUse: true, PermissionRequest: true, UserPromptSubmit: true, Stop: true, SubagentStop: true,
		PostToolUseFailure: false, Notification: false, SubagentStart: false, SessionStart: false, SessionEnd: false, PreCompact: false,
	} {
		if got := CanBlock(ev); got != want {
			t.Errorf("CanBlock(%s) = %v, want %v", ev, got, want)
		}
	}
}
