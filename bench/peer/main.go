// Command peer measures how far massgen-hook's default Bash guards agree
// with the two best-known peer guards for Claude Code, on the commands the
// peers' own tests assert, and checks that no real agent command is denied.
//
// The peers' cases are read at run time from peer-guard-corpus.json in the
// shared folder beside the repository (../shared, or $MASSGEN_HOOK_SHARED);
// none is ever run. Each goes into a Claude Code PreToolUse event for Bash
// that is piped into `massgen-hook pre-tool-use`, a whole process per case,
// in the peers' premise: a project whose work the blocked commands would
// destroy (a git repository on main with staged, unstaged and untracked
// changes, a stash, unmerged branches and an origin), built afresh under
// -work on every run. The report gives the share of the peers' block cases
// denied and of their allow cases allowed, against the targets, and every
// disagreement, which it checks against the list in docs/peer-agreement.md.
//
// It runs openmoat's conformance fixtures (openmoat-corpus.json) in the same
// setting, and reports the share of the in-scope deny fixtures denied and
// the ask fixtures' answers, checking the misses against the same page.
//
// Then it replays every shell command in the real payloads under
// ../shared/conformance through pre-tool-use in a plain project and reports
// those denied: each would be a false positive on real agent traffic, unless
// the same page lists it with its reason.
//
// Usage:
//
//	go run ./bench/peer [-hook bin/massgen-hook] [-shared ../shared] [-doc docs/peer-agreement.md] [-work bin/peer] [-mode all|peers|real|openmoat] [-j N]
//
// It exits 0 when the targets are met, every disagreement and every denied
// real command is documented and nothing documented is stale; 1 when not, or
// when a hook run failed (crashed, timed out, or printed something other
// than one JSON object); 2 on a usage or setup error. See
// docs/peer-agreement.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

func main() {
	o := options{}
	flag.StringVar(&o.hook, "hook", "bin/massgen-hook", "the massgen-hook binary to judge")
	flag.StringVar(&o.shared, "shared", sharedDefault(), "the shared folder holding peer-guard-corpus.json and conformance/ (default $MASSGEN_HOOK_SHARED, else ../shared)")
	flag.StringVar(&o.doc, "doc", "docs/peer-agreement.md", "the page listing the known disagreements and denied real commands")
	flag.StringVar(&o.work, "work", filepath.Join("bin", "peer"), "folder for the setting, rebuilt on every run; never under a temporary folder")
	flag.StringVar(&o.mode, "mode", "all", "all, peers (the agreement only), real (the real commands only) or openmoat (its conformance fixtures only)")
	flag.IntVar(&o.workers, "j", runtime.GOMAXPROCS(0), "hook runs at once")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Second, "longest a hook run may take before it counts as failed")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: peer [-hook bin/massgen-hook] [-shared DIR] [-doc FILE] [-work DIR] [-mode all|peers|real|openmoat] [-j N] [-timeout D]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(context.Background(), o, os.Stdout, os.Stderr))
}

// sharedDefault is $MASSGEN_HOOK_SHARED, else ../shared.
func sharedDefault() string {
	if d := os.Getenv("MASSGEN_HOOK_SHARED"); d != "" {
		return d
	}
	return filepath.Join("..", "shared")
}

// options are the flags.
type options struct {
	hook, shared, doc, work, mode string
	workers                       int
	timeout                       time.Duration
}

// Exit statuses.
const (
	exitOK    = 0
	exitNotOK = 1 // targets not met, undocumented or stale entries, failed runs
	exitSetup = 2
)

// run does what main says and returns the exit status.
func run(ctx context.Context, o options, stdout, stderr io.Writer) int {
	res, err := measure(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "peer: %v\n", err)
		return exitSetup
	}
	res.render(stdout, o)
	if !res.ok() {
		return exitNotOK
	}
	return exitOK
}

