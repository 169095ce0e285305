package doctor

import (
	"fmt"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/internal/suggest"
)

// Events are the hook events Claude Code fires: HOOK_EVENTS of
// @anthropic-ai/claude-agent-sdk 0.3.329 (sdk.d.ts), the SDK version
// ../shared/tools/sdk-typecheck checks against. This is the one list doctor
// knows; a name not in it never fires.
var Events = []string{
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch",
	"Notification", "UserPromptSubmit", "UserPromptExpansion",
	"SessionStart", "SessionEnd", "Stop", "StopFailure",
	"SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
	"PreModelSwitch", "PostModelSwitch", "PermissionRequest", "PermissionDenied",
	"Setup", "TeammateIdle", "TaskCreated", "TaskCompleted",
	"Elicitation", "ElicitationResult", "ConfigChange",
	"WorktreeCreate", "WorktreeRemove", "InstructionsLoaded",
	"CwdChanged", "FileChanged", "DirectoryAdded", "MessageDisplay",
}

// matcherIgnored are the events whose matcher Claude Code ignores.
var matcherIgnored = &lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{"Stop": true, "UserPromptSubmit": true} }}

// StopEvents are the events whose block makes the agent go on, so a
// handler that blocks needs a loop guard.
var StopEvents = &lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{"Stop": true, "SubagentStop": true} }}

// IsEvent reports whether name is an event Claude Code fires.
func IsEvent(name string) bool {
	for _, e := range Events {
		if e == name {
			return true
		}
	}
	return false
}

// CheckEvent checks an event name of "hooks".
func CheckEvent(name string) []Issue {
	if IsEvent(name) {
		return nil
	}
	msg := fmt.Sprintf("%q is not a Claude Code hook event, so its handlers never run", name)
	if s := SuggestEvent(name); s != "" {
		return []Issue{problem(msg + fmt.Sprintf("; did you mean %q?", s))}
	}
	return []Issue{problem(msg + "; the events are " + strings.Join(Events[:12], ", ") + ", ...")}
}

// SuggestEvent is the known event name closest to name: one that differs
// only in case, else one at edit distance 1 (case ignored); "" if none.
func SuggestEvent(name string) string { return closest(name, Events, false) }

// Suggest is the word of known closest to name: one that differs only in
// case, else one at edit distance 1 (case ignored), else one name begins
// (three letters or more); "" if none.
func Suggest(name string, known []string) string { return closest(name, known, true) }

func closest(name string, known []string, prefix bool) string {
	for _, e := range known {
		if strings.EqualFold(e, name) {
			return e
		}
	}
	lower := strings.ToLower(name)
	for _, e := range known {
		if suggest.Distance(lower, strings.ToLower(e)) == 1 {
			return e
		}
	}
	for _, e := range known {
		if prefix && len(lower) >= 3 && strings.HasPrefix(strings.ToLower(e), lower) {
			return e
		}
	}
	return ""
}
