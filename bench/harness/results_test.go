package main

import (
	"encoding/json"
	"testing"
)

func TestMarshalResultsCaseOptions(t *testing.T) {
	none := 0
	c := Case{Name: "big", Runs: 2, Warmup: &none, MaxRSSMiB: 150, RSSTarget: "≤ 150 MiB",
		Labels: map[string]string{"series": "check", "files": "100000"}}
	r := summarize(c, Pair{Reference: side([]float64{1, 1}, 0, 0), Subject: side([]float64{3, 3}, 0, 100<<10)}, 4096)
	data, err := marshalResults(Machine{}, 200, 10, []Result{r})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Runs  int `json:"runs"`
		Cases []struct {
			Runs              int               `json:"runs"`
			Warmup            int               `json:"warmup"`
			MaxRSSMiB         float64           `json:"max_rss_mib"`
			RSSMet            *bool             `json:"rss_met"`
			Met               *bool             `json:"met"`
			Labels            map[string]string `json:"labels"`
			HarnessPeakRSSKiB int64             `json:"harness_peak_rss_kib"`
			Subject           struct {
				PeakRSSKiB int64    `json:"peak_rss_kib"`
				P99MS      *float64 `json:"p99_ms"`
			} `json:"subject"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	jc := got.Cases[0]
	if got.Runs != 200 || jc.Runs != 2 || jc.Warmup != 0 {
		t.Errorf("runs: default %d, case %d, warmup %d", got.Runs, jc.Runs, jc.Warmup)
	}
	if jc.MaxRSSMiB != 150 || jc.RSSMet == nil || !*jc.RSSMet || jc.Met != nil {
		t.Errorf("rss target %v, rss_met %v, met %v", jc.MaxRSSMiB, jc.RSSMet, jc.Met)
	}
	if jc.Labels["series"] != "check" || jc.Labels["files"] != "100000" {
		t.Errorf("labels %v", jc.Labels)
	}
	if jc.Subject.P99MS == nil || *jc.Subject.P99MS != 3 {
		t.Errorf("subject p99_ms %v, want 3", jc.Subject.P99MS)
	}
	if jc.HarnessPeakRSSKiB != 4096 || jc.Subject.PeakRSSKiB != 100<<10 {
		t.Errorf("peaks: harness %d, subject %d", jc.HarnessPeakRSSKiB, jc.Subject.PeakRSSKiB)
	}
}

func TestMarshalResultsPercentiles(t *testing.T) {
	ms := make([]float64, 101) // 0, 1, ..., 100 ms: the p-th percentile is p ms
	for i := range ms {
		ms[i] = float64(i)
	}
	r := summarize(Case{Name: "p"}, Pair{Reference: side(ms, 0, 0), Subject: side(ms, 0, 0)}, 0)
	data, err := marshalResults(Machine{}, 101, 0, []Result{r})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Cases []struct {
			Reference struct {
				MedianMS float64 `json:"median_ms"`
				P90MS    float64 `json:"p90_ms"`
				P99MS    float64 `json:"p99_ms"`
			} `json:"reference"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if ref := got.Cases[0].Reference; ref.MedianMS != 50 || ref.P90MS != 90 || ref.P99MS != 99 {
		t.Errorf("median/p90/p99 = %v/%v/%v, want 50/90/99", ref.MedianMS, ref.P90MS, ref.P99MS)
	}
}
