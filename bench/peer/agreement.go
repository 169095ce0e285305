package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The targets: the share of the peers' block cases massgen-hook denies and
// of their allow cases it lets through, over the whole corpus.
const (
	blockTarget = 0.98
	allowTarget = 0.97
)

// verdict is one case with massgen-hook's answer to it.
type verdict struct {
	peerCase
	answer
}

// agrees tells whether massgen-hook's answer is the peer's verdict. An ask
// stops the command until a person answers (and under -p it is a refusal),
// so it agrees with block and not with allow. A failure agrees with neither.
func (v verdict) agrees() bool {
	if v.Expected == expectBlock {
		return v.Kind == denied || v.Kind == asked
	}
	return v.Kind == allowed
}

// figures counts the cases of one peer, or of all, by verdict and agreement.
type figures struct {
	block, blockDenied  int
	allow, allowAllowed int
	asked               int
}

func (f *figures) add(v verdict) {
	if v.Kind == asked {
		f.asked++
	}
	if v.Expected == expectBlock {
		f.block++
		if v.agrees() {
			f.blockDenied++
		}
		return
	}
	f.allow++
	if v.agrees() {
		f.allowAllowed++
	}
}

func share(n, total int) float64 {
	if total == 0 {
		return 1
	}
	return float64(n) / float64(total)
}

// met tells whether both targets are met.
func (f figures) met() bool {
	return share(f.blockDenied, f.block) >= blockTarget && share(f.allowAllowed, f.allow) >= allowTarget
}

// agreement is the judged run over the corpus.
type agreement struct {
	overall figures
	peers   []string
	perPeer map[string]*figures
	// disagreements are the cases massgen-hook decides otherwise, in id
	// order; failed runs are among them.
	disagreements []verdict
	failures      []verdict
	documented    map[int]bool // of the disagreements, those the page lists
	stale         []string     // what the page lists that is no longer true
}

// judge counts the verdicts and compares the disagreements with the page's
// list. An entry is stale when its case now agrees, is not in the corpus,
// or says the peer gives another verdict than the corpus does.
func judge(c corpus, verdicts []verdict, doc documented) agreement {
	a := agreement{peers: c.peerNames(), perPeer: map[string]*figures{}, documented: map[int]bool{}}
	for _, p := range a.peers {
		a.perPeer[p] = &figures{}
	}
	byID := map[int]verdict{}
	for _, v := range verdicts {
		byID[v.ID] = v
		a.overall.add(v)
		for _, p := range v.Peers {
			a.perPeer[p].add(v)
		}
		if v.Kind == failed {
			a.failures = append(a.failures, v)
		}
		if !v.agrees() {
			a.disagreements = append(a.disagreements, v)
			if _, ok := doc.peers[v.ID]; ok {
				a.documented[v.ID] = true
			}
		}
	}
	slices.SortFunc(a.disagreements, func(x, y verdict) int { return x.ID - y.ID })
	ids := make([]int, 0, len(doc.peers))
	for id := range doc.peers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		row := doc.peers[id]
		v, ok := byID[id]
		switch {
		case !ok:
			a.stale = append(a.stale, fmt.Sprintf("line %d: case %d is not in the corpus", row.line, id))
		case row.says != v.Expected:
			a.stale = append(a.stale, fmt.Sprintf("line %d: case %d: the page says the peer says %s; it says %s", row.line, id, row.says, v.Expected))
		case v.agrees() && !row.machine:
			a.stale = append(a.stale, fmt.Sprintf("line %d: case %d now agrees (%s, %s): remove it from the page", row.line, id, v.Expected, v.Kind))
		}
	}
	return a
}

// undocumented are the disagreements the page does not list.
func (a agreement) undocumented() []verdict {
	var out []verdict
	for _, v := range a.disagreements {
		if !a.documented[v.ID] {
			out = append(out, v)
		}
	}
	return out
}

// ok tells whether `make peer` passes on the corpus: targets met, every
// disagreement documented, nothing stale, no failed run.
func (a agreement) ok() bool {
	return a.overall.met() && len(a.undocumented()) == 0 && len(a.stale) == 0 && len(a.failures) == 0
}

// render writes the report: the figures, then every disagreement, the
// undocumented ones first, then what is stale and what failed.
func (a agreement) render(w io.Writer, docPath string) {
	fmt.Fprintln(w, "| peers' cases | total | massgen-hook agrees | share | target | met? |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---|")
	row := func(label string, n, total int, target float64) {
		met := "met"
		if share(n, total) < target {
			met = "not met"
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | ≥ %.0f%% | %s |\n", label, total, n, percent(n, total), target*100, met)
	}
	row("block → denied, all peers", a.overall.blockDenied, a.overall.block, blockTarget)
	row("allow → allowed, all peers", a.overall.allowAllowed, a.overall.allow, allowTarget)
	for _, p := range a.peers {
		f := a.perPeer[p]
		row("block → denied, "+shortPeer(p), f.blockDenied, f.block, blockTarget)
		row("allow → allowed, "+shortPeer(p), f.allowAllowed, f.allow, allowTarget)
	}
	fmt.Fprintln(w)
	verdictWord := "met"
	if !a.overall.met() {
		verdictWord = "NOT met"
	}
	fmt.Fprintf(w, "Targets (all peers): %s. Asked (counted as denied): %d. A case both peers assert counts once in \"all peers\" and once for each peer.\n", verdictWord, a.overall.asked)

	und := a.undocumented()
	fmt.Fprintf(w, "\nDisagreements: %d (%d undocumented, %d listed in %s)\n", len(a.disagreements), len(und), len(a.disagreements)-len(und), docPath)
	if len(und) > 0 {
		fmt.Fprintln(w, "\nUndocumented:")
		for _, v := range und {
			writeDisagreement(w, v)
		}
	}
	if len(und) < len(a.disagreements) {
		fmt.Fprintln(w, "\nDocumented:")
		for _, v := range a.disagreements {
			if a.documented[v.ID] {
				writeDisagreement(w, v)
			}
		}
	}
	if len(a.stale) > 0 {
		fmt.Fprintf(w, "\nStale in %s:\n", docPath)
		for _, s := range a.stale {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	if len(a.failures) > 0 {
		fmt.Fprintf(w, "\nFailed hook runs: %d (see the reasons above)\n", len(a.failures))
	}
}

// writeDisagreement writes one case: id, peers, the peer's verdict and ours,
// the command, and our reason when we denied, asked or failed.
func writeDisagreement(w io.Writer, v verdict) {
	names := make([]string, len(v.Peers))
	for i, p := range v.Peers {
		names[i] = shortPeer(p)
	}
	fmt.Fprintf(w, "  #%-4d %-50s %s, %s: %s\n", v.ID, strings.Join(names, "+"), v.Expected, v.Kind, showCommand(v.Command))
	if v.Kind != allowed {
		fmt.Fprintf(w, "        ↳ %s\n", clip(oneLine(v.Reason), 200))
	}
}

func percent(n, total int) string { return fmt.Sprintf("%.1f%%", 100*share(n, total)) }

// showCommand prints a command on one line: as written when it is short and
// printable, Go-quoted when it holds a newline or another control character,
// and cut after 120 characters with its length given.
func showCommand(s string) string {
	shown := s
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) }) >= 0 {
		shown = strconv.Quote(s)
	}
	if utf8.RuneCountInString(shown) > 120 {
		return clip(shown, 120) + fmt.Sprintf(" (%d bytes)", len(s))
	}
	return shown
}

// clip cuts s to n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// oneLine folds the lines of s into one.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
