//go:build realcli

package realcli

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// result is one scenario's outcome against one CLI.
type result struct {
	cli, scenario, outcome, reason string
	observed                       []string
}

type resultSet struct {
	mu   sync.Mutex
	list []result
}

var results resultSet

func (rs *resultSet) add(r result) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.list = append(rs.list, r)
}

// writeReport prints the table of scenarios by CLI, with the reason for each
// result that is not a pass, and writes it to $MASSGEN_REALCLI_REPORT
// (default ../.cache/realcli/report.md, beside the repository's other
// ignored files) for the docs. A skipped CLI gets a loud summary line.
func writeReport(w io.Writer) error {
	results.mu.Lock()
	list := append([]result(nil), results.list...)
	results.mu.Unlock()
	if len(list) == 0 {
		return nil
	}
	table := renderReport(list)
	fmt.Fprint(w, "\n"+table)
	for _, line := range skipSummary(list) {
		fmt.Fprintln(w, line)
	}
	path := os.Getenv("MASSGEN_REALCLI_REPORT")
	if path == "" {
		path = filepath.Join("..", ".cache", "realcli", "report.md")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		return err
	}
	abs, _ := filepath.Abs(path)
	fmt.Fprintf(w, "realcli: table written to %s\n", abs)
	return nil
}

// renderReport is the Markdown table: one row per scenario, one column per
// CLI ("—" where the CLI has no such scenario), then the reasons.
func renderReport(list []result) string {
	var scenarios []string
	seen := map[string]bool{}
	cells := map[[2]string]result{}
	for _, r := range list {
		if !seen[r.scenario] {
			seen[r.scenario] = true
			scenarios = append(scenarios, r.scenario)
		}
		cells[[2]string{r.scenario, r.cli}] = r
	}
	sortScenarios(scenarios)
	var b strings.Builder
	b.WriteString("| scenario | " + strings.Join(cliOrder, " | ") + " |\n")
	b.WriteString("|---" + strings.Repeat("|---", len(cliOrder)) + "|\n")
	var notes []string
	for _, sc := range scenarios {
		row := []string{sc}
		for _, c := range cliOrder {
			r, ok := cells[[2]string{sc, c}]
			switch {
			case !ok:
				row = append(row, "—")
			default:
				var refs []string
				if r.outcome != "pass" {
					notes = append(notes, fmt.Sprintf("%d. %s, %s: %s: %s", len(notes)+1, sc, c, r.outcome, oneLine(r.reason)))
					refs = append(refs, fmt.Sprint(len(notes)))
				}
				for _, o := range r.observed {
					notes = append(notes, fmt.Sprintf("%d. %s, %s: observed: %s", len(notes)+1, sc, c, oneLine(o)))
					refs = append(refs, fmt.Sprint(len(notes)))
				}
				cell := r.outcome
				if len(refs) > 0 {
					cell += " (" + strings.Join(refs, ", ") + ")"
				}
				row = append(row, cell)
			}
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
	return b.String()
}

// sortScenarios puts the rows in the order the CLIs declare their
// scenarios (the first CLI's first), which keeps a topic's rows together.
func sortScenarios(names []string) {
	rank := map[string]int{}
	for _, name := range cliOrder {
		if c := cliNamed(name); c != nil {
			for _, sc := range c.all() {
				if _, ok := rank[sc.Name]; !ok {
					rank[sc.Name] = len(rank)
				}
			}
		}
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(rank[a], rank[b]) })
}

// skipSummary is one loud line per CLI that was skipped, so a local run
// that tested nothing real cannot pass unnoticed.
func skipSummary(list []result) []string {
	skipped := map[string]string{}
	var order []string
	for _, r := range list {
		if r.outcome == "skip" {
			if _, ok := skipped[r.cli]; !ok {
				order = append(order, r.cli)
			}
			skipped[r.cli] = r.reason
		}
	}
	var out []string
	for _, c := range order {
		out = append(out, fmt.Sprintf("realcli: SKIPPED %s: %s (MASSGEN_REALCLI_REQUIRED=1 makes this a failure)", c, oneLine(skipped[c])))
	}
	return out
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return clip(s, 300)
}
