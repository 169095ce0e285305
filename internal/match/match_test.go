package match

import (
	"strconv"
	"strings"
	"testing"
)

// matchCase is one (pattern, name) pair and whether the pattern's Matcher
// selects the name. The glob cases double as the seed corpus of FuzzGlob.
type matchCase struct {
	pattern string
	name    string
	want    bool
}

var (
	longA  = strings.Repeat("a", 10000)
	longAB = longA + "b"
)

var matchCases = []matchCase{
	// Prefix globs.
	{"mcp__*", "mcp__memory__read", true},
	{"mcp__*", "mcp__", true},
	{"mcp__*", "mcp_x", false},
	{"mcp__*", "xmcp__memory__read", false},

	// Alternatives: whole names, case-sensitive.
	{"Write|Edit", "Write", true},
	{"Write|Edit", "Edit", true},
	{"Write|Edit", "NotebookEdit", false},
	{"Write|Edit", "write", false},
	{"Write|Edit", "Writer", false},
	{"Write|Edit", "WriteEdit", false},
	{"Write|Edit", "", false},
	{"Write|mcp__*|?ead", "Read", true},
	{"Write|mcp__*|?ead", "mcp__a", true},
	{"Write|mcp__*|?ead", "Reads", false},
	{"Edit", "edit", false},
	{"edit", "Edit", false},

	// Suffix globs (MassGen broke on this one by handing it to a regex engine).
	{"*update_task_status", "mcp__planning__update_task_status", true},
	{"*update_task_status", "update_task_status", true},
	{"*update_task_status", "update_task_statuses", false},

	// "?" is one rune, however many bytes it takes.
	{"?", "a", true},
	{"?", "", false},
	{"?", "ab", false},
	{"?", "é", true},
	{"??", "é", false},
	{"?", "日本", false},
	{"??", "日本", true},
	{"???", "日本", false},
	{"a?c", "a日c", true},
	{"a?c", "abbc", false},
	{"?", "😀", true},
	{"?", "\n", true},
	{"日?", "日本", true},
	{"日*", "日本語", true},
	{"*語", "日本語", true},
	{"*本", "日本語", false},

	// Bracket classes.
	{"[abc]", "a", true},
	{"[abc]", "c", true},
	{"[abc]", "d", false},
	{"[abc]", "", false},
	{"[abc]", "ab", false},
	{"[!abc]", "d", true},
	{"[!abc]", "a", false},
	{"[!abc]", "", false},
	{"[!abc]", "\n", true},
	{"[!abc]", "é", true},
	{"[a-c]", "a", true},
	{"[a-c]", "b", true},
	{"[a-c]", "c", true},
	{"[a-c]", "d", false},
	{"[a-c]", "-", false},
	{"[!a-c]", "b", false},
	{"[!a-c]", "-", true},
	{"[]]", "]", true},
	{"[]]", "a", false},
	{"[]a]", "a", true},
	{"[]a]", "]", true},
	{"[]a]", "b", false},
	{"[!]]", "]", false},
	{"[!]]", "a", true},
	{"[!]a]", "a", false},
	{"[!]a]", "b", true},
	{"[^x]", "^", true},
	{"[^x]", "x", true},
	{"[^x]", "y", false},
	{"[a^]", "^", true},
	{"[a-]", "a", true},
	{"[a-]", "-", true},
	{"[a-]", "b", false},
	{"[-a]", "-", true},
	{"[-a]", "a", true},
	{"[-a]", "b", false},
	{"[!-a]", "-", false},
	{"[!-a]", "b", true},
	{"[a!]", "!", true},
	{"[a!]", "b", false},
	{"[!!]", "!", false},
	{"[!!]", "a", true},
	{"[]-a]", "^", true},
	{"[]-a]", "]", true},
	{"[]-a]", "a", true},
	{"[]-a]", "b", false},
	{"[]-]", "-", true},
	{"[]-]", "]", true},
	{"[]-]", "^", false},
	{"[a-c-e]", "b", true},
	{"[a-c-e]", "-", true},
	{"[a-c-e]", "e", true},
	{"[a-c-e]", "d", false},
	{"[--a]", "0", true},
	{"[a--]", "a", false},
	{"[a--]", "-", false},
	{"[[]", "[", true},
	{"[\\]", "\\", true},
	{"[a-c]x", "bx", true},
	{"x[a-c]", "xd", false},
	{"[é]", "é", true},
	{"[é]", "e", false},
	{"[!é]", "é", false},
	{"[!é]", "e", true},
	{"[α-ω]", "λ", true},
	{"[α-ω]", "A", false},
	{"[!α-ω]", "λ", false},
	// An inverted range matches nothing; negated, it matches any one rune.
	{"[z-a]", "z", false},
	{"[z-a]", "a", false},
	{"[z-a]", "m", false},
	{"[z-a]", "", false},
	{"[!z-a]", "m", true},
	{"[!z-a]", "\n", true},
	{"[!z-a]", "", false},
	{"[!z-a]", "mm", false},
	{"[c-ax]", "x", true},
	{"[c-ax]", "b", false},
	{"[c-ba-d]", "b", true},
	// The seq after an inverted range keeps its meaning: "!" that is not first
	// is a member, not a negation. CPython 3.11's fnmatch.translate drops the
	// empty range and then re-reads the "!" as a negation, so there
	// fnmatchcase("x", "[b-a!]") is True and fnmatchcase("y", "[b-a!x]") is
	// True. The documented semantics ("[seq] matches any character in seq")
	// are what glob implements; see FuzzGlob's oracle.
	{"[b-a!]", "!", true},
	{"[b-a!]", "x", false},
	{"[b-a!x]", "x", true},
	{"[b-a!x]", "!", true},
	{"[b-a!x]", "y", false},
	{"[b-a^x]", "^", true},
	{"[b-a^x]", "y", false},

	// Runs of stars behave as one.
	{"**", "", true},
	{"**", "anything", true},
	{"a**b", "ab", true},
	{"a**b", "axxb", true},
	{"a**b", "axxc", false},
	{"***x", "x", true},

	// Star backtracking.
	{"*a*b", "xaxxb", true},
	{"*a*b", "xaxxbx", false},
	{"*a*b", "ab", true},
	{"*a*b", "ba", false},
	{"*ab", "aab", true},
	{"*aab", "aaab", true},
	{"*abc", "ababc", true},
	{"a*b*c", "abbbc", true},
	{"a*b*c", "acb", false},
	{"a*", "a", true},
	{"*a", "", false},
	{"?*", "", false},
	{"*?", "a", true},
	{"*?*", "", false},
	{"a*b", "a\nb", true},
	{"*[0-9]", "tool7", true},
	{"*[0-9]", "tool", false},
	{"*[!0-9]x", "9ax", true},
	{"*?b", "ab", true},
	{"a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
	{"a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", true},
	{"*a*a*a*a*a*a*a*a*a*a*b", longA, false},
	{"a*a*a*a*b", longA, false},
	{"a*a*a*a*b", longAB, true},
	{"a*a*a*a*a", longA, true},
	{"*?*?*?*?*b", longA, false},
	{"[a]*[a]*[a]*[!a]", longA, false},

	// Literal characters that are special elsewhere.
	{"a.b", "a.b", true},
	{"a.b", "axb", false},
	{"a+", "a+", true},
	{"a+", "aa", false},
	{"(x)", "(x)", true},
	{"$x^", "$x^", true},
	{"\\*", "\\x", true},
	{"\\*", "*", false},
	{"a]b", "a]b", true},
	{"!x", "!x", true},
	{"{a,b}", "{a,b}", true},
	{"{a,b}", "a", false},

	// "" and "*" select every tool, even the empty name.
	{"", "", true},
	{"", "Write", true},
	{"", "mcp__memory__read", true},
	{"*", "", true},
	{"*", "Write", true},
	{"*", "a\nb", true},

	// Regular expressions, anchored as a whole.
	{"re:Edit", "Edit", true},
	{"re:Edit", "NotebookEdit", false},
	{"re:Edit", "Editor", false},
	{"re:.*Edit", "NotebookEdit", true},
	{"re:.*Edit", "Edit", true},
	{"re:.*Edit", "Editor", false},
	{"re:Write|Edit", "Write", true},
	{"re:Write|Edit", "Edit", true},
	{"re:Write|Edit", "Writer", false},
	{"re:Write|Edit", "NotebookEdit", false},
	{"re:Write|Edit", "WriteEdit", false},
	{"re:mcp__[a-z]+__read", "mcp__memory__read", true},
	{"re:mcp__[a-z]+__read", "mcp__Memory__read", false},
	{"re:(?i)edit", "EDIT", true},
	{"re:.*", "", true},
	{"re:a*", "", true},
}

func TestMatch(t *testing.T) {
	for _, c := range matchCases {
		m, err := Compile(c.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", c.pattern, err)
			continue
		}
		if got := m.Match(c.name); got != c.want {
			t.Errorf("Compile(%q).Match(%s) = %v, want %v", c.pattern, shortQuote(c.name), got, c.want)
		}
	}
}

// TestGlobCases runs the table through glob directly, for the patterns
// where Match is exactly glob: one alternative, neither "" nor "*".
func TestGlobCases(t *testing.T) {
	for _, c := range matchCases {
		if !isPlainGlob(c.pattern) {
			continue
		}
		if got := glob(c.pattern, c.name); got != c.want {
			t.Errorf("glob(%q, %s) = %v, want %v", c.pattern, shortQuote(c.name), got, c.want)
		}
	}
}

// TestOracleCases checks FuzzGlob's oracle against the same table, so a
// wrong oracle cannot hide behind agreement with a wrong glob.
func TestOracleCases(t *testing.T) {
	for _, c := range matchCases {
		if !isPlainGlob(c.pattern) {
			continue
		}
		if got := oracleMatch(c.pattern, c.name); got != c.want {
			t.Errorf("oracle(%q, %s) = %v, want %v (regexp %s)", c.pattern, shortQuote(c.name), got, c.want, fnmatchRegexp(c.pattern))
		}
	}
}

func isPlainGlob(p string) bool {
	return p != "" && p != "*" && !strings.HasPrefix(p, RegexPrefix) && !strings.Contains(p, "|")
}

func shortQuote(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:20]) + "…(" + strconv.Itoa(len(s)) + " bytes)"
	}
	return strconv.Quote(s)
}

