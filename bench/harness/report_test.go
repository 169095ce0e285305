package main

import (
	"strings"
	"testing"
	"time"
)

// side makes a Side with one sample per wall time (in ms), all with the same
// peak RSS.
func side(ms []float64, exits int, rssKiB int64) Side {
	s := Side{NonZeroExits: exits, FirstStderrLine: "oops"}
	for _, x := range ms {
		s.Samples = append(s.Samples, Sample{Wall: time.Duration(x * float64(time.Millisecond)), MaxRSSKiB: rssKiB})
	}
	return s
}

func TestRenderTable(t *testing.T) {
	c := Case{Name: "a|b", Target: "≤ 1.3×", MaxRatio: 1.3}
	ok := summarize(c, Pair{Reference: side([]float64{1, 2, 3, 4}, 0, 2048), Subject: side([]float64{2, 3, 4, 5}, 0, 10240)}, 4096)
	c2 := Case{Name: "slow", MaxRatio: 1.1}
	slow := summarize(c2, Pair{Reference: side([]float64{1}, 0, 1024), Subject: side([]float64{2}, 1, 1024)}, 4096)

	got := renderTable(&Machine{GOOS: "linux", GOARCH: "amd64", NumCPU: 2}, 4, 1, []Result{ok, slow})
	for _, want := range []string{
		"linux/amd64, 2 CPUs",
		"| a\\|b | 2.50 | 3.50 | 1.40× | 4.70 | ≤ 1.3× | no | 10.0 |",
		"| slow | 1.00 | 2.00 | 2.00× | 2.00 | — | no † | ≤ 1.0 |",
		"- slow, subject: 1 of 1 runs exited non-zero; first stderr line: `oops`", // counted against the samples taken,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

func TestRenderTableSpeedUp(t *testing.T) {
	c := Case{Name: "python", MaxRatio: 0.05, Target: defaultTarget(0.05)}
	fast := summarize(c, Pair{Reference: side([]float64{40}, 0, 0), Subject: side([]float64{1.6}, 0, 0)}, 0)
	nearly := summarize(c, Pair{Reference: side([]float64{40}, 0, 0), Subject: side([]float64{2.5}, 0, 0)}, 0)
	slower := summarize(c, Pair{Reference: side([]float64{2}, 0, 0), Subject: side([]float64{3}, 0, 0)}, 0)
	plain := summarize(Case{Name: "floor", MaxRatio: 1.3, Target: "≤ 1.3×"}, Pair{Reference: side([]float64{2}, 0, 0), Subject: side([]float64{1}, 0, 0)}, 0)

	got := renderTable(nil, 1, 0, []Result{fast, nearly, slower, plain})
	for _, want := range []string{
		"| python | 40.00 | 1.60 | 0.040× (25.0× faster) | 1.60 | ≥ 20× faster | yes | n/a |",
		"| python | 40.00 | 2.50 | 0.062× (16.0× faster) | 2.50 | ≥ 20× faster | no | n/a |",
		"| python | 2.00 | 3.00 | 1.50× (not faster) | 3.00 | ≥ 20× faster | no | n/a |",
		"| floor | 2.00 | 1.00 | 0.50× | 1.00 | ≤ 1.3× | yes | n/a |", // no speed-up target: a plain ratio
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Machine:") {
		t.Errorf("machine line shown without a machine:\n%s", got)
	}
	if strings.Contains(got, "RSS target") {
		t.Errorf("RSS target columns without any RSS target:\n%s", got)
	}
}

func TestRenderTableRSSTargetAndOwnRuns(t *testing.T) {
	warm := 1
	small := Case{Name: "1 MiB", MaxRSSMiB: 20, RSSTarget: "≤ 20 MiB"}
	big := Case{Name: "50 MiB", MaxRSSMiB: 150, RSSTarget: "≤ 3× input (150 MiB)", Runs: 2, Warmup: &warm}
	over := Case{Name: "over", MaxRSSMiB: 10}
	none := Case{Name: "no target"}
	results := []Result{
		summarize(small, Pair{Reference: side([]float64{1, 1, 1}, 0, 0), Subject: side([]float64{2, 2, 2}, 0, 3000)}, 4096),
		summarize(big, Pair{Reference: side([]float64{1, 1}, 0, 0), Subject: side([]float64{5, 5}, 1, 120<<10)}, 4096),
		summarize(over, Pair{Reference: side([]float64{1, 1, 1}, 0, 0), Subject: side([]float64{2, 2, 2}, 0, 11<<10)}, 4096),
		summarize(none, Pair{Reference: side([]float64{1, 1, 1}, 0, 0), Subject: side([]float64{2, 2, 2}, 0, 5<<10)}, 4096),
	}
	got := renderTable(nil, 3, 10, results)
	for _, want := range []string{
		"| peak RSS subject (MiB) | RSS target | RSS met? |",
		"|---|---:|---:|---:|---:|---|---|---:|---|---|",
		"| 1 MiB | 1.00 | 2.00 | 2.00× | 2.00 | — | — | ≤ 2.9 | ≤ 20 MiB | yes |", // a bound below the target meets it
		"| 50 MiB | 1.00 | 5.00 | 5.00× | 5.00 | — | — † | 120.0 | ≤ 3× input (150 MiB) | yes |",
		"| over | 1.00 | 2.00 | 2.00× | 2.00 | — | — | 11.0 | ≤ 10 MiB | no |",
		"| no target | 1.00 | 2.00 | 2.00× | 2.00 | — | — | 5.0 | — | — |",
		"Runs: 3 alternating reference/subject pairs per case, after 10 warmup pairs (discarded), unless a note below says otherwise.",
		"- 50 MiB: 2 measured pairs after 1 warmup pairs\n",
		"- 50 MiB, subject: 1 of 2 runs exited non-zero", // counted against the case's own runs
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "- 1 MiB:") {
		t.Errorf("a case with the default runs is listed as having its own:\n%s", got)
	}
}