// results is one run of the benchmark.
type results struct {
	peers     *agreement // nil when not asked for
	cases     int
	real      *realReplay
	openmoat  *omResult // nil when not asked for
	omTime    time.Duration
	corpus    string
	set       setting
	workers   int
	setup     time.Duration
	peersTime time.Duration
	realTime  time.Duration
	total     time.Duration // setting and hook runs
}

func (r results) ok() bool {
	return (r.peers == nil || r.peers.ok()) && (r.real == nil || r.real.ok()) && (r.openmoat == nil || r.openmoat.ok())
}

// measure builds the setting and runs what o.mode asks for.
func measure(ctx context.Context, o options) (results, error) {
	res := results{workers: o.workers}
	begin := time.Now()
	if o.mode != "all" && o.mode != "peers" && o.mode != "real" && o.mode != "openmoat" {
		return res, fmt.Errorf("-mode %q: want all, peers, real or openmoat", o.mode)
	}
	if o.workers < 1 {
		return res, errors.New("-j must be at least 1")
	}
	bin, err := filepath.Abs(o.hook)
	if err != nil {
		return res, err
	}
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		return res, fmt.Errorf("no hook binary at %s (make build)", o.hook)
	}
	work, err := filepath.Abs(o.work)
	if err != nil {
		return res, err
	}
	if underTemp(work) {
		return res, fmt.Errorf("-work %s is under a temporary folder, which the guards treat as scratch space: choose a folder outside it (the default is bin/peer)", o.work)
	}
	doc, err := loadDocumented(o.doc)
	if err != nil {
		return res, err
	}
	var c corpus
	if o.mode == "all" || o.mode == "peers" {
		res.corpus = filepath.Join(o.shared, "peer-guard-corpus.json")
		if c, err = loadCorpus(res.corpus); err != nil {
			return res, err
		}
	}
	var realCmds []realCommand
	if o.mode == "all" || o.mode == "real" {
		if realCmds, err = findRealCommands(filepath.Join(o.shared, "conformance")); err != nil {
			return res, err
		}
	}

	var omCases []omCase
	var omDoc map[string]omRow
	if o.mode == "all" || o.mode == "openmoat" {
		if omCases, err = loadOpenmoat(filepath.Join(o.shared, "openmoat-corpus.json")); err != nil {
			return res, err
		}
		page, err := os.ReadFile(o.doc)
		if err != nil {
			return res, err
		}
		if omDoc, err = parseOpenmoatDoc(page); err != nil {
			return res, fmt.Errorf("%s: %w", o.doc, err)
		}
	}

	start := time.Now()
	worktree := ""
	if o.mode == "all" || o.mode == "peers" {
		worktree = peersWorktree
	}
	res.set = newSetting(work, worktree)
	if err := res.set.build(); err != nil {
		return res, fmt.Errorf("building the setting: %w", err)
	}
	res.setup = time.Since(start)

	if o.mode == "all" || o.mode == "peers" {
		start = time.Now()
		h := hookRun{bin: bin, env: res.set.hookEnv(res.set.project), dir: res.set.project, timeout: o.timeout}
		a, err := runPeers(ctx, h, c, doc, o.workers)
		if err != nil {
			return res, err
		}
		res.peers, res.cases, res.peersTime = &a, len(c.Cases), time.Since(start)
	}
	if o.mode == "all" || o.mode == "real" {
		start = time.Now()
		h := hookRun{bin: bin, env: res.set.hookEnv(res.set.plain), dir: res.set.plain, timeout: o.timeout}
		r, err := runReal(ctx, h, realCmds, doc, o.workers)
		if err != nil {
			return res, err
		}
		res.real, res.realTime = &r, time.Since(start)
	}
	if len(omCases) > 0 {
		start = time.Now()
		h := hookRun{bin: bin, env: res.set.hookEnv(res.set.project), dir: res.set.project, timeout: o.timeout}
		r, err := runOpenmoat(ctx, h, omCases, omDoc, res.set.home, res.set.project, o.workers)
		if err != nil {
			return res, err
		}
		res.openmoat, res.omTime = &r, time.Since(start)
	}
	res.total = time.Since(begin)
	return res, nil
}

