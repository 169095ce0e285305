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
// With -spawn PROGRAM the floor also runs PROGRAM once, feeding it the event
// and reading its answer, as a hook that delegates to one command handler
// must: that is the floor of a hook with one handler, what "one extra process
// start and nothing more" is measured against.
//
// Build it the way massgen-hook is built:
//
//	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/floor ./bench/floor
package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
)

func main() {
	in, _ := io.ReadAll(os.Stdin)
	_ = json.Valid(in)
	if len(os.Args) == 3 && os.Args[1] == "-spawn" {
		cmd := exec.Command(os.Args[2])
		cmd.Stdin = bytes.NewReader(in)
		out, _ := cmd.Output()
		_ = json.Valid(out)
	}
	_, _ = os.Stdout.WriteString("{}\n")
}