func TestMatchLongNames(t *testing.T) {
	// Adversarial shapes for a backtracking matcher; these only have to
	// finish (a naive recursive matcher would not).
	long := strings.Repeat("a", 10000)
	for _, p := range []string{
		"a*a*a*a*b",
		"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
		"*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*b",
		"*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[!a]",
		"a*a*a*a*b|*b|?*?*b",
	} {
		if MustCompile(p).Match(long) {
			t.Errorf("Compile(%q).Match(10000 x \"a\") = true, want false", p)
		}
		if !MustCompile(p).Match(long + "b") {
			t.Errorf("Compile(%q).Match(10000 x \"a\" + \"b\") = false, want true", p)
		}
	}
	multi := strings.Repeat("é", 10000)
	if !MustCompile("*é*é*é").Match(multi) {
		t.Error(`Compile("*é*é*é").Match(10000 x "é") = false, want true`)
	}
	if MustCompile("*é*é*e").Match(multi) {
		t.Error(`Compile("*é*é*e").Match(10000 x "é") = true, want false`)
	}
	if !MustCompile(strings.Repeat("?", 10000)).Match(multi) {
		t.Error(`10000 x "?" does not match 10000 x "é"`)
	}
	if MustCompile(strings.Repeat("?", 10001)).Match(multi) {
		t.Error(`10001 x "?" matches 10000 x "é"`)
	}
}

