package match

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/fixtures"
	"go.yaml.in/yaml/v3"
)

// fixtureMatchers pairs every matcher: of the fixtures' configs with every
// tool_name of their events.
func fixtureMatchers(tb testing.TB) [][2]string {
	tb.Helper()
	patterns := map[string]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 1 && n.Content[i-1].Value == "matcher" && c.Kind == yaml.ScalarNode {
				patterns[c.Value] = true
			}
			walk(c)
		}
	}
	for _, data := range fixtures.Files(tb, ".yaml") {
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) == nil {
			walk(&doc)
		}
	}
	tools := map[string]bool{}
	for _, data := range fixtures.Files(tb, ".json") {
		var ev struct {
			ToolName string `json:"tool_name"`
		}
		if json.Unmarshal(data, &ev) == nil && ev.ToolName != "" {
			tools[ev.ToolName] = true
		}
	}
	// Every pattern and every tool name once or twice, not every pair:
	// the fuzzer crosses them.
	ps, ts := slices.Sorted(maps.Keys(patterns)), slices.Sorted(maps.Keys(tools))
	if len(ps) == 0 || len(ts) == 0 {
		tb.Fatalf("no matchers (%d) or tool names (%d) in the fixtures", len(ps), len(ts))
	}
	var pairs [][2]string
	for i, p := range ps {
		pairs = append(pairs, [2]string{p, ts[i%len(ts)]}, [2]string{p, ts[(7*i+3)%len(ts)]})
	}
	for j, tool := range ts {
		pairs = append(pairs, [2]string{ps[j%len(ps)], tool})
	}
	return pairs
}

// fnmatchRegexp translates the fnmatch pattern pat to an anchored Go regular
// expression the way CPython's fnmatch.translate does, independently of
// glob: every character outside a bracket class is a literal, "*" (runs
// collapsed) is ".*", "?" is ".", and (?s) lets both cross newlines.
//
// A bracket class runs from "[" to the first "]" after an optional leading
// "!" and an optional leading "]" (which is then a literal). Which "-" are
// range operators is decided exactly as fnmatch.translate's chunking does:
// the first character of the seq is never an operator, and after a range
// "x-y" the character following y is never one either. Inverted ranges are
// dropped (they match nothing). A class left with no members matches
// nothing; negated, any one character.
//
// It departs from CPython in one place, on purpose: CPython removes an
// inverted range by splicing the class text and then looks at the first
// character of what is left, so "[b-a!x]" turns into "[^x]" and "[b-a!]"
// into ".". The fnmatch documentation says "[seq] matches any character in
// seq", and here "!" is in seq, not first; the oracle keeps it a member,
// as glob does.
//
// Every character is written as \x{...}, so no character in a class or
// outside it can be read as regexp syntax.
func fnmatchRegexp(pat string) string {
	p := []rune(pat)
	n := len(p)
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	lastStar := false
	for i := 0; i < n; {
		c := p[i]
		i++
		if c == '*' {
			if !lastStar {
				b.WriteString(`.*`)
			}
			lastStar = true
			continue
		}
		lastStar = false
		switch c {
		case '?':
			b.WriteString(`.`)
		case '[':
			j := i
			if j < n && p[j] == '!' {
				j++
			}
			if j < n && p[j] == ']' {
				j++
			}
			for j < n && p[j] != ']' {
				j++
			}
			if j >= n {
				// CPython makes an unclosed "[" a literal; Compile rejects it,
				// so FuzzGlob never gets here, but stay faithful anyway.
				b.WriteString(lit('['))
				continue
			}
			negate := p[i] == '!'
			start := i
			if negate {
				start++
			}
			b.WriteString(classRegexp(p[start:j], negate))
			i = j + 1
		default:
			b.WriteString(lit(c))
		}
	}
	b.WriteString(`\z`)
	return b.String()
}

