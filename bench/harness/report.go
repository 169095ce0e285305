package main

import (
	"fmt"
	"math"
	"strings"
)

// renderTable renders the results as a Markdown report: a line describing
// the machine and the runs, the table, and notes on anything that needs
// explaining.
func renderTable(m Machine, runs, warmup int, results []Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Machine: %s.\n\n", m)
	fmt.Fprintf(&b, "Runs: %d alternating reference/subject pairs per case, after %d warmup pairs (discarded). "+
		"Times are whole-process wall times in milliseconds.\n\n", runs, warmup)

	b.WriteString("| case | reference median (ms) | subject median (ms) | ratio | p90 subject (ms) | target | met? | peak RSS subject (MiB) |\n")
	b.WriteString("|---|---:|---:|---:|---:|---|---|---:|\n")
	var bounded, failed bool
	for _, r := range results {
		met := "—"
		if r.HasTarget {
			met = map[bool]string{true: "yes", false: "no"}[r.Met]
		}
		if r.failed() {
			met += " †"
			failed = true
		}
		rss := mib(r.Pair.Subject.peakRSSKiB())
		if r.subjectRSSIsBound() {
			rss = "≤ " + rss
			bounded = true
		}
		target := r.Case.Target
		if target == "" {
			target = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			cell(r.Case.Name), millis(r.ReferenceMedian), millis(r.SubjectMedian), times(r.Ratio),
			millis(r.SubjectP90), cell(target), met, rss)
	}

	if bounded {
		b.WriteString("\n“≤” in the RSS column: the subject's reported peak is not above the harness's own peak RSS, " +
			"which Linux folds into the figure of every process Go starts (golang/go#32054), " +
			"so the subject's true peak is at most that much.\n")
	}
	if failed {
		b.WriteString("\n† Non-zero exits (the run went on; a failing command may look faster than it is):\n\n")
		for _, r := range results {
			writeFailures(&b, r.Case.Name, "reference", r.Pair.Reference, runs)
			writeFailures(&b, r.Case.Name, "subject", r.Pair.Subject, runs)
		}
	}
	return b.String()
}

// writeFailures writes a list item about the non-zero exits of one side of a
// case, if there were any.
func writeFailures(b *strings.Builder, name, which string, s Side, runs int) {
	if s.NonZeroExits == 0 {
		return
	}
	fmt.Fprintf(b, "- %s, %s: %d of %d runs exited non-zero", name, which, s.NonZeroExits, runs)
	if s.FirstStderrLine != "" {
		fmt.Fprintf(b, "; first stderr line: `%s`", strings.ReplaceAll(s.FirstStderrLine, "`", "'"))
	}
	b.WriteString("\n")
}

// millis formats a time in milliseconds with two decimals.
func millis(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", ms)
}

// times formats a ratio with two decimals and a multiplication sign.
func times(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", x)
}

// mib formats a size in KiB as MiB with one decimal, or "n/a" for zero,
// which means the system did not report it.
func mib(kib int64) string {
	if kib <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f", float64(kib)/1024)
}

// cell makes s safe to put in a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}
