// Package aftertool decides what follows a tool call that ran, in the
// post-tool-use and post-tool-use-failure hooks: output_validation (hints
// when a call returned nothing, cut-off JSON or the same error twice),
// injection_shield (warns, or blocks, when a web, search or MCP output
// holds prompt-injection text), observe (keeps work products and search
// results, copied later by `massgen-hook observe-run`, RunObserverJob) and
// high_priority_task_reminder (MassGen's reminder to write down what a
// finished high-priority task taught).
package aftertool
