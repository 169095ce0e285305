// Package guard decides whether a tool call may run: the default guards
// the pre-tool-use hook runs, in this order: malformed_tool_call (a call
// not worth validating), tool_schema (the input against the tool's
// schema), dangerous_commands (what a Bash command would do, read as bash
// reads it, rule by rule) and protected_paths (the files a call would read
// or write, as the kernel resolves them). A guard denies with the reason
// and what to do instead; a command it cannot read fails closed (rule
// unparsable) unless a rule is told to let it through.
package guard
