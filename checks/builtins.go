package checks

import (
	"github.com/massgen/massgen-hook/checks/aftertool"
	"github.com/massgen/massgen-hook/checks/guard"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/checks/limits"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
)

var (
	pre          = []string{protocol.PreToolUse}
	post         = []string{protocol.PostToolUse}
	preAndPost   = []string{protocol.PreToolUse, protocol.PostToolUse}
	everyOutcome = []string{protocol.PreToolUse, protocol.PostToolUse, protocol.PostToolUseFailure}
	afterTool    = []string{protocol.PostToolUse, protocol.PostToolUseFailure}
)

// Builtins are the checks a rule can name with type: builtin. The default
// guards come first, in the order they run: a malformed call is not worth
// validating, an invalid one not worth parsing, and a dangerous command
// deserves its own message before the generic one of a protected path.
// After a call, secrets are masked in the output before any other rule
// (or the model) reads it.
// The inbox is a default too, but a feature, not a guard: it is the first
// rule after every call, so its messages lead the context and a long
// answer never cuts them.
func Builtins() engine.Registry {
	return engine.Registry{
		{Name: "malformed_tool_call", New: guard.NewMalformedToolCall, Events: pre, Default: true, Guard: true},
		{Name: "tool_schema", New: guard.NewToolSchema, Events: pre, Default: true, Guard: true},
		{Name: "dangerous_commands", New: guard.NewDangerousCommands, Events: pre, Default: true, Guard: true},
		{Name: "protected_paths", New: guard.NewProtectedPaths, Events: pre, Default: true, Guard: true},
		{Name: "redact_secrets", New: aftertool.NewRedactSecrets, Events: post, Default: true, Guard: true},
		{Name: "inbox", New: hookenv.NewInbox, Events: afterTool, Default: true},
		{Name: "budget", New: limits.NewBudget, Events: pre},
		{Name: "smart_retry", New: limits.NewSmartRetry, Events: everyOutcome},
		{Name: "round_timeout", New: limits.NewRoundTimeout, Events: preAndPost},
		{Name: "debug_delay", New: limits.NewDebugDelay, Events: pre},
		{Name: "high_priority_task_reminder", New: hookenv.NoOptions(engine.BuiltinFunc(aftertool.TaskReminder)), Events: post},
		{Name: "output_validation", New: aftertool.NewOutputValidation, Events: afterTool},
		{Name: "injection_shield", New: aftertool.NewInjectionShield, Events: post},
		{Name: "observe", New: aftertool.NewObserve, Events: post},
	}
}
