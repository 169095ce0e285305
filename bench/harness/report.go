package main

import (
	"fmt"
	"math"
	"strings"
)

// renderTable renders the results as a Markdown report: a line describing
// the machine (left out when m is nil) and the runs, the table, and notes on
// anything that needs explaining. runs and warmup are the defaults, which a
// case may override.
func renderTable(m *Machine, runs, warmup int, results []Result) string {
	var b strings.Builder
	if m != nil {
		fmt.Fprintf(&b, "Machine: %s.\n\n", *m)
	}
	fmt.Fprintf(&b, "Runs: %d alternating reference/subject pairs per case, after %d warmup pairs (discarded)", runs, warmup)
	var own []Result
	for _, r := range results {
		if r.Case.runsOr(runs) != runs || r.Case.warmupOr(warmup) != warmup {
			own = append(own, r)
		}
	}
	if len(own) > 0 {
		b.WriteString(", unless a note below says otherwise")
	}
	b.WriteString(". Times are whole-process wall times in milliseconds.\n\n")

	rssTargets := false
	for _, r := range results {
		rssTargets = rssTargets || r.HasRSSTarget
	}
	b.WriteString("| case | reference median (ms) | subject median (ms) | ratio | p90 subject (ms) | target | met? | peak RSS subject (MiB) |")
	if rssTargets {
		b.WriteString(" RSS target | RSS met? |")
	}
	b.WriteString("\n|---|---:|---:|---:|---:|---|---|---:|")
	if rssTargets {
		b.WriteString("---|---|")
	}
	b.WriteString("\n")
	var bounded, failed bool
	for _, r := range results {
		met := yesNo(r.HasTarget, r.Met)
		if r.failed() {
			met += " †"
			failed = true
		}
		rss := mib(r.Pair.Subject.peakRSSKiB())
		if r.subjectRSSIsBound() {
			rss = "≤ " + rss
			bounded = true
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |",
			cell(r.Case.Name), millis(r.ReferenceMedian), millis(r.SubjectMedian), ratioCell(r),
			millis(r.SubjectP90), orDash(r.Case.Target), met, rss)
		if rssTargets {
			rssTarget := "—"
			if r.HasRSSTarget {
				rssTarget = r.Case.RSSTarget
				if rssTarget == "" {
					rssTarget = fmt.Sprintf("≤ %g MiB", r.Case.MaxRSSMiB)
				}
				rssTarget = cell(rssTarget)
			}
			fmt.Fprintf(&b, " %s | %s |", rssTarget, yesNo(r.HasRSSTarget, r.RSSMet))
		}
		b.WriteString("\n")
	}

	if bounded {
		b.WriteString("\n“≤” in the RSS column: the subject's reported peak is not above the harness's own peak RSS, " +
			"which Linux folds into the figure of every process Go starts (golang/go#32054), " +
			"so the subject's true peak is at most that much.\n")
	}
	if len(own) > 0 {
		b.WriteString("\nCases measured with their own number of runs:\n\n")
		for _, r := range own {
			fmt.Fprintf(&b, "- %s: %d measured pairs after %d warmup pairs\n", r.Case.Name, r.Case.runsOr(runs), r.Case.warmupOr(warmup))
		}
	}
	if failed {
		b.WriteString("\n† Non-zero exits (the run went on; a failing command may look faster than it is):\n\n")
		for _, r := range results {
			writeFailures(&b, r.Case.Name, "reference", r.Pair.Reference)
			writeFailures(&b, r.Case.Name, "subject", r.Pair.Subject)
		}
	}
	return b.String()
}

// ratioCell formats the ratio of r. For a speed-up target (max_ratio below
// 1) it also says how many times faster the subject is, since "0.04×" is
// hard to read against "≥ 20× faster".
func ratioCell(r Result) string {
	s := times(r.Ratio)
	if !r.Case.speedUp() || math.IsNaN(r.Ratio) || math.IsInf(r.Ratio, 0) {
		return s
	}
	if r.Ratio >= 1 || r.Ratio <= 0 {
		return s + " (not faster)"
	}
	return fmt.Sprintf("%s (%.1f× faster)", s, 1/r.Ratio)
}

// yesNo is "—" without a target, else whether it was met.
func yesNo(has, met bool) string {
	switch {
	case !has:
		return "—"
	case met:
		return "yes"
	}
	return "no"
}

// orDash is s, or "—" when it is empty, made safe for a table cell.
func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return cell(s)
}

// writeFailures writes a list item about the non-zero exits of one side of a
// case, if there were any.
func writeFailures(b *strings.Builder, name, which string, s Side) {
	if s.NonZeroExits == 0 {
		return
	}
	fmt.Fprintf(b, "- %s, %s: %d of %d runs exited non-zero", name, which, s.NonZeroExits, len(s.Samples))
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

// times formats a ratio with two decimals and a multiplication sign, or
// three below 0.1, where two would leave one significant digit.
func times(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if x < 0.1 {
		return fmt.Sprintf("%.3f×", x)
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
