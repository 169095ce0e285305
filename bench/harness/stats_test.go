package main

import (
	"math"
	"testing"
)

// same reports whether got equals want, treating two NaNs as equal and
// allowing for floating-point rounding.
func same(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func TestMedian(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"empty", nil, math.NaN()},
		{"one", []float64{7}, 7},
		{"two is the mean", []float64{1, 2}, 1.5},
		{"odd unsorted", []float64{5, 1, 3}, 3},
		{"even unsorted", []float64{4, 1, 3, 2}, 2.5},
		{"even with duplicates", []float64{2, 2, 9, 9}, 5.5},
		{"outlier does not move it", []float64{1, 2, 3, 1000}, 2.5},
		{"negative values", []float64{-3, -1, -2}, -2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := median(tt.xs); !same(got, tt.want) {
				t.Errorf("median(%v) = %v, want %v", tt.xs, got, tt.want)
			}
		})
	}
}

func TestMedianDoesNotModifyInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	median(xs)
	percentile(xs, 90)
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("input was modified: %v", xs)
	}
}

func TestPercentile(t *testing.T) {
	tens := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5} // 1..10, shuffled
	tests := []struct {
		name string
		xs   []float64
		p    float64
		want float64
	}{
		{"empty", nil, 50, math.NaN()},
		{"negative p", tens, -1, math.NaN()},
		{"p above 100", tens, 101, math.NaN()},
		{"NaN p", tens, math.NaN(), math.NaN()},
		{"single value", []float64{4}, 90, 4},
		{"p0 is the minimum", tens, 0, 1},
		{"p100 is the maximum", tens, 100, 10},
		{"p50 is the median of an even count", tens, 50, 5.5},
		{"p50 is the median of an odd count", []float64{3, 1, 2}, 50, 2},
		{"p90 interpolates", tens, 90, 9.1},  // rank 8.1 between 9 and 10
		{"p25 interpolates", tens, 25, 3.25}, // rank 2.25 between 3 and 4
		{"exact rank", []float64{0, 10, 20, 30, 40}, 75, 30},
		{"between two values", []float64{0, 100}, 90, 90},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.xs, tt.p); !same(got, tt.want) {
				t.Errorf("percentile(%v, %v) = %v, want %v", tt.xs, tt.p, got, tt.want)
			}
		})
	}
}

func TestPercentileFiftyIsMedian(t *testing.T) {
	for n := 1; n <= 12; n++ {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64((i * 7) % n) // a permutation of 0..n-1 when gcd(7, n) = 1, duplicates otherwise
		}
		if p, m := percentile(xs, 50), median(xs); !same(p, m) {
			t.Errorf("n=%d: percentile(50) = %v, median = %v", n, p, m)
		}
	}
}

func TestRatio(t *testing.T) {
	tests := []struct {
		name               string
		subject, reference float64
		want               float64
	}{
		{"equal", 2, 2, 1},
		{"slower subject", 3, 2, 1.5},
		{"faster subject", 1, 4, 0.25},
		{"zero reference", 1, 0, math.Inf(1)},
		{"both zero", 0, 0, math.NaN()},
		{"NaN subject", math.NaN(), 1, math.NaN()},
		{"NaN reference", 1, math.NaN(), math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ratio(tt.subject, tt.reference); !same(got, tt.want) {
				t.Errorf("ratio(%v, %v) = %v, want %v", tt.subject, tt.reference, got, tt.want)
			}
		})
	}
}
