// Command scripthook is massgen-hook as cmd/massgen-hook's testscripts run
// it: the same program (cli.Main, or the shell prefix when started under
// that name), which also leaves its exit code where the scripts' `status`
// command reads it.
//
// The scripts run it thousands of times. Built on its own it starts like
// the release binary; the test binary standing in for it, as testscript
// offers, would also start a NATS server's, testscript's and the tests'
// packages in every one of those processes, and cost about twice the CPU.
package main

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/massgen/massgen-hook/cli"
)

// statusFileEnv names the file the exit code goes to (the scripts'
// environment sets it; cmd/massgen-hook's statusFileEnv is the same name).
const statusFileEnv = "MASSGEN_HOOK_TEST_STATUS_FILE"

func main() {
	if filepath.Base(os.Args[0]) == cli.ShellPrefixName {
		os.Exit(cli.ShellPrefixMain(os.Args[1:]))
	}
	cli.Exit = exit // a hook's watchdog ends the process from its own goroutine
	cli.CapMemory = true
	exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exit leaves code for `status`, then exits with it. A detached worker (a
// session leader: detach uses setsid) inherits the environment; its exit
// code must not overwrite the hook's that `status` reads. A code that
// cannot be written is caught by `status`, which then finds none.
func exit(code int) {
	if f := os.Getenv(statusFileEnv); f != "" && !detached() {
		_ = os.WriteFile(f, []byte(strconv.Itoa(code)), 0o644)
	}
	os.Exit(code)
}

// detached reports whether this process leads its own session, as a child
// started by massgen-hook's detach does.
func detached() bool {
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	return errno == 0 && int(sid) == os.Getpid()
}
