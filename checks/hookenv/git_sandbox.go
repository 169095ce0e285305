package hookenv

import "sync/atomic"

// gitSandbox, when set, wraps the argv of every git command the guards run
// (see SetGitSandbox).
var gitSandbox atomic.Pointer[func(argv []string) []string]

// SetGitSandbox makes every git command the guards run go through wrap,
// which returns the argv that runs it (nil: run git as it is). Where an
// agent's shell commands are confined, a command may still write a
// repository's configuration in the project (a filter, an fsmonitor, a
// diff driver), and git runs what that configuration names: run by the
// hooks unconfined, it would run with the hooks' rights. The caller wraps
// git in a read-only sandbox instead.
func SetGitSandbox(wrap func(argv []string) []string) {
	if wrap == nil {
		gitSandbox.Store(nil)
		return
	}
	gitSandbox.Store(&wrap)
}

// gitArgv is git's path and arguments, through the sandbox when one is set.
func gitArgv(args []string) (string, []string) {
	if w := gitSandbox.Load(); w != nil {
		if argv := (*w)(append([]string{"git"}, args...)); len(argv) > 0 {
			return argv[0], argv[1:]
		}
	}
	return "git", args
}
