// Command scaling renders the scaling curve of the benchmarks from the
// harness's -json results: for each number of scratchpad files, the median
// wall time of `massgen-hook check` and of `session-start`, check's cost per
// 1,000 files, and three verdicts:
//
//   - linear: check's cost per file above the floor at the largest size is
//     within -linear times its cost at the next size down (a quadratic term
//     would show as about 10× between 10,000 and 100,000 files);
//   - under the limit: check's median at -limit-files files is below -limit-ms;
//   - flat: session-start's ratio to the floor at the largest size is within
//     -flat times its ratio at the smallest. The ratio, not the median, is
//     compared, because each case alternates with its own floor runs and the
//     ratio cancels the machine's drift between cases.
//
// It finds its cases by their labels in the spec: "series" ("check" or
// "session-start") and "files" (the number of scratchpad files). Cases
// without them are ignored; a series or size that was not measured is shown
// as such (a run with -only measures one case).
//
// Usage:
//
//	go run ./bench/scaling [-linear 1.25] [-flat 1.15] [-limit-files 100000] [-limit-ms 2000] results.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

func main() {
	var o options
	flag.Float64Var(&o.linear, "linear", 1.25, "largest allowed growth of check's per-file cost from the second-largest to the largest size")
	flag.Float64Var(&o.flat, "flat", 1.15, "largest allowed growth of session-start's ratio to the floor from the smallest to the largest size")
	flag.IntVar(&o.limitFiles, "limit-files", 100000, "size at which check must stay under -limit-ms")
	flag.Float64Var(&o.limitMS, "limit-ms", 2000, "largest median check time, in ms, at -limit-files files")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: scaling [-linear X] [-flat X] [-limit-files N] [-limit-ms MS] results.json\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "scaling: %v\n", err)
		os.Exit(2)
	}
	points, err := parse(data)
	if err != nil {
		fmt.Fprintf(os.Stderr, "scaling: %s: %v\n", flag.Arg(0), err)
		os.Exit(2)
	}
	render(os.Stdout, points, o)
}

// options are the tolerances and the limit of the verdicts.
type options struct {
	linear, flat, limitMS float64
	limitFiles            int
}

// point is one measured case of a series at one size.
type point struct {
	files int
	// median and reference are the subject's and the floor's median wall
	// times in ms; ratio is their ratio.
	median, reference, ratio float64
	runs                     int
	// failed tells whether a command exited non-zero in a measured run.
	failed bool
}

// perK is the cost above the floor per 1,000 files, in ms.
func (p point) perK() float64 { return (p.median - p.reference) / (float64(p.files) / 1000) }

// series holds the points of check and session-start by size.
type series struct{ check, start map[int]point }

// parse reads the harness's -json results and keeps the labelled cases.
func parse(data []byte) (series, error) {
	var rep struct {
		Cases []struct {
			Name              string            `json:"name"`
			Labels            map[string]string `json:"labels"`
			Runs              int               `json:"runs"`
			ReferenceMedianMS *float64          `json:"reference_median_ms"`
			SubjectMedianMS   *float64          `json:"subject_median_ms"`
			Ratio             *float64          `json:"ratio"`
			Reference         struct {
				NonZeroExits int `json:"nonzero_exits"`
			} `json:"reference"`
			Subject struct {
				NonZeroExits int `json:"nonzero_exits"`
			} `json:"subject"`
		} `json:"cases"`
	}
	s := series{check: map[int]point{}, start: map[int]point{}}
	if err := json.Unmarshal(data, &rep); err != nil {
		return s, err
	}
	for _, c := range rep.Cases {
		var into map[int]point
		switch c.Labels["series"] {
		case "check":
			into = s.check
		case "session-start":
			into = s.start
		default:
			continue
		}
		files, err := strconv.Atoi(c.Labels["files"])
		if err != nil || files <= 0 {
			return s, fmt.Errorf("case %q: label files %q is not a positive number", c.Name, c.Labels["files"])
		}
		if c.SubjectMedianMS == nil || c.ReferenceMedianMS == nil || c.Ratio == nil {
			return s, fmt.Errorf("case %q: no median (no runs?)", c.Name)
		}
		into[files] = point{files: files, median: *c.SubjectMedianMS, reference: *c.ReferenceMedianMS, ratio: *c.Ratio,
			runs: c.Runs, failed: c.Reference.NonZeroExits+c.Subject.NonZeroExits > 0}
	}
	return s, nil
}

