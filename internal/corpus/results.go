package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// ResultsVersion is the version of the results document.
const ResultsVersion = 1

// Result is what the current config decided on one recording.
type Result struct {
	File  string `json:"file"`
	Event string `json:"event"`
	Tool  string `json:"tool,omitempty"`
	Agent string `json:"agent,omitempty"`
	Verdict
}

// Skipped is a file of the corpus that could not be replayed.
type Skipped struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// Results is a replay's outcome: `replay --format json` prints it, and `replay
// --diff` reads it back.
type Results struct {
	Version int       `json:"version"`
	Results []Result  `json:"results"`
	Skipped []Skipped `json:"skipped,omitempty"`
	// Diff is the comparison with a previous run, when one was asked for.
	Diff *Diff `json:"diff,omitempty"`
}

// Encode is rs as an indented JSON document.
func (rs *Results) Encode() ([]byte, error) { return encode(rs) }

// ReadResults reads a document printed by `replay --format json`.
func ReadResults(data []byte) (*Results, error) {
	var rs Results
	if err := json.Unmarshal(data, &rs); err != nil {
		return nil, fmt.Errorf("not the output of replay --format json: %v", err)
	}
	switch {
	case rs.Version == 0 || rs.Results == nil:
		return nil, errors.New("not the output of replay --format json: no version or results")
	case rs.Version != ResultsVersion:
		return nil, fmt.Errorf("results version %d; this massgen-hook reads version %d", rs.Version, ResultsVersion)
	}
	return &rs, nil
}

// Change is one difference between two runs over a corpus.
type Change struct {
	File string `json:"file"`
	// Kind is "changed" (another decision or exit status), "reason" (the
	// same decision, another reason), "new" (not in the previous run) or
	// "missing" (not in this one).
	Kind string   `json:"kind"`
	Was  *Verdict `json:"was,omitempty"`
	Now  *Verdict `json:"now,omitempty"`
}

// Diff compares two runs.
type Diff struct {
	// Compared counts the files in both runs.
	Compared int `json:"compared"`
	Changed  int `json:"changed"`
	Reasons  int `json:"reasons_changed"`
	New      int `json:"new"`
	Missing  int `json:"missing"`
	// Changes are in file order.
	Changes []Change `json:"changes"`
}

// Compare is the difference from prev to cur, matched by file name.
func Compare(prev, cur []Result) *Diff {
	was := make(map[string]Verdict, len(prev))
	for _, r := range prev {
		was[r.File] = r.Verdict
	}
	d := &Diff{Changes: []Change{}}
	seen := make(map[string]bool, len(cur))
	for _, r := range cur {
		seen[r.File] = true
		now := r.Verdict
		old, ok := was[r.File]
		switch {
		case !ok:
			d.New++
			d.Changes = append(d.Changes, Change{File: r.File, Kind: "new", Now: &now})
			continue
		case old.Decision != now.Decision || old.Exit != now.Exit:
			d.Changed++
			d.Changes = append(d.Changes, Change{File: r.File, Kind: "changed", Was: &old, Now: &now})
		case old.Reason != now.Reason:
			d.Reasons++
			d.Changes = append(d.Changes, Change{File: r.File, Kind: "reason", Was: &old, Now: &now})
		}
		d.Compared++
	}
	for _, r := range prev {
		if !seen[r.File] {
			old := r.Verdict
			d.Missing++
			d.Changes = append(d.Changes, Change{File: r.File, Kind: "missing", Was: &old})
		}
	}
	sort.SliceStable(d.Changes, func(i, j int) bool { return d.Changes[i].File < d.Changes[j].File })
	return d
}

// String is c as one line for a person.
func (c Change) String() string {
	switch c.Kind {
	case "new":
		return fmt.Sprintf("%s: new: %s", c.File, c.Now)
	case "missing":
		return fmt.Sprintf("%s: missing: was %s", c.File, c.Was)
	case "reason":
		return fmt.Sprintf("%s: same decision, new reason: was %s → now %s", c.File, c.Was, c.Now)
	}
	return fmt.Sprintf("%s: was %s → now %s", c.File, c.Was, c.Now)
}

// Summary is d in one line.
func (d *Diff) Summary() string {
	s := fmt.Sprintf("%d compared: %d changed, %d with a new reason, %d new, %d missing", d.Compared, d.Changed, d.Reasons, d.New, d.Missing)
	if d.Changed == 0 {
		s += "; no decision changed"
	}
	return s
}