// classRegexp builds the regexp for the seq of a bracket class (without its
// "!" and brackets), following fnmatch.translate's chunking.
func classRegexp(seq []rune, negate bool) string {
	// Split seq at the "-" that are range operators: CPython searches for
	// "-" from the second character, and after each hit resumes three
	// characters further on.
	var chunks [][]rune
	from, k := 0, 1
	for {
		d := -1
		for x := k; x < len(seq); x++ {
			if seq[x] == '-' {
				d = x
				break
			}
		}
		if d < 0 {
			break
		}
		chunks = append(chunks, seq[from:d])
		from = d + 1
		k = d + 3
	}
	if last := seq[from:]; len(last) > 0 {
		chunks = append(chunks, last)
	} else {
		// A trailing "-" is a literal member of the chunk before it.
		chunks[len(chunks)-1] = append(append([]rune(nil), chunks[len(chunks)-1]...), '-')
	}
	// Between chunks c[k-1] and c[k] sits a range from the last rune of
	// c[k-1] to the first of c[k]; every other rune is a literal member.
	type item struct{ lo, hi rune }
	var items []item
	for ci, ch := range chunks {
		for ri, r := range ch {
			rangeLo := ci+1 < len(chunks) && ri == len(ch)-1
			rangeHi := ci > 0 && ri == 0
			switch {
			case rangeHi:
				// Added with its lo below.
			case rangeLo:
				hi := chunks[ci+1][0]
				if r <= hi {
					items = append(items, item{r, hi})
				}
			default:
				items = append(items, item{r, r})
			}
		}
	}
	if len(items) == 0 {
		if negate {
			return `[\x{0}-\x{10FFFF}]`
		}
		return `[^\x{0}-\x{10FFFF}]`
	}
	var b strings.Builder
	b.WriteByte('[')
	if negate {
		b.WriteByte('^')
	}
	for _, it := range items {
		b.WriteString(lit(it.lo))
		if it.hi != it.lo {
			b.WriteByte('-')
			b.WriteString(lit(it.hi))
		}
	}
	b.WriteByte(']')
	return b.String()
}

func lit(r rune) string { return fmt.Sprintf(`\x{%X}`, r) }

// oracleMatch reports whether name matches the fnmatch pattern pat, by way
// of fnmatchRegexp.
func oracleMatch(pat, name string) bool {
	return regexp.MustCompile(fnmatchRegexp(pat)).MatchString(name)
}

func TestFnmatchRegexp(t *testing.T) {
	for _, c := range []struct{ pat, want string }{
		{"a*b", `(?s)\A\x{61}.*\x{62}\z`},
		{"a**?", `(?s)\A\x{61}.*.\z`},
		{"[!]]", `(?s)\A[^\x{5D}]\z`},
		{"[^x]", `(?s)\A[\x{5E}\x{78}]\z`},
		{"[a-c]", `(?s)\A[\x{61}-\x{63}]\z`},
		{"[a-]", `(?s)\A[\x{61}\x{2D}]\z`},
		{"[-a]", `(?s)\A[\x{2D}\x{61}]\z`},
		{"[a-c-e]", `(?s)\A[\x{61}-\x{63}\x{2D}\x{65}]\z`},
		{"[z-a]", `(?s)\A[^\x{0}-\x{10FFFF}]\z`},
		{"[!z-a]", `(?s)\A[\x{0}-\x{10FFFF}]\z`},
		{"[b-a!]", `(?s)\A[\x{21}]\z`},
		{"[", `(?s)\A\x{5B}\z`},
	} {
		if got := fnmatchRegexp(c.pat); got != c.want {
			t.Errorf("fnmatchRegexp(%q) = %s, want %s", c.pat, got, c.want)
		}
	}
}

