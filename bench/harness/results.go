package main

import (
	"encoding/json"
	"math"
)

// jsonReport is the layout of the -json file.
type jsonReport struct {
	Machine Machine `json:"machine"`
	// Runs and Warmup are the defaults; each case gives its own.
	Runs   int        `json:"runs"`
	Warmup int        `json:"warmup"`
	Cases  []jsonCase `json:"cases"`
}

// jsonCase is one case in the -json file. Statistics that are not finite
// numbers are null.
type jsonCase struct {
	Name              string            `json:"name"`
	Target            string            `json:"target,omitempty"`
	MaxRatio          float64           `json:"max_ratio,omitempty"`
	ReferenceMedianMS *float64          `json:"reference_median_ms"`
	SubjectMedianMS   *float64          `json:"subject_median_ms"`
	SubjectP90MS      *float64          `json:"subject_p90_ms"`
	Ratio             *float64          `json:"ratio"`
	Met               *bool             `json:"met"`
	Runs              int               `json:"runs"`
	Warmup            int               `json:"warmup"`
	MaxRSSMiB         float64           `json:"max_rss_mib,omitempty"`
	RSSTarget         string            `json:"rss_target,omitempty"`
	RSSMet            *bool             `json:"rss_met,omitempty"`
	Labels            map[string]string `json:"labels,omitempty"`
	HarnessPeakRSSKiB int64             `json:"harness_peak_rss_kib"`
	Reference         jsonSide          `json:"reference"`
	Subject           jsonSide          `json:"subject"`
}

// jsonSide is one command of a case in the -json file. The sample arrays
// are parallel: index i of each describes the i-th measured run.
type jsonSide struct {
	Argv            []string          `json:"argv"`
	Stdin           string            `json:"stdin,omitempty"`
	Env             map[string]string `json:"env,omitempty"`
	Dir             string            `json:"dir,omitempty"`
	Before          [][]string        `json:"before,omitempty"`
	MedianMS        *float64          `json:"median_ms"`
	P90MS           *float64          `json:"p90_ms"`
	P99MS           *float64          `json:"p99_ms"`
	PeakRSSKiB      int64             `json:"peak_rss_kib"`
	NonZeroExits    int               `json:"nonzero_exits"`
	FirstStderrLine string            `json:"first_stderr_line,omitempty"`
	WallNS          []int64           `json:"wall_ns"`
	MaxRSSKiB       []int64           `json:"maxrss_kib"`
	StdoutBytes     []int64           `json:"stdout_bytes"`
	ExitCodes       []int             `json:"exit_codes"`
}

// marshalResults renders the results, with every sample, as indented JSON.
func marshalResults(m Machine, runs, warmup int, results []Result) ([]byte, error) {
	rep := jsonReport{Machine: m, Runs: runs, Warmup: warmup, Cases: make([]jsonCase, 0, len(results))}
	for _, r := range results {
		jc := jsonCase{
			Name:              r.Case.Name,
			Target:            r.Case.Target,
			MaxRatio:          r.Case.MaxRatio,
			ReferenceMedianMS: finite(r.ReferenceMedian),
			SubjectMedianMS:   finite(r.SubjectMedian),
			SubjectP90MS:      finite(r.SubjectP90),
			Ratio:             finite(r.Ratio),
			Runs:              r.Case.runsOr(runs),
			Warmup:            r.Case.warmupOr(warmup),
			MaxRSSMiB:         r.Case.MaxRSSMiB,
			RSSTarget:         r.Case.RSSTarget,
			Labels:            r.Case.Labels,
			HarnessPeakRSSKiB: r.HarnessPeakRSSKiB,
			Reference:         newJSONSide(&r.Case.Reference, r.Pair.Reference),
			Subject:           newJSONSide(&r.Case.Subject, r.Pair.Subject),
		}
		if r.HasTarget {
			met := r.Met
			jc.Met = &met
		}
		if r.HasRSSTarget {
			met := r.RSSMet
			jc.RSSMet = &met
		}
		rep.Cases = append(rep.Cases, jc)
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// newJSONSide describes command c and what was measured of it.
func newJSONSide(c *Command, s Side) jsonSide {
	ms := s.wallMillis()
	js := jsonSide{
		Argv:            c.Argv,
		Stdin:           c.Stdin,
		Env:             c.Env,
		Dir:             c.Dir,
		MedianMS:        finite(median(ms)),
		P90MS:           finite(percentile(ms, 90)),
		P99MS:           finite(percentile(ms, 99)),
		PeakRSSKiB:      s.peakRSSKiB(),
		NonZeroExits:    s.NonZeroExits,
		FirstStderrLine: s.FirstStderrLine,
		WallNS:          make([]int64, len(s.Samples)),
		MaxRSSKiB:       make([]int64, len(s.Samples)),
		StdoutBytes:     make([]int64, len(s.Samples)),
		ExitCodes:       make([]int, len(s.Samples)),
	}
	for _, b := range c.Before {
		js.Before = append(js.Before, b.Argv)
	}
	for i, x := range s.Samples {
		js.WallNS[i] = x.Wall.Nanoseconds()
		js.MaxRSSKiB[i] = x.MaxRSSKiB
		js.StdoutBytes[i] = x.StdoutBytes
		js.ExitCodes[i] = x.ExitCode
	}
	return js
}

// finite returns a pointer to x, or nil when x is NaN or infinite, which
// JSON cannot represent.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
