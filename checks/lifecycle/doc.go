// Package lifecycle decides the hooks around a turn, where the scratchpad
// protocol is kept: session-start (SessionStart: the newest coordinator
// scratchpad, the ego assessment, the last commits), subagent-start
// (SubagentStart: the protocol, told before the subagent works),
// subagent-stop (SubagentStop: its scratchpad for today, written since it
// started), stop (Stop: the coordinator's log of what this session
// delegated) and permission-request (PermissionRequest: the one write the
// protocol needs). The subagent ledger it keeps per session is also
// stamped by the post-tool-use hook, for a CLI whose delegation tool fires
// no subagent events (RecordDelegation). Stops are capped, so no agent is
// held forever.
package lifecycle
