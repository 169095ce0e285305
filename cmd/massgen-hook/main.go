// Command massgen-hook is a hook toolkit for AI coding agents: Claude Code
// runs it as command hooks, people run it from a shell, and CI runs its check.
package main

import (
	"os"

	"github.com/massgen/massgen-hook/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
