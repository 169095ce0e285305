// Command floor is the floor: the smallest static Go program a hook could be.
//
// It reads all of standard input, checks that it is valid JSON and answers
// "{}" followed by a newline, and does nothing else. Every massgen-hook
// subcommand must do at least this much, so the floor is the reference each
// subcommand's whole-process cost is compared with: the bench harness runs the
// floor and a subcommand alternately and reports the ratio of their median
// wall times. Whatever a subcommand costs above the floor is its own doing;
// what the floor costs (process start, Go runtime start, reading stdin) no
// hook written in Go can avoid.
//
// The verdict of the JSON check is deliberately not acted on: a hook answers
// "{}" whatever it receives, so the floor always exits 0. The check is there so
// that the floor pays for looking at its input, as every real subcommand must.
//
// Build it the way massgen-hook is built:
//
//	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/floor ./bench/floor
package main

import (
	"encoding/json"
	"io"
	"os"
)

func main() {
	in, _ := io.ReadAll(os.Stdin)
	_ = json.Valid(in)
	_, _ = os.Stdout.WriteString("{}\n")
}