// runPeers runs every case in h's project and judges the answers. A case
// with no cwd and one the peer ran in its own project both run there.
func runPeers(ctx context.Context, h hookRun, c corpus, doc documented, workers int) (agreement, error) {
	events := make([][]byte, len(c.Cases))
	for i, pc := range c.Cases {
		events[i] = bashEvent(pc.Command, h.dir, fmt.Sprintf("toolu_peer_%d", pc.ID))
	}
	answers, err := runAll(ctx, h, events, workers)
	if err != nil {
		return agreement{}, err
	}
	verdicts := make([]verdict, len(c.Cases))
	for i, pc := range c.Cases {
		verdicts[i] = verdict{pc, answers[i]}
	}
	return judge(c, verdicts, doc), nil
}

// runReal runs every real command in h's project and judges the answers.
func runReal(ctx context.Context, h hookRun, cmds []realCommand, doc documented, workers int) (realReplay, error) {
	events := make([][]byte, len(cmds))
	for i, rc := range cmds {
		events[i] = bashEvent(rc.Command, h.dir, fmt.Sprintf("toolu_real_%d", i))
	}
	answers, err := runAll(ctx, h, events, workers)
	if err != nil {
		return realReplay{}, err
	}
	verdicts := make([]realVerdict, len(cmds))
	for i, rc := range cmds {
		verdicts[i] = realVerdict{rc, answers[i]}
	}
	return judgeReal(verdicts, doc), nil
}

// runOpenmoat runs openmoat's in-scope fixtures in h's project, /Users/me
// read as home and /p as project, and judges the answers.
func runOpenmoat(ctx context.Context, h hookRun, cases []omCase, doc map[string]omRow, home, project string, workers int) (omResult, error) {
	var events [][]byte
	var ids []string
	for _, c := range cases {
		if !omScope(c) {
			continue
		}
		if ev, ok := omEvent(c, home, project); ok {
			events, ids = append(events, ev), append(ids, c.ID)
		}
	}
	answers, err := runAll(ctx, h, events, workers)
	if err != nil {
		return omResult{}, err
	}
	byID := map[string]answer{}
	for i, id := range ids {
		byID[id] = answers[i]
	}
	return judgeOpenmoat(cases, byID, doc), nil
}

// runAll runs every event through the hook, at most workers at once, and
// returns the answers in the events' order. It stops at the first hook that
// cannot be started.
func runAll(ctx context.Context, h hookRun, events [][]byte, workers int) ([]answer, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	answers := make([]answer, len(events))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(events)) {
		wg.Go(func() {
			for i := range next {
				a, err := h.run(ctx, events[i])
				if err != nil {
					cancel(err)
					continue
				}
				answers[i] = a
			}
		})
	}
feed:
	for i := range events {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return answers, nil
}

// render writes the whole report.
func (r results) render(w io.Writer, o options) {
	fmt.Fprintf(w, "Setting: %s (built in %.1f s; see %s)\n", r.set.root, r.setup.Seconds(), o.doc)
	if r.peers != nil {
		fmt.Fprintf(w, "\nPeer agreement: %d cases from %s, %d hook runs at once, %.1f s\n\n", r.cases, r.corpus, r.workers, r.peersTime.Seconds())
		r.peers.render(w, o.doc)
	}
	if r.real != nil {
		fmt.Fprintf(w, "\n")
		r.real.render(w, o.doc)
		fmt.Fprintf(w, "(%.1f s)\n", r.realTime.Seconds())
	}
	if r.openmoat != nil {
		fmt.Fprintf(w, "\nopenmoat's conformance fixtures (%.1f s):\n\n", r.omTime.Seconds())
		r.openmoat.render(w, o.doc)
	}
	verdict := "PASS"
	if !r.ok() {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "\npeer: %s (%.1f s)\n", verdict, r.total.Seconds())
}
