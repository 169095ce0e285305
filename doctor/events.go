package doctor

import (
	"fmt"
	"strings"
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
var matcherIgnored = map[string]bool{"Stop": true, "UserPromptSubmit": true}

// StopEvents are the events whose block makes the agent go on, so a
// handler that blocks needs a loop guard.
var StopEvents = map[string]bool{"Stop": true, "SubagentStop": true}

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
func SuggestEvent(name string) string { return suggest(name, Events, false) }

// Suggest is the word of known closest to name: one that differs only in
// case, else one at edit distance 1 (case ignored), else one name begins
// (three letters or more); "" if none.
func Suggest(name string, known []string) string { return suggest(name, known, true) }

func suggest(name string, known []string, prefix bool) string {
	for _, e := range known {
		if strings.EqualFold(e, name) {
			return e
		}
	}
	lower := strings.ToLower(name)
	for _, e := range known {
		if editDistanceOne(lower, strings.ToLower(e)) {
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

// editDistanceOne reports whether a becomes b by one insertion, deletion,
// substitution, or swap of two neighbouring characters.
func editDistanceOne(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	switch len(rb) - len(ra) {
	case 0:
		var diff []int
		for i := range ra {
			if ra[i] != rb[i] {
				diff = append(diff, i)
			}
		}
		switch len(diff) {
		case 1:
			return true
		case 2:
			i, j := diff[0], diff[1]
			return j == i+1 && ra[i] == rb[j] && ra[j] == rb[i]
		}
		return false
	case 1:
		i := 0
		for i < len(ra) && ra[i] == rb[i] {
			i++
		}
		return string(ra[i:]) == string(rb[i+1:])
	}
	return false
}
