package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeRunner records the order in which commands are run and answers with
// samples whose wall time is the run's position in that order, so a test can
// tell which runs were kept.
type fakeRunner struct {
	order []string
	// exits gives the exit code of the n-th run of a command (by Argv[0]),
	// counting from 0; missing runs exit 0.
	exits map[string][]int
	// stderr gives the stderr line of the n-th run of a command.
	stderr map[string][]string
	// failAt makes the run at this position in the order fail to start
	// when positive.
	failAt int
	count  map[string]int
}

func (f *fakeRunner) Run(c *Command) (Sample, error) {
	name := c.Argv[0]
	f.order = append(f.order, name)
	if f.failAt > 0 && len(f.order) == f.failAt {
		return Sample{}, errors.New("cannot start")
	}
	if f.count == nil {
		f.count = make(map[string]int)
	}
	n := f.count[name]
	f.count[name]++
	s := Sample{Wall: time.Duration(len(f.order)) * time.Millisecond}
	if n < len(f.exits[name]) {
		s.ExitCode = f.exits[name][n]
	}
	if n < len(f.stderr[name]) {
		s.StderrLine = f.stderr[name][n]
	}
	return s, nil
}

func TestAlternateOrder(t *testing.T) {
	for _, tc := range []struct{ warmup, runs int }{{0, 1}, {0, 5}, {3, 4}, {10, 200}} {
		f := &fakeRunner{}
		a, b := &Command{Argv: []string{"A"}}, &Command{Argv: []string{"B"}}
		p, err := alternate(f, a, b, tc.warmup, tc.runs)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Repeat("AB", tc.warmup+tc.runs)
		if got := strings.Join(f.order, ""); got != want {
			t.Errorf("warmup=%d runs=%d: order %s, want %s", tc.warmup, tc.runs, got, want)
		}
		if len(p.Reference.Samples) != tc.runs || len(p.Subject.Samples) != tc.runs {
			t.Fatalf("warmup=%d runs=%d: kept %d reference and %d subject samples, want %d each",
				tc.warmup, tc.runs, len(p.Reference.Samples), len(p.Subject.Samples), tc.runs)
		}
		// The i-th kept pair is the (warmup+i)-th pair: positions 2(warmup+i)+1 and +2.
		for i := 0; i < tc.runs; i++ {
			wantA := time.Duration(2*(tc.warmup+i)+1) * time.Millisecond
			if got := p.Reference.Samples[i].Wall; got != wantA {
				t.Errorf("reference sample %d is from run at %v, want %v", i, got, wantA)
			}
			if got := p.Subject.Samples[i].Wall; got != wantA+time.Millisecond {
				t.Errorf("subject sample %d is from run at %v, want %v", i, got, wantA+time.Millisecond)
			}
		}
	}
}

func TestAlternateCountsFailuresWithoutStopping(t *testing.T) {
	f := &fakeRunner{
		exits:  map[string][]int{"A": {1, 0, 0, 0}, "B": {0, 2, 0, -1}},
		stderr: map[string][]string{"A": {"warmup failed"}, "B": {"a warning", "boom", "later"}},
	}
	a, b := &Command{Argv: []string{"A"}}, &Command{Argv: []string{"B"}}
	p, err := alternate(f, a, b, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.order) != 8 {
		t.Errorf("ran %d times, want 8", len(f.order))
	}
	if got := p.Reference.NonZeroExits; got != 0 {
		t.Errorf("reference non-zero exits = %d, want 0 (the failure was a warmup run)", got)
	}
	if got := p.Reference.FirstStderrLine; got != "warmup failed" {
		t.Errorf("reference first stderr line = %q", got)
	}
	if got := p.Subject.NonZeroExits; got != 2 {
		t.Errorf("subject non-zero exits = %d, want 2", got)
	}
	if got := p.Subject.FirstStderrLine; got != "boom" {
		t.Errorf("subject first stderr line = %q, want the failing run's", got)
	}
}

func TestAlternateStopsWhenACommandCannotStart(t *testing.T) {
	f := &fakeRunner{failAt: 4}
	a, b := &Command{Argv: []string{"A"}}, &Command{Argv: []string{"B"}}
	if _, err := alternate(f, a, b, 0, 10); err == nil {
		t.Fatal("no error")
	}
	if got := strings.Join(f.order, ""); got != "ABAB" {
		t.Errorf("order %s, want ABAB", got)
	}
}

func TestMeasureOwnRuns(t *testing.T) {
	one := 1
	cases := []Case{
		{Name: "default", Reference: Command{Argv: []string{"A"}}, Subject: Command{Argv: []string{"B"}}},
		{Name: "own", Runs: 3, Warmup: &one, Reference: Command{Argv: []string{"C"}}, Subject: Command{Argv: []string{"D"}}},
	}
	f := &fakeRunner{}
	var progress strings.Builder
	results, err := measure(f, cases, 5, 2, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Repeat("AB", 7) + strings.Repeat("CD", 4); strings.Join(f.order, "") != want {
		t.Errorf("order %s, want %s", strings.Join(f.order, ""), want)
	}
	if n := len(results[0].Pair.Subject.Samples); n != 5 {
		t.Errorf("default case: %d samples, want 5", n)
	}
	if n := len(results[1].Pair.Subject.Samples); n != 3 {
		t.Errorf("own case: %d samples, want 3", n)
	}
	if !strings.Contains(progress.String(), "harness: own: 1 warmup + 3 measured pairs") {
		t.Errorf("progress: %s", progress.String())
	}

	f = &fakeRunner{failAt: 3}
	if _, err := measure(f, cases, 5, 2, &progress); err == nil || !strings.Contains(err.Error(), `case "default"`) {
		t.Errorf("a command that cannot start: %v", err)
	}
}

func TestAlternateRunsBeforeCommandsUntimed(t *testing.T) {
	f := &fakeRunner{}
	a := &Command{Argv: []string{"A"}}
	b := &Command{Argv: []string{"B"}, Before: []Command{{Argv: []string{"x"}}, {Argv: []string{"y"}}}}
	p, err := alternate(f, a, b, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(f.order, ""), strings.Repeat("AxyB", 3); got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	// Only B's own runs are kept: the first measured pair's B is the 8th run.
	if len(p.Subject.Samples) != 2 || p.Subject.Samples[0].Wall != 8*time.Millisecond || p.Subject.Samples[1].Wall != 12*time.Millisecond {
		t.Errorf("subject samples %+v, want B's runs at 8 and 12 ms", p.Subject.Samples)
	}
}

func TestAlternateStopsWhenABeforeCommandFails(t *testing.T) {
	f := &fakeRunner{exits: map[string][]int{"x": {0, 3}}, stderr: map[string][]string{"x": {"", "queue full"}}}
	a := &Command{Argv: []string{"A"}, Before: []Command{{Argv: []string{"x"}}}}
	b := &Command{Argv: []string{"B"}}
	_, err := alternate(f, a, b, 0, 5)
	if err == nil || !strings.Contains(err.Error(), "before A: x exited 3: queue full") {
		t.Fatalf("err = %v, want the before command's failure", err)
	}
	if got := strings.Join(f.order, ""); got != "xABx" {
		t.Errorf("order %s, want xABx (nothing run after the failure)", got)
	}
}
