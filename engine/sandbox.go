package engine

import "sync/atomic"

// handlerSandbox, when set, wraps the argv of every command rule's handler
// (see SetHandlerSandbox).
var handlerSandbox atomic.Pointer[func(argv []string) []string]

// SetHandlerSandbox makes every command rule's handler run through wrap,
// which returns the argv that runs it (nil: run it as it is). Where an
// agent's shell commands are confined, a command may still rewrite what a
// rule runs (a script in the project named as an interpreter's argument,
// a Makefile a shell: rule makes, a module the handler imports): run by
// the hooks unconfined, it would run with the hooks' rights. The caller
// confines the handler as the agent's own commands are confined instead.
func SetHandlerSandbox(wrap func(argv []string) []string) {
	if wrap == nil {
		handlerSandbox.Store(nil)
		return
	}
	handlerSandbox.Store(&wrap)
}

// sandboxed is the argv that runs path with args, through the sandbox
// when one is set; nil when there is none.
func sandboxed(path string, args []string) []string {
	w := handlerSandbox.Load()
	if w == nil {
		return nil
	}
	return (*w)(append([]string{path}, args...))
}
