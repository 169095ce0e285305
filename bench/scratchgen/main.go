// Command scratchgen writes a scratchpad tree for the benchmarks: a number of
// dated files across agent directories, each with the three required
// sections, so that `massgen-hook check` finds the tree compliant.
//
// With the default 50 agents the directories are agent01 ... agent48,
// coordinator and ego. File i goes to the i-th directory modulo the count, in
// sorted order, and dated so that every day has a file from every agent, the
// coordinator included, and the last day is -end (by default the day the
// benchmarks pin as today): the tree of a project in use, whose newest
// files are recent. 100,000 files take about a second to write (several
// goroutines; the work is system calls).
//
// Usage:
//
//	go run ./bench/scratchgen -files 100000 [-end 2026-11-20] DIR/.claude/scratchpad
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"
)

// content is what every generated file holds: the three required headings.
const content = "## What I did\nline\n## Cross-agent observations\nline\n## Unresolved\nline\n"

func main() {
	files := flag.Int("files", 10000, "how many dated files to write")
	agents := flag.Int("agents", 50, "how many agent directories, the coordinator's and the ego's included (at least 3)")
	endDay := flag.String("end", "2026-11-20", "the date of the last day (YYYY-MM-DD)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: scratchgen [-files N] [-agents N] SCRATCHPAD_ROOT\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	end, err := time.Parse("2006-01-02", *endDay)
	if err != nil {
		fmt.Fprintf(os.Stderr, "scratchgen: -end %q: not a YYYY-MM-DD date\n", *endDay)
		os.Exit(2)
	}
	if err := generate(flag.Arg(0), *files, *agents, end); err != nil {
		fmt.Fprintf(os.Stderr, "scratchgen: %v\n", err)
		os.Exit(1)
	}
}

// dirs returns the names of the agent directories, in sorted order.
func dirs(agents int) []string {
	names := []string{"coordinator", "ego"}
	for i := 1; i <= agents-2; i++ {
		names = append(names, fmt.Sprintf("agent%02d", i))
	}
	sort.Strings(names)
	return names
}

// generate writes files dated files under root across agents directories,
// the last of them dated end.
func generate(root string, files, agents int, end time.Time) error {
	if agents < 3 {
		return fmt.Errorf("-agents %d: need at least 3 (the coordinator, the ego and one subagent)", agents)
	}
	if files < 0 {
		return fmt.Errorf("-files %d: must not be negative", files)
	}
	days := (files + agents - 1) / agents
	start := end.AddDate(0, 0, 1-days)
	names := dirs(agents)
	for _, d := range names {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return err
		}
	}
	next := make(chan int, 256)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range 2 * runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				day := start.AddDate(0, 0, i/agents).Format("2006-01-02")
				path := filepath.Join(root, names[i%agents], day+".md")
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}
