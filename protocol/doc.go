// Package protocol is Claude Code's command-hook wire format: it reads one hook
// event from standard input and writes one hook output to standard output, in
// exactly the shapes Claude Code's Agent SDK publishes.
//
// It is usable on its own by anyone writing a hook in Go:
//
//	ev, err := protocol.ReadEvent(os.Stdin, protocol.PreToolUse)
//	if err != nil {
//		fmt.Fprintln(os.Stderr, "my-hook:", err)
//		os.Exit(protocol.ExitCode(err, protocol.PreToolUse, false))
//	}
//	out := protocol.Deny("use the project's formatter instead")
//	if err := protocol.Write(os.Stdout, ev.HookEventName, out); err != nil { ... }
//
// The rules it enforces are the ones real toolkits got wrong: decisions live
// inside hookSpecificOutput with the right hookEventName, "no opinion" is
// silence and never "allow", output strings are capped at 10,000 characters
// with a visible marker, and the exit code is decided in one place (ExitCode).
package protocol
