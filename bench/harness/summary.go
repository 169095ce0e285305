package main

import "math"

// Result is the summary of one measured case.
type Result struct {
	Case Case
	Pair Pair
	// ReferenceMedian, SubjectMedian and SubjectP90 are wall times in
	// milliseconds.
	ReferenceMedian, SubjectMedian, SubjectP90 float64
	// Ratio is SubjectMedian / ReferenceMedian.
	Ratio float64
	// HasTarget tells whether the case has a target; Met tells whether the
	// ratio is within it.
	HasTarget, Met bool
	// HasRSSTarget tells whether the case has a memory target; RSSMet tells
	// whether the subject's peak RSS over all its runs is within it. A peak
	// shown as a bound ("≤ x", see subjectRSSIsBound) meets a target of at
	// least x, since the true peak is at most x.
	HasRSSTarget, RSSMet bool
	// HarnessPeakRSSKiB is the harness's own peak RSS over the case, below
	// which a child's reported peak RSS means nothing (see rss_unix.go).
	HarnessPeakRSSKiB int64
}

// summarize computes the statistics of a measured case.
func summarize(c Case, p Pair, harnessPeakKiB int64) Result {
	r := Result{
		Case:              c,
		Pair:              p,
		ReferenceMedian:   median(p.Reference.wallMillis()),
		SubjectMedian:     median(p.Subject.wallMillis()),
		SubjectP90:        percentile(p.Subject.wallMillis(), 90),
		HasTarget:         c.MaxRatio > 0,
		HarnessPeakRSSKiB: harnessPeakKiB,
	}
	r.Ratio = ratio(r.SubjectMedian, r.ReferenceMedian)
	r.Met = r.HasTarget && !math.IsNaN(r.Ratio) && r.Ratio <= c.MaxRatio
	r.HasRSSTarget = c.MaxRSSMiB > 0
	peak := p.Subject.peakRSSKiB()
	r.RSSMet = r.HasRSSTarget && peak > 0 && float64(peak) <= c.MaxRSSMiB*1024
	return r
}

// failed tells whether either command of the case exited non-zero in a
// measured run.
func (r Result) failed() bool {
	return r.Pair.Reference.NonZeroExits > 0 || r.Pair.Subject.NonZeroExits > 0
}

// subjectRSSIsBound tells whether the subject's peak RSS is no more than the
// harness's own, in which case it is only an upper bound on the subject's
// true peak.
func (r Result) subjectRSSIsBound() bool {
	peak := r.Pair.Subject.peakRSSKiB()
	return r.HarnessPeakRSSKiB > 0 && peak > 0 && peak <= r.HarnessPeakRSSKiB
}
