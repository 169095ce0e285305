// Package suggest finds the word a person most likely meant: the "did you
// mean" of config keys, hook events and init's parts.
package suggest

import "strings"

// Closest returns the word of known closest to typo, or "": one with the
// same letters in another case or with other separators (failClosed,
// fail-closed for fail_closed), else one at most two edits away (one for
// words under five letters).
func Closest(typo string, known []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(s))
	}
	limit := 2
	if len(typo) < 5 {
		limit = 1
	}
	best, bestDist := "", limit+1
	for _, k := range known {
		if norm(k) == norm(typo) {
			return k
		}
		if d := Distance(strings.ToLower(typo), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// Distance is the edit distance between a and b: insertions, deletions,
// substitutions, and swaps of two neighbouring characters (the commonest
// typo) each count one.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
