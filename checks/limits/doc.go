// Package limits decides what a session or an agent may still do, from
// the state it keeps per session and agent: budget (calls to costly tools,
// pre-tool-use), smart_retry (a call that keeps failing the same way,
// every tool hook), round_timeout (the time an agent spends on one round,
// pre- and post-tool-use; StartRound and WrapUp for `massgen-hook round`)
// and debug_delay (slows an agent once, pre-tool-use).
package limits
