// Package checks is what each hook decides for an event, given the
// project's files and configuration. It keeps the registry of built-in
// checks a rule can name (Builtins, in the order the default guards run)
// and ToolUse, which the pre-tool-use, post-tool-use and
// post-tool-use-failure hooks call to run the rules; the checks themselves
// live in one package per hook phase:
//
//   - guard: before a tool runs (pre-tool-use): malformed calls, tool input
//     schemas, dangerous shell commands, protected paths.
//   - lifecycle: the hooks around a turn (session-start, subagent-start,
//     subagent-stop, stop, permission-request): the scratchpad protocol.
//   - aftertool: after a tool ran (post-tool-use, post-tool-use-failure):
//     output validation, the injection shield, the observers, the task
//     reminder.
//   - limits: what a session or an agent may still do: the budget, smart
//     retry, the round timeout, the debug delay.
//
// They all work on hookenv, which holds what they share (the hook's Env,
// the notices, the inbox, options, git) and imports none of them. Checks
// never read os.Stdin, the real clock or the process environment:
// everything comes in through hookenv.Env or engine.Call, so a test can
// pin it.
package checks
