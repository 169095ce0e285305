// Command natslatency measures what the NATS inbox backend costs a hook:
// post-tool-use with nothing to deliver, with one message and with a batch
// waiting, and send, each timed as a whole process with the file backend
// as reference and the NATS backend as subject, alternately, through the
// harness (bench/harness).
//
// It starts an embedded nats-server with JetStream on loopback, its store
// in the work folder, and gives each case two projects whose configs differ
// only in inbox.backend. The sends that queue a hook's messages are the
// harness's before commands: run before each hook run and not timed. It
// prints a Markdown table of the medians and 99th percentiles of both
// sides and their ratios.
//
// Usage:
//
//	natslatency -hook bin/massgen-hook -harness HARNESS [-runs 200] [-warmup 10] [-batch 20] [-batch-runs 100] [-only NAME] [-work DIR] [-out table.md] [-json results.json]
//	natslatency -list    # the case names
//
// Give it a massgen-hook rewritten by a copy, as `make bench` does (see
// scripts/bench.sh). It exits 2 when it cannot measure.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/massgen/massgen-hook/internal/nats/natstest"
)

func main() {
	hook := flag.String("hook", "bin/massgen-hook", "the massgen-hook binary to time")
	harness := flag.String("harness", "", "the harness binary (go build ./bench/harness)")
	runs := flag.Int("runs", 200, "measured pairs per case")
	warmup := flag.Int("warmup", 10, "discarded pairs per case before measuring")
	batch := flag.Int("batch", 20, "messages waiting in the batch case")
	batchRuns := flag.Int("batch-runs", 100, "measured pairs of the batch case at most")
	only := flag.String("only", "", "run only the case with this name")
	work := flag.String("work", "", "folder for the projects, the server's store, the spec and the results (default: a temporary one, removed)")
	out := flag.String("out", "", "also write the table to this file")
	jsonOut := flag.String("json", "", "keep the harness's results, every sample, in this file")
	list := flag.Bool("list", false, "print the case names and exit")
	flag.Parse()

	defs := cases(*batch, *batchRuns)
	if *list {
		for _, d := range defs {
			fmt.Println(d.name)
		}
		return
	}
	if *harness == "" || flag.NArg() != 0 {
		fail("usage: natslatency -hook BIN -harness BIN [flags] (see -h)")
	}
	hookPath, err := filepath.Abs(*hook)
	if err != nil {
		fail("%v", err)
	}
	dir := *work
	if dir == "" {
		if dir, err = os.MkdirTemp("", "natslatency."); err != nil {
			fail("%v", err)
		}
		defer os.RemoveAll(dir)
	} else if dir, err = filepath.Abs(dir); err != nil {
		fail("%v", err)
	}
	if err := run(hookPath, *harness, dir, defs, *runs, *warmup, *only, *out, *jsonOut); err != nil {
		if *work == "" {
			os.RemoveAll(dir)
		}
		fail("%v", err)
	}
}

// run starts the server, prepares the projects, has the harness measure
// the cases and prints the table.
func run(hook, harness, work string, defs []caseDef, runs, warmup int, only, out, jsonOut string) error {
	srv, err := natstest.Run(filepath.Join(work, "nats-server"), natstest.Options{})
	if err != nil {
		return err
	}
	defer srv.Shutdown()
	for _, d := range defs {
		for _, backend := range []string{fileBackend, natsBackend} {
			if err := prepare(work, d.key, backend, srv.URL()); err != nil {
				return err
			}
		}
	}
	specPath := filepath.Join(work, "spec.json")
	data, err := json.MarshalIndent(buildSpec(hook, work, defs, runs), "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(specPath, data, 0o644); err != nil {
		return err
	}
	resultsPath := jsonOut
	if resultsPath == "" {
		resultsPath = filepath.Join(work, "results.json")
	}
	args := []string{"-runs", strconv.Itoa(runs), "-warmup", strconv.Itoa(warmup), "-no-machine",
		"-out", filepath.Join(work, "harness.md"), "-json", resultsPath}
	if only != "" {
		args = append(args, "-only", only)
	}
	cmd := exec.Command(harness, append(args, specPath)...)
	cmd.Stderr = os.Stderr // the harness's progress
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("harness: %w", err)
	}
	data, err = os.ReadFile(resultsPath)
	if err != nil {
		return err
	}
	res, err := parseResults(data)
	if err != nil {
		return fmt.Errorf("%s: %w", resultsPath, err)
	}
	render(os.Stdout, res)
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		render(f, res)
		return f.Close()
	}
	return nil
}

// prepare writes one side's project (its config) and its event.
func prepare(work, key, backend, url string) error {
	dir, event := project(work, key, backend)
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "massgen-hook.yaml"), []byte(configYAML(backend, url)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(event, eventJSON(dir), 0o644)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "natslatency: "+format+"\n", args...)
	os.Exit(2)
}
