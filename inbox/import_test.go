package inbox

import (
	"strings"
	"testing"
)

// A message from elsewhere carries a matcher its hooks compile at every
// tool call while it waits: one that does not compile never matches (it
// waits forever), and one that compiles slowly (a few hundred bytes of
// nested repeats take tens of milliseconds; 70 KB took 4 s) makes every
// hook of its recipients slow. Both are refused on arrival.
func TestCheckForeignRefusesAMatcherThatCannotServe(t *testing.T) {
	base := Message{ID: newID(t0, 1), Source: Human, Strategy: ToolResult, Text: "hi", SentAt: t0}
	for _, tc := range []struct {
		matcher string
		ok      bool
	}{
		{"", true},
		{"Bash|Edit", true},
		{"re:mcp__.*", true},
		{"re:(", false},
		{"|", false},
		{"re:" + strings.Repeat("(a|b)*c{1,100}", 18), false},
		{strings.Repeat("Tool|", 200) + "X", false},
	} {
		m := base
		m.Matcher = tc.matcher
		if err := CheckForeign(&m); (err == nil) != tc.ok {
			t.Errorf("matcher of %d bytes %.30q: want ok %v, got %v", len(tc.matcher), tc.matcher, tc.ok, err)
		}
	}
}