// FuzzGlob compares glob with the fnmatch oracle on every single-alternative
// pattern Compile accepts. Alternatives ("|") are FuzzMatchAlternatives'.
func FuzzGlob(f *testing.F) {
	for _, c := range matchCases {
		if !strings.HasPrefix(c.pattern, RegexPrefix) && !strings.Contains(c.pattern, "|") {
			f.Add(c.pattern, c.name)
		}
	}
	for _, s := range [][2]string{
		{"[!]-a]", "^"},
		{"[a--b]", "b"},
		{"[---]", "-"},
		{"[a-b--c]", "0"},
		{"[c-b-a]", "-"},
		{"[z-a-b-c]", "c"},
		{"[b-ax-c]", "b"},
		{"[!b-a]", "\n"},
		{"[]-Ab]", "b"},
		{"*[]]*", "a]b"},
		{"?\n*", "é\nx"},
	} {
		f.Add(s[0], s[1])
	}
	for _, s := range fixtureMatchers(f) {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if len(pattern) > 64 || len(name) > 256 {
			t.Skip()
		}
		if !utf8.ValidString(pattern) || !utf8.ValidString(name) {
			t.Skip() // fnmatch works on str; there are no such inputs in Python
		}
		if strings.Contains(pattern, "|") || strings.HasPrefix(pattern, RegexPrefix) {
			t.Skip()
		}
		m, err := Compile(pattern)
		if err != nil {
			t.Skip()
		}
		want := oracleMatch(pattern, name)
		if got := glob(pattern, name); got != want {
			t.Fatalf("glob(%q, %q) = %v, fnmatch says %v (oracle regexp %s)", pattern, name, got, want, fnmatchRegexp(pattern))
		}
		if pattern != "" && pattern != "*" {
			if got := m.Match(name); got != want {
				t.Fatalf("Compile(%q).Match(%q) = %v, fnmatch says %v", pattern, name, got, want)
			}
		} else if !m.Match(name) {
			t.Fatalf("Compile(%q).Match(%q) = false, want true", pattern, name)
		}
	})
}

// FuzzMatchAlternatives checks that a glob matcher with alternatives selects
// a name exactly when one alternative does, by the oracle, and that a
// regular-expression matcher never panics and agrees with the anchored
// regexp.
func FuzzMatchAlternatives(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.pattern, c.name)
	}
	for _, c := range compileErrorCases {
		f.Add(c.pattern, "Write")
	}
	for _, s := range fixtureMatchers(f) {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if len(pattern) > 64 || len(name) > 256 {
			t.Skip()
		}
		m, err := Compile(pattern)
		if err != nil {
			if m.String() != "" || !m.MatchesAll() {
				t.Fatalf("Compile(%q) returned a non-zero Matcher with error %v", pattern, err)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", pattern)) {
				t.Fatalf("Compile(%q) error %q does not quote the pattern", pattern, err)
			}
			return
		}
		if m.String() != pattern {
			t.Fatalf("Compile(%q).String() = %q", pattern, m.String())
		}
		got := m.Match(name)
		if rest, ok := strings.CutPrefix(pattern, RegexPrefix); ok {
			// Only an expression that parses on its own can be wrapped
			// without its parentheses pairing with the wrapper's.
			if _, err := regexp.Compile(rest); err != nil {
				t.Fatalf("Compile(%q) accepted a regular expression that does not parse alone: %v", pattern, err)
			}
			want := regexp.MustCompile(`\A(?:` + rest + `)\z`).MatchString(name)
			if got != want {
				t.Fatalf("Compile(%q).Match(%q) = %v, want %v", pattern, name, got, want)
			}
			return
		}
		if pattern == "" || pattern == "*" {
			if !got {
				t.Fatalf("Compile(%q).Match(%q) = false", pattern, name)
			}
			return
		}
		if !utf8.ValidString(pattern) || !utf8.ValidString(name) {
			return // no panic is all there is to check
		}
		want := false
		for _, alt := range strings.Split(pattern, "|") {
			if strings.TrimSpace(alt) != alt || alt == "" {
				t.Fatalf("Compile(%q) accepted alternative %q", pattern, alt)
			}
			if oracleMatch(alt, name) {
				want = true
			}
		}
		if got != want {
			t.Fatalf("Compile(%q).Match(%q) = %v, fnmatch alternatives say %v", pattern, name, got, want)
		}
	})
}
