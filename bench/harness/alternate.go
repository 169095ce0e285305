package main

import (
	"fmt"
	"time"
)

// Side is what was measured of one command of a case.
type Side struct {
	// Samples holds one Sample per measured run, in run order. Warmup runs
	// are not included.
	Samples []Sample
	// NonZeroExits counts the measured runs that exited non-zero or were
	// ended by a signal.
	NonZeroExits int
	// FirstStderrLine is the first non-empty stderr line of any run,
	// warmup included, preferring a failing run's.
	FirstStderrLine string

	// stderrFromFailure tells whether FirstStderrLine came from a failing
	// run.
	stderrFromFailure bool
}

// Pair is what was measured of both commands of a case.
type Pair struct {
	Reference, Subject Side
}

// alternate runs ref and subj one after the other, warmup+runs times each,
// in the order ref, subj, ref, subj, ... so that whatever the machine is
// doing at any moment weighs on both equally. The first warmup runs of each
// are discarded. It stops at the first run that cannot be started.
func alternate(r Runner, ref, subj *Command, warmup, runs int) (Pair, error) {
	p := Pair{
		Reference: Side{Samples: make([]Sample, 0, runs)},
		Subject:   Side{Samples: make([]Sample, 0, runs)},
	}
	for i := 0; i < warmup+runs; i++ {
		measured := i >= warmup
		if err := runOnce(r, ref, &p.Reference, measured); err != nil {
			return p, err
		}
		if err := runOnce(r, subj, &p.Subject, measured); err != nil {
			return p, err
		}
	}
	return p, nil
}

// runOnce runs c's before commands and then c once, and records the
// outcome of c in side, keeping the sample only when measured is true.
func runOnce(r Runner, c *Command, side *Side, measured bool) error {
	for i := range c.Before {
		if err := prepare(r, &c.Before[i]); err != nil {
			return fmt.Errorf("before %s: %w", c.Argv[0], err)
		}
	}
	s, err := r.Run(c)
	if err != nil {
		return err
	}
	failed := s.ExitCode != 0
	if s.StderrLine != "" && (side.FirstStderrLine == "" || failed && !side.stderrFromFailure) {
		side.FirstStderrLine = s.StderrLine
		side.stderrFromFailure = failed
	}
	if !measured {
		return nil
	}
	if failed {
		side.NonZeroExits++
	}
	side.Samples = append(side.Samples, s)
	return nil
}

// wallMillis returns the wall times of the samples in milliseconds.
func (s *Side) wallMillis() []float64 {
	ms := make([]float64, len(s.Samples))
	for i, x := range s.Samples {
		ms[i] = float64(x.Wall) / float64(time.Millisecond)
	}
	return ms
}

// peakRSSKiB returns the largest peak RSS over the samples.
func (s *Side) peakRSSKiB() int64 {
	var peak int64
	for _, x := range s.Samples {
		peak = max(peak, x.MaxRSSKiB)
	}
	return peak
}

// prepare runs a before command, whose time is not kept. Its failure is an
// error: the run it prepares would not measure what the case says.
func prepare(r Runner, b *Command) error {
	s, err := r.Run(b)
	if err != nil {
		return err
	}
	if s.ExitCode != 0 {
		msg := fmt.Sprintf("%s exited %d", b.Argv[0], s.ExitCode)
		if s.StderrLine != "" {
			msg += ": " + s.StderrLine
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}
