// Command linked is a second yardstick: it does what bench/deps does (reads
// the event, checks it is JSON, prints "{}") in a binary that links all of
// massgen-hook's code too, which it does not run. Its ratio to bench/deps is
// what the size of massgen-hook's binary costs on its own, before any of
// that code runs: mapping more text and data, and the package
// initialisation spread over it. `make bench` reports it as a row without a
// target, beside the hooks' ratios to bench/deps.
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/massgen/massgen-hook/cli"
)

func main() {
	// Never true in a benchmark; the linker cannot know that, so it keeps
	// every subcommand's code.
	if len(os.Args) > 1 && os.Args[1] == "--run-massgen-hook" {
		os.Exit(cli.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	in, _ := io.ReadAll(os.Stdin)
	_ = json.Valid(in)
	_, _ = os.Stdout.WriteString("{}\n")
}
