package main

import (
	"fmt"
	"strings"
	"testing"
)

var defaults = options{linear: 1.25, flat: 1.15, limitFiles: 100000, limitMS: 2000}

// results builds a harness -json document from (series, files, subject ms,
// reference ms, subject non-zero exits) rows.
func results(rows ...[5]any) []byte {
	var cases []string
	for i, r := range rows {
		ref := r[3].(float64)
		cases = append(cases, fmt.Sprintf(`{"name": "case %d", "runs": 20, "labels": {"series": %q, "files": "%d"},
			"reference_median_ms": %g, "subject_median_ms": %g, "ratio": %g,
			"reference": {"nonzero_exits": 0}, "subject": {"nonzero_exits": %d}}`,
			i, r[0], r[1], ref, r[2], r[2].(float64)/ref, r[4]))
	}
	cases = append(cases, `{"name": "unlabelled", "reference_median_ms": 1, "subject_median_ms": 2, "ratio": 2}`)
	return []byte(`{"runs": 200, "cases": [` + strings.Join(cases, ",") + `]}`)
}

func renderString(t *testing.T, data []byte, o options) string {
	t.Helper()
	s, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	render(&b, s, o)
	return b.String()
}

func TestRenderLinearAndFlat(t *testing.T) {
	got := renderString(t, results(
		[5]any{"check", 1000, 12.0, 2.0, 0},
		[5]any{"check", 10000, 102.0, 2.0, 0},
		[5]any{"check", 100000, 1102.0, 2.0, 0},
		[5]any{"session-start", 1000, 2.4, 1.5, 0},
		[5]any{"session-start", 10000, 2.5, 1.5, 0},
		[5]any{"session-start", 100000, 2.6, 1.5, 0},
	), defaults)
	for _, want := range []string{
		"| 1,000 | 12.00 | 10.00 | 2.40 | 1.60× |",
		"| 10,000 | 102 | 10.00 | 2.50 | 1.67× |",
		"| 100,000 | 1,102 | 11.00 | 2.60 | 1.73× |",
		"check grows linearly: **yes**: its cost per file above the floor at 100,000 files is 1.10× that at 10,000 (tolerance ≤ 1.25×; a quadratic term would show as about 10×).",
		"check over 100,000 files under 2 s: **yes**: median 1,102 ms.",
		"session-start flat in the number of dated files: **yes**: its ratio to the floor at 100,000 files is 1.08× that at 1,000 (tolerance ≤ 1.15×; medians 2.60 ms and 2.40 ms).",
		"Runs (alternating with the floor): check 20 at 1,000, 20 at 10,000, 20 at 100,000; session-start 20 at 1,000, 20 at 10,000, 20 at 100,000.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "†") || strings.Contains(got, "unlabelled") {
		t.Errorf("unexpected mark or case:\n%s", got)
	}
}

func TestRenderFailingVerdicts(t *testing.T) {
	got := renderString(t, results(
		[5]any{"check", 10000, 102.0, 2.0, 0},
		[5]any{"check", 100000, 3002.0, 2.0, 1}, // 3× the per-file cost, over 2 s, a failing run
		[5]any{"session-start", 1000, 2.0, 1.0, 0},
		[5]any{"session-start", 100000, 3.0, 1.0, 0},
	), defaults)
	for _, want := range []string{
		"| 100,000 | 3,002 † | 30.00 |",
		"| 1,000 | not measured | — | 2.00 | 2.00× |",
		"check grows linearly: **no**: its cost per file above the floor at 100,000 files is 3.00× that at 10,000",
		"check over 100,000 files under 2 s: **no**: median 3,002 ms.",
		"session-start flat in the number of dated files: **no**: its ratio to the floor at 100,000 files is 1.50× that at 1,000",
		"† A command exited non-zero",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestRenderPartial(t *testing.T) {
	got := renderString(t, results([5]any{"check", 100000, 1500.0, 2.0, 0}), defaults)
	for _, want := range []string{
		"check grows linearly: not judged (fewer than two sizes measured).",
		"check over 100,000 files under 2 s: **yes**: median 1,500 ms.",
		"session-start flat in the number of dated files: not judged",
		"session-start not measured.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if got := renderString(t, []byte(`{"cases": []}`), defaults); !strings.Contains(got, "No scaling case was measured.") {
		t.Errorf("empty results: %s", got)
	}
}

func TestParseRejects(t *testing.T) {
	for _, doc := range []string{
		`{`,
		`{"cases": [{"name": "x", "labels": {"series": "check", "files": "many"}, "reference_median_ms": 1, "subject_median_ms": 1, "ratio": 1}]}`,
		`{"cases": [{"name": "x", "labels": {"series": "check", "files": "10"}, "reference_median_ms": null, "subject_median_ms": 1, "ratio": 1}]}`,
	} {
		if _, err := parse([]byte(doc)); err == nil {
			t.Errorf("accepted %s", doc)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
