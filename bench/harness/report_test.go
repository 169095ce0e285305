package main

import (
	"strings"
	"testing"
	"time"
)

func TestRenderTable(t *testing.T) {
	side := func(ms []float64, exits int, rssKiB int64) Side {
		s := Side{NonZeroExits: exits, FirstStderrLine: "oops"}
		for _, x := range ms {
			s.Samples = append(s.Samples, Sample{Wall: time.Duration(x * float64(time.Millisecond)), MaxRSSKiB: rssKiB})
		}
		return s
	}
	c := Case{Name: "a|b", Target: "≤ 1.3×", MaxRatio: 1.3}
	ok := summarize(c, Pair{Reference: side([]float64{1, 2, 3, 4}, 0, 2048), Subject: side([]float64{2, 3, 4, 5}, 0, 10240)}, 4096)
	c2 := Case{Name: "slow", MaxRatio: 1.1}
	slow := summarize(c2, Pair{Reference: side([]float64{1}, 0, 1024), Subject: side([]float64{2}, 1, 1024)}, 4096)

	got := renderTable(Machine{GOOS: "linux", GOARCH: "amd64", NumCPU: 2}, 4, 1, []Result{ok, slow})
	for _, want := range []string{
		"linux/amd64, 2 CPUs",
		"| a\\|b | 2.50 | 3.50 | 1.40× | 4.70 | ≤ 1.3× | no | 10.0 |",
		"| slow | 1.00 | 2.00 | 2.00× | 2.00 | — | no † | ≤ 1.0 |",
		"- slow, subject: 1 of 4 runs exited non-zero; first stderr line: `oops`",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}
