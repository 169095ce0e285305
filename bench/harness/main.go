// Command harness measures the whole-process cost of commands against a
// reference.
//
// For every case of a spec file it runs a reference command and a subject
// command alternately (reference, subject, reference, subject, ...), so that
// machine noise weighs on both equally, and reports the median wall times,
// their ratio, the subject's 90th percentile and peak RSS, and whether the
// ratio meets the case's target, as a Markdown table.
//
// Usage:
//
//	go run ./bench/harness [-runs 200] [-warmup 10] [-only NAME] [-out table.md] [-json results.json] [-no-machine] spec.json
//	go run ./bench/harness -describe    # the machine line alone
//
// It exits 0 whether or not the targets are met, since it measures and does
// not judge, and 2 with a one-line error when the spec is bad, a file it
// names is missing, or a command cannot be started. See bench/README.md.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
)

func main() {
	runs := flag.Int("runs", 200, "measured runs of each command per case")
	warmup := flag.Int("warmup", 10, "discarded runs of each command per case before measuring")
	only := flag.String("only", "", "run only the case with this name")
	out := flag.String("out", "", "also write the Markdown table to this file")
	jsonOut := flag.String("json", "", "write every sample as JSON to this file")
	noMachine := flag.Bool("no-machine", false, "leave the machine line out of the table (for a report that gives it once, from -describe)")
	describe := flag.Bool("describe", false, "print the machine line and exit")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(),
			"usage: harness [-runs N] [-warmup N] [-only NAME] [-out table.md] [-json results.json] [-no-machine] spec.json\n       harness -describe\n")
		flag.PrintDefaults()
	}
	flag.Parse()

	if *describe {
		fmt.Printf("Machine: %s.\n", describeMachine())
		return
	}
	if flag.NArg() != 1 {
		fail("want exactly one spec file argument, got %d", flag.NArg())
	}
	if *runs < 1 {
		fail("-runs must be at least 1")
	}
	if *warmup < 0 {
		fail("-warmup must not be negative")
	}
	for _, path := range []string{*out, *jsonOut} {
		if err := checkWritableDir(path); err != nil {
			fail("%v", err)
		}
	}
	spec, err := loadSpec(flag.Arg(0))
	if err != nil {
		fail("%v", err)
	}
	cases, err := selectCases(spec, *only)
	if err != nil {
		fail("%v", err)
	}

	machine := describeMachine()
	results, err := measure(newExecRunner(), cases, *runs, *warmup, os.Stderr)
	if err != nil {
		fail("%v", err)
	}

	shown := &machine
	if *noMachine {
		shown = nil
	}
	table := renderTable(shown, *runs, *warmup, results)
	fmt.Print(table)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
			fail("%v", err)
		}
	}
	if *jsonOut != "" {
		data, err := marshalResults(machine, *runs, *warmup, results)
		if err != nil {
			fail("%v", err)
		}
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			fail("%v", err)
		}
	}
}

// measure runs every case, each with its own runs and warmup when it has
// them (else runs and warmup), reporting progress on progress.
func measure(r Runner, cases []Case, runs, warmup int, progress io.Writer) ([]Result, error) {
	results := make([]Result, 0, len(cases))
	for _, c := range cases {
		n, w := c.runsOr(runs), c.warmupOr(warmup)
		fmt.Fprintf(progress, "harness: %s: %d warmup + %d measured pairs\n", c.Name, w, n)
		// Keep the harness's own peak RSS, which every child inherits as a
		// floor, as low as it can be.
		debug.FreeOSMemory()
		resetSelfPeakRSS()
		pair, err := alternate(r, &c.Reference, &c.Subject, w, n)
		if err != nil {
			return nil, fmt.Errorf("case %q: %w", c.Name, err)
		}
		results = append(results, summarize(c, pair, selfPeakRSSKiB()))
	}
	return results, nil
}

// checkWritableDir reports an error when path is not empty and the directory
// it would be written in does not exist, so that a typo is caught before
// minutes of measuring rather than after.
func checkWritableDir(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("output %s: %s is not a directory", path, dir)
	}
	return nil
}

// fail prints a one-line error and exits with status 2.
func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "harness: "+format+"\n", args...)
	os.Exit(2)
}
