package protocol

import "github.com/massgen/massgen-hook/internal/lazy"

// Hook event names, as Claude Code spells them in hook_event_name.
const (
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	PermissionRequest  = "PermissionRequest"
	UserPromptSubmit   = "UserPromptSubmit"
	Notification       = "Notification"
	Stop               = "Stop"
	SubagentStart      = "SubagentStart"
	SubagentStop       = "SubagentStop"
	SessionStart       = "SessionStart"
	SessionEnd         = "SessionEnd"
	PreCompact         = "PreCompact"
)

// canBlock lists the events whose action a hook can stop, by a JSON decision
// or by exit code 2. On the others exit 2 only shows stderr to the user.
var canBlock = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		PreToolUse:        true,
		PostToolUse:       true,
		PermissionRequest: true,
		UserPromptSubmit:  true,
		Stop:              true,
		SubagentStop:      true,
	}
}}

// CanBlock reports whether a hook can block the action behind event.
func CanBlock(event string) bool { return canBlock.Get()[event] }

// takesTopLevelBlock lists the events where `decision: "block"` + `reason` at
// the top level is the current (not deprecated) way to block. PreToolUse
// blocks through hookSpecificOutput.permissionDecision instead.
var takesTopLevelBlock = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		PostToolUse:      true,
		UserPromptSubmit: true,
		Stop:             true,
		SubagentStop:     true,
	}
}}

// takesContext lists the events whose hookSpecificOutput carries additionalContext.
var takesContext = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		PreToolUse:         true,
		PostToolUse:        true,
		PostToolUseFailure: true,
		UserPromptSubmit:   true,
		Stop:               true,
		SubagentStart:      true,
		SubagentStop:       true,
		SessionStart:       true,
	}
}}