// render writes the curve table and the verdicts.
func render(w io.Writer, s series, o options) {
	sizes := map[int]bool{}
	for n := range s.check {
		sizes[n] = true
	}
	for n := range s.start {
		sizes[n] = true
	}
	if len(sizes) == 0 {
		fmt.Fprintln(w, "No scaling case was measured.")
		return
	}
	var ns []int
	for n := range sizes {
		ns = append(ns, n)
	}
	sort.Ints(ns)

	fmt.Fprintln(w, "| scratchpad files | check median (ms) | check ms per 1k files (above the floor) | session-start median (ms) | session-start ratio to the floor |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|")
	failed := false
	for _, n := range ns {
		c, hasC := s.check[n]
		st, hasS := s.start[n]
		cols := []string{"not measured", "—", "not measured", "—"}
		if hasC {
			cols[0], cols[1] = ms(c.median)+dagger(c.failed), fmt.Sprintf("%.2f", c.perK())
			failed = failed || c.failed
		}
		if hasS {
			cols[2], cols[3] = ms(st.median)+dagger(st.failed), fmt.Sprintf("%.2f×", st.ratio)
			failed = failed || st.failed
		}
		fmt.Fprintf(w, "| %s | %s |\n", thousands(n), strings.Join(cols, " | "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Runs (alternating with the floor): check %s; session-start %s.\n", runsList(s.check, ns), runsList(s.start, ns))
	if failed {
		fmt.Fprintln(w, "† A command exited non-zero in some runs (see the harness's output): treat that row as suspect.")
	}
	fmt.Fprintln(w)
	for _, v := range verdicts(s, o) {
		fmt.Fprintf(w, "- %s\n", v)
	}
}

// verdicts are the three judgements, one line each.
func verdicts(s series, o options) []string {
	var out []string
	cs := sortedKeys(s.check)
	if len(cs) >= 2 {
		big, prev := s.check[cs[len(cs)-1]], s.check[cs[len(cs)-2]]
		growth := big.perK() / prev.perK()
		out = append(out, fmt.Sprintf("check grows linearly: **%s**: its cost per file above the floor at %s files is %.2f× that at %s "+
			"(tolerance ≤ %.2f×; a quadratic term would show as about %.0f×).",
			yesNo(prev.perK() > 0 && growth <= o.linear), thousands(big.files), growth, thousands(prev.files), o.linear,
			float64(big.files)/float64(prev.files)))
	} else {
		out = append(out, "check grows linearly: not judged (fewer than two sizes measured).")
	}
	if p, ok := s.check[o.limitFiles]; ok {
		out = append(out, fmt.Sprintf("check over %s files under %s: **%s**: median %s ms.",
			thousands(o.limitFiles), seconds(o.limitMS), yesNo(p.median < o.limitMS), ms(p.median)))
	} else {
		out = append(out, fmt.Sprintf("check over %s files under %s: not measured.", thousands(o.limitFiles), seconds(o.limitMS)))
	}
	ss := sortedKeys(s.start)
	if len(ss) >= 2 {
		small, big := s.start[ss[0]], s.start[ss[len(ss)-1]]
		growth := big.ratio / small.ratio
		out = append(out, fmt.Sprintf("session-start flat in the number of dated files: **%s**: its ratio to the floor at %s files is %.2f× that at %s "+
			"(tolerance ≤ %.2f×; medians %s ms and %s ms).",
			yesNo(growth <= o.flat), thousands(big.files), growth, thousands(small.files), o.flat, ms(big.median), ms(small.median)))
	} else {
		out = append(out, "session-start flat in the number of dated files: not judged (fewer than two sizes measured).")
	}
	return out
}

func sortedKeys(m map[int]point) []int {
	var ns []int
	for n := range m {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	return ns
}

func runsList(m map[int]point, sizes []int) string {
	var parts []string
	for _, n := range sizes {
		if p, ok := m[n]; ok {
			parts = append(parts, fmt.Sprintf("%d at %s", p.runs, thousands(n)))
		}
	}
	if len(parts) == 0 {
		return "not measured"
	}
	return strings.Join(parts, ", ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func dagger(b bool) string {
	if b {
		return " †"
	}
	return ""
}

// ms formats milliseconds: two decimals below 100, none above.
func ms(x float64) string {
	if x >= 100 {
		return thousands(int(x + 0.5))
	}
	return fmt.Sprintf("%.2f", x)
}

func seconds(msec float64) string { return strconv.FormatFloat(msec/1000, 'g', -1, 64) + " s" }

// thousands formats n with comma separators: 100000 is "100,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
