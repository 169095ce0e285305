package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
)

// peerCase is one command a peer guard's tests assert a verdict on.
type peerCase struct {
	ID       int    `json:"id"`
	Command  string `json:"command"`
	Expected string `json:"expected"` // "block" or "allow"
	// Cwd is nil when the peer's test gave no working directory, and
	// "$PROJECT" when it ran in its own fresh project. Both run in the
	// setting's project here (see docs/peer-agreement.md).
	Cwd   *string  `json:"cwd"`
	Peers []string `json:"peers"` // owner/name of every peer asserting it
	Note  string   `json:"note"`
}

// corpus is the kept cases of peer-guard-corpus.json. Its skipped cases are
// not read: the file gives the reason each was left out.
type corpus struct {
	Cases []peerCase `json:"cases"`
}

const (
	expectBlock = "block"
	expectAllow = "allow"
	cwdProject  = "$PROJECT"
)

// loadCorpus reads and checks the corpus at path.
func loadCorpus(path string) (corpus, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return corpus{}, err
	}
	c, err := parseCorpus(data)
	if err != nil {
		return corpus{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// parseCorpus decodes a corpus and rejects what the harness could not run
// faithfully: a verdict other than block or allow, a working directory it
// does not know, a case without a command or a peer, or an id used twice.
func parseCorpus(data []byte) (corpus, error) {
	var c corpus
	if err := json.Unmarshal(data, &c); err != nil {
		return c, err
	}
	if len(c.Cases) == 0 {
		return c, errors.New("no cases")
	}
	seen := map[int]bool{}
	for _, pc := range c.Cases {
		switch {
		case pc.Expected != expectBlock && pc.Expected != expectAllow:
			return c, fmt.Errorf("case %d: expected %q, want block or allow", pc.ID, pc.Expected)
		case pc.Cwd != nil && *pc.Cwd != cwdProject:
			return c, fmt.Errorf("case %d: cwd %q, want null or %q", pc.ID, *pc.Cwd, cwdProject)
		case pc.Command == "":
			return c, fmt.Errorf("case %d: empty command", pc.ID)
		case len(pc.Peers) == 0:
			return c, fmt.Errorf("case %d: no peer", pc.ID)
		case seen[pc.ID]:
			return c, fmt.Errorf("case %d: id used twice", pc.ID)
		}
		seen[pc.ID] = true
	}
	return c, nil
}

// peerNames lists the peers of the corpus in a stable order.
func (c corpus) peerNames() []string {
	var names []string
	for _, pc := range c.Cases {
		for _, p := range pc.Peers {
			if !slices.Contains(names, p) {
				names = append(names, p)
			}
		}
	}
	slices.Sort(names)
	return names
}

// shortPeer is a peer's repository name without its owner.
func shortPeer(repo string) string { return path.Base(repo) }
