package config

import (
	"reflect"
	"strings"
)

// customKeys are the keys of the types that decode themselves (their
// struct fields carry no yaml tags to read them from).
var customKeys = map[string][]string{
	"EventHooks": {"override", "hooks"},
	"Hook":       hookKeys,
	"Record":     {"dir", "events"},
}

// keysOf returns the keys a mapping of the named config type accepts, read
// from the yaml tags of the types reachable from Config, so a key added to
// a struct is suggested without another list to keep.
func keysOf(typeName string) []string {
	if keys, ok := customKeys[typeName]; ok {
		return keys
	}
	var found []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || customKeys[t.Name()] != nil {
			return
		}
		seen[t] = true
		var keys []string
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys = append(keys, name)
			walk(f.Type)
		}
		if t.Name() == typeName && found == nil {
			found = keys
		}
	}
	walk(reflect.TypeOf(Config{}))
	return found
}

// suggestKey returns the accepted key closest to a mistyped one, or "":
// the same letters in another case or with other separators
// (failClosed, fail-closed), or at most two edits away (one for short keys).
func suggestKey(typo string, accepted []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(s))
	}
	limit := 2
	if len(typo) < 5 {
		limit = 1
	}
	best, bestDist := "", limit+1
	for _, k := range accepted {
		if norm(k) == norm(typo) {
			return k
		}
		if d := editDistance(strings.ToLower(typo), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, counting an
// adjacent swap as one edit (the commonest typo).
func editDistance(a, b string) int {
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
