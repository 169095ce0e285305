package cli

import (
	"context"

	"github.com/massgen/massgen-hook/checks"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/checks/lifecycle"
	"github.com/massgen/massgen-hook/protocol"
)

func sessionStartHook() hookSpec {
	return hookSpec{
		use:   "session-start",
		short: "SessionStart hook: open a fresh session already oriented",
		long: `On source "startup" only, adds to the session's context the newest coordinator
scratchpad (last 25 lines), the newest ego assessment (last 20 lines) and
git log --oneline -5. Resume, clear and compact get no output. Fails open.`,
		example: `  echo '{"hook_event_name":"SessionStart","source":"startup"}' | massgen-hook session-start`,
		event:   protocol.SessionStart,
		decide:  lifecycle.SessionStart,
	}
}

func subagentStartHook() hookSpec {
	return hookSpec{
		use:   "subagent-start",
		short: "SubagentStart hook: tell a new subagent where and what to write",
		long: `Adds to the subagent's context today's date, its scratchpad path, the
required headings, and the last lines of the newest ego and coordinator
scratchpads.`,
		example: `  echo '{"hook_event_name":"SubagentStart","agent_type":"spec-writer"}' | massgen-hook subagent-start`,
		event:   protocol.SubagentStart,
		decide:  withoutContext(lifecycle.SubagentStart),
	}
}

func subagentStopHook() hookSpec {
	return hookSpec{
		use:   "subagent-stop",
		short: "SubagentStop hook: block until the subagent's scratchpad is complete",
		long: `Blocks the subagent from finishing until .claude/scratchpad/<agent>/<today>.md
exists with every required heading. After 3 blocks in a row it lets the agent
go with a warning, so it can never trap the session.`,
		example: `  echo '{"hook_event_name":"SubagentStop","agent_type":"spec-writer"}' | massgen-hook subagent-stop`,
		event:   protocol.SubagentStop,
		decide:  withoutContext(lifecycle.SubagentStop),
	}
}

func stopHook() hookSpec {
	return hookSpec{
		use:   "stop",
		short: "Stop hook: block until the coordinator logged what it delegated",
		long: `If any subagent wrote a scratchpad today (coordinator/ and ego/ excluded), the
session cannot end until .claude/scratchpad/coordinator/<today>.md exists.
After 3 blocks in a row it lets the session end with a warning.`,
		example: `  echo '{"hook_event_name":"Stop"}' | massgen-hook stop`,
		event:   protocol.Stop,
		decide:  withoutContext(lifecycle.Stop),
	}
}

func permissionRequestHook() hookSpec {
	return hookSpec{
		use:   "permission-request",
		short: "PermissionRequest hook: let an agent write its own scratchpad without a prompt",
		long: `Claude Code asks before every write under .claude/, even for an allowed tool;
headless nobody can answer. This answers allow for exactly one file: the
calling agent's own scratchpad for today (the main thread's is the
coordinator's), written with Write, Edit or MultiEdit, judged as the kernel
resolves the path (no symlink, ".." or hard link leads elsewhere). Every
other request gets no opinion, so Claude Code asks as usual.`,
		example: `  echo '{"hook_event_name":"PermissionRequest","agent_id":"a1","agent_type":"spec-writer","tool_name":"Write","tool_input":{"file_path":"'$PWD'/.claude/scratchpad/spec-writer/'$(date +%F)'.md"}}' | massgen-hook permission-request`,
		event:   protocol.PermissionRequest,
		decide:  withoutContext(lifecycle.PermissionRequest),
	}
}

func preToolUseHook() hookSpec {
	return hookSpec{
		use:   "pre-tool-use",
		short: "PreToolUse hook: run the configured rules before a tool call",
		long: `Runs the PreToolUse rules that match the tool (global ones, then the agent's
own) in order: the first deny wins and ends the chain, a rewritten input
passes to the next rule, ask holds unless a deny follows. With no matching
rule it gives no opinion: silence, never "allow". See "massgen-hook explain".`,
		example: `  echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' | massgen-hook pre-tool-use
  massgen-hook pre-tool-use --agent reviewer < event.json`,
		event:     protocol.PreToolUse,
		decide:    checks.ToolUse,
		toolRules: true,
	}
}

func postToolUseHook() hookSpec {
	return hookSpec{
		use:   "post-tool-use",
		short: "PostToolUse hook: run the configured rules after a tool call",
		long: `Runs every PostToolUse rule that matches the tool, in order, and passes on
everything they inject, each in its own strategy. Reads the event whole,
however large its tool_response.`,
		example:   `  echo '{"hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{},"tool_response":{}}' | massgen-hook post-tool-use`,
		event:     protocol.PostToolUse,
		decide:    checks.ToolUse,
		toolRules: true,
	}
}

func postToolUseFailureHook() hookSpec {
	return hookSpec{
		use:   "post-tool-use-failure",
		short: "PostToolUseFailure hook: run the configured rules after a failed tool call",
		long: `Runs every PostToolUseFailure rule that matches the tool, in order (smart_retry
counts the failure here). What they inject reaches the agent as additional
context; a failed call has nothing left to block.`,
		example:   `  echo '{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"make"},"error":"Exit code 2"}' | massgen-hook post-tool-use-failure`,
		event:     protocol.PostToolUseFailure,
		decide:    checks.ToolUse,
		toolRules: true,
	}
}

func withoutContext(f func(*hookenv.Env, *protocol.Event) (protocol.Output, error)) func(context.Context, *hookenv.Env, *protocol.Event) (protocol.Output, error) {
	return func(_ context.Context, env *hookenv.Env, ev *protocol.Event) (protocol.Output, error) {
		return f(env, ev)
	}
}