var compileErrorCases = []struct {
	pattern string
	detail  string // a fragment the message must also contain
}{
	{"Write|", "empty alternative"},
	{"|Edit", "empty alternative"},
	{"a||b", "empty alternative"},
	{"|", "empty alternative"},
	{"||", "empty alternative"},
	{"Write | Edit", "spaces"},
	{" Write", "spaces"},
	{"Write ", "spaces"},
	{"Write|\tEdit", "spaces"},
	{"Write|Edit\n", "spaces"},
	{" ", "spaces"},
	{"[", "never closed"},
	{"[abc", "never closed"},
	{"a[", "never closed"},
	{"[]", "never closed"},
	{"[!]", "never closed"},
	{"[!", "never closed"},
	{"[]a", "never closed"},
	{"[a]b[c", "never closed"},
	{"Write|[Edit", "never closed"},
	{"[a|b]", "never closed"}, // "|" splits first: "[a" is unclosed
	{"re:", "empty regular expression"},
	{"re:(", "invalid regular expression"},
	{"re:[", "invalid regular expression"},
	{"re:*", "invalid regular expression"},
	{"re:a**", "invalid regular expression"},
	{"re:(?P<x", "invalid regular expression"},
	{"re:\\", "invalid regular expression"},
	// Parentheses that only balance inside the anchoring wrapper would
	// escape the anchors ("^(?:Edit)|(?:Write)$"); they are rejected.
	{"re:Edit)|(?:Write", "invalid regular expression"},
	{"re:a)(b", "invalid regular expression"},
}

