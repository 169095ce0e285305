package main

import (
	"math"
	"slices"
)

// median returns the middle value of xs. When xs has an even number of
// values it returns the mean of the two middle ones. It returns NaN for an
// empty slice. xs is not modified.
func median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := sorted(xs)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// percentile returns the p-th percentile (0 ≤ p ≤ 100) of xs, interpolating
// linearly between the two nearest ranks: the value at fractional rank
// (len(xs)-1)·p/100 of the sorted values. With this definition the 50th
// percentile equals the median, the 0th the minimum and the 100th the
// maximum. It returns NaN for an empty slice or a p outside [0, 100].
// xs is not modified.
func percentile(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 || math.IsNaN(p) || p < 0 || p > 100 {
		return math.NaN()
	}
	s := sorted(xs)
	rank := float64(n-1) * p / 100
	lo := int(math.Floor(rank))
	hi := int(math.Ceil(rank))
	if lo == hi {
		return s[lo]
	}
	frac := rank - float64(lo)
	return s[lo] + (s[hi]-s[lo])*frac
}

// ratio returns subject/reference. It returns +Inf when only the reference is
// zero and NaN when both are zero or either is NaN, so that a broken
// measurement can never pass for a met target.
func ratio(subject, reference float64) float64 {
	if reference == 0 {
		if subject == 0 {
			return math.NaN()
		}
		return math.Inf(1)
	}
	return subject / reference
}

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
