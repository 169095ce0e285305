package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// results is the part of the harness's -json file this program reads.
type results struct {
	Runs   int          `json:"runs"`
	Warmup int          `json:"warmup"`
	Cases  []resultCase `json:"cases"`
}

type resultCase struct {
	Name      string            `json:"name"`
	Runs      int               `json:"runs"`
	Warmup    int               `json:"warmup"`
	Labels    map[string]string `json:"labels"`
	Reference resultSide        `json:"reference"`
	Subject   resultSide        `json:"subject"`
}

type resultSide struct {
	MedianMS        *float64 `json:"median_ms"`
	P99MS           *float64 `json:"p99_ms"`
	NonZeroExits    int      `json:"nonzero_exits"`
	FirstStderrLine string   `json:"first_stderr_line"`
	StdoutBytes     []int64  `json:"stdout_bytes"`
}

func parseResults(data []byte) (*results, error) {
	var r results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// differentOutput counts the measured pairs of c whose two hooks wrote
// answers of different sizes. Both sides get the same messages, so a NATS
// hook that delivered fewer (or none) shows here; a send prints an id of
// fixed length either way.
func (c *resultCase) differentOutput() int {
	n := 0
	for i, ref := range c.Reference.StdoutBytes {
		if i >= len(c.Subject.StdoutBytes) || c.Subject.StdoutBytes[i] != ref {
			n++
		}
	}
	return n + max(0, len(c.Subject.StdoutBytes)-len(c.Reference.StdoutBytes))
}

// render writes the table: each case's median and p99 on each backend,
// their ratios, and what NATS adds to the median; then notes on runs,
// failures and answers that differ.
func render(w io.Writer, r *results) {
	var b strings.Builder
	fmt.Fprintf(&b, "Runs: %d alternating file/NATS pairs per case, after %d warmup pairs (discarded), unless a note below says otherwise. "+
		"Times are whole-process wall times in milliseconds; p99 is the 99th percentile (linear interpolation between ranks).\n\n", r.Runs, r.Warmup)
	fmt.Fprintf(&b, "| case | file median (ms) | NATS median (ms) | ratio | NATS − file (ms) | file p99 (ms) | NATS p99 (ms) | p99 ratio |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	var notes []string
	for _, c := range r.Cases {
		ref, sub := c.Reference, c.Subject
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", c.Name,
			millis(ref.MedianMS), millis(sub.MedianMS), ratio(sub.MedianMS, ref.MedianMS), diff(sub.MedianMS, ref.MedianMS),
			millis(ref.P99MS), millis(sub.P99MS), ratio(sub.P99MS, ref.P99MS))
		if c.Runs != r.Runs {
			notes = append(notes, fmt.Sprintf("%s: %d measured pairs.", c.Name, c.Runs))
		}
		for _, s := range []struct {
			backend string
			side    resultSide
		}{{"file", ref}, {"NATS", sub}} {
			if s.side.NonZeroExits > 0 {
				notes = append(notes, fmt.Sprintf("%s, %s: %d of %d runs exited non-zero (first stderr line: %s); treat the row as suspect.",
					c.Name, s.backend, s.side.NonZeroExits, len(s.side.StdoutBytes), s.side.FirstStderrLine))
			} else if s.side.FirstStderrLine != "" {
				notes = append(notes, fmt.Sprintf("%s, %s: wrote to stderr: %s", c.Name, s.backend, s.side.FirstStderrLine))
			}
		}
		if n := c.differentOutput(); n > 0 {
			notes = append(notes, fmt.Sprintf("%s: in %d pairs the two hooks' answers differ in size (not the same messages delivered); treat the row as suspect.", c.Name, n))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
	}
	io.WriteString(w, b.String())
}

func millis(x *float64) string {
	if x == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", *x)
}

func ratio(sub, ref *float64) string {
	if sub == nil || ref == nil || *ref == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", *sub / *ref)
}

func diff(sub, ref *float64) string {
	if sub == nil || ref == nil {
		return "n/a"
	}
	d := *sub - *ref
	if math.Abs(d) < 0.005 {
		d = 0
	}
	return fmt.Sprintf("%+.2f", d)
}