func TestCompileErrors(t *testing.T) {
	for _, c := range compileErrorCases {
		m, err := Compile(c.pattern)
		if err == nil {
			t.Errorf("Compile(%q) = nil error, want one", c.pattern)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, strconv.Quote(c.pattern)) {
			t.Errorf("Compile(%q) error %q does not quote the pattern", c.pattern, msg)
		}
		if !strings.Contains(msg, c.detail) {
			t.Errorf("Compile(%q) error %q does not say %q", c.pattern, msg, c.detail)
		}
		if strings.Contains(msg, "^(?:") {
			t.Errorf("Compile(%q) error %q quotes the anchoring wrapper", c.pattern, msg)
		}
		if strings.Contains(msg, "error parsing regexp") {
			t.Errorf("Compile(%q) error %q keeps the regexp package's prefix", c.pattern, msg)
		}
		if m.String() != "" || !m.MatchesAll() {
			t.Errorf("Compile(%q) returned a non-zero Matcher with its error", c.pattern)
		}
	}
}

func TestCompileErrorDetails(t *testing.T) {
	_, err := Compile("Write | Edit")
	if err == nil || !strings.Contains(err.Error(), `"Write "`) {
		t.Errorf("Compile(%q) error %v does not name the offending alternative", "Write | Edit", err)
	}
	_, err = Compile("ab|c[de")
	if err == nil || !strings.Contains(err.Error(), "offset 1") || !strings.Contains(err.Error(), `"c[de"`) {
		t.Errorf("Compile(%q) error %v does not locate the \"[\"", "ab|c[de", err)
	}
	_, err = Compile("[a]b[c")
	if err == nil || !strings.Contains(err.Error(), "offset 4") {
		t.Errorf("Compile(%q) error %v does not locate the second \"[\"", "[a]b[c", err)
	}
}

func TestCompileValid(t *testing.T) {
	for _, p := range []string{
		"", "*", "**", "?", "Write", "Write|Edit", "mcp__*", "*update_task_status",
		"Write|Edit|mcp__*", "[abc]", "[!abc]", "[a-c]", "[]]", "[!]]", "[^x]", "[a-]",
		"[z-a]", "[]a]", "a]", "]", "!", "[[]", "[a][b]", "Write|[!]]", "re:Edit",
		"re:.*Edit", "re:Write|Edit", "re: ", "re:a|", "re:(?i)x", "日本|語",
		"a b", // inner spaces are the author's business
	} {
		if _, err := Compile(p); err != nil {
			t.Errorf("Compile(%q) = %v, want nil", p, err)
		}
	}
}

func TestMatchesAll(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{"", true},
		{"*", true},
		{"**", false},
		{"*|*", false},
		{"?", false},
		{"Write", false},
		{"re:.*", false},
		{"re:", false}, // an error; the zero Matcher comes back, checked below
	} {
		m, err := Compile(c.pattern)
		if err != nil {
			continue
		}
		if got := m.MatchesAll(); got != c.want {
			t.Errorf("Compile(%q).MatchesAll() = %v, want %v", c.pattern, got, c.want)
		}
	}
	var zero Matcher
	if !zero.MatchesAll() || !zero.Match("anything") || !zero.Match("") || zero.String() != "" {
		t.Error("the zero Matcher does not match everything")
	}
}

func TestString(t *testing.T) {
	for _, p := range []string{"", "*", "**", "Write|Edit", "mcp__*", "[!]]", "re:Write|Edit", "re:.*", "日本"} {
		if got := MustCompile(p).String(); got != p {
			t.Errorf("Compile(%q).String() = %q", p, got)
		}
	}
}

func TestMustCompile(t *testing.T) {
	if got := MustCompile("Write|Edit"); !got.Match("Edit") {
		t.Error(`MustCompile("Write|Edit") does not match "Edit"`)
	}
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal(`MustCompile("Write|") did not panic`)
		}
		err, ok := r.(error)
		if !ok || !strings.Contains(err.Error(), `"Write|"`) {
			t.Errorf("MustCompile panicked with %v, want the Compile error", r)
		}
	}()
	MustCompile("Write|")
}

func TestInvalidUTF8(t *testing.T) {
	// Bytes that are not UTF-8 count as one rune each and must not panic.
	for _, c := range []matchCase{
		{"?", "\xff", true},
		{"??", "\xff\xfe", true},
		{"?", "\xff\xfe", false},
		{"a*", "a\xff", true},
		{"*\xff", "ab\xff", true},
		{"[!a]", "\xff", true},
	} {
		if got := MustCompile(c.pattern).Match(c.name); got != c.want {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}
