// Command massgen-hook is a hook toolkit for AI coding agents: Claude Code
// runs it as command hooks, people run it from a shell, and CI runs its check.
package main

import (
	"os"
	"path/filepath"

	"github.com/massgen/massgen-hook/cli"
)

// Started as massgen-hook-shell (a copy init installs), the binary is
// Claude Code's CLAUDE_CODE_SHELL_PREFIX: it runs the one shell command it
// is given, confined (see package confine).
func main() {
	growStack(len(os.Args))
	if filepath.Base(os.Args[0]) == cli.ShellPrefixName {
		os.Exit(cli.ShellPrefixMain(os.Args[1:]))
	}
	cli.CapMemory = true // the process is the hook's alone
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
