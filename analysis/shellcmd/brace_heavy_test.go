package shellcmd

import (
	"strings"
	"testing"
)

func TestBraceHeavy(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		heavy   bool
	}{
		{"*.go", false},
		{"{a,b}*.{go,md}", false},
		{strings.Repeat("{,}", 8) + ".env", false}, // 256
		{strings.Repeat("{,}", 9) + ".env", true},  // 512
		{strings.Repeat("{,}", 40) + ".env", true},
		{"{a,b,c,d,e,f,g,h}{a,b,c,d,e,f,g,h}{a,b,c,d,e}", true}, // 320
		{strings.Repeat(`\{,\}`, 40), false},                    // escaped: no groups
		// A nested group is counted on its own and again in its outer
		// one: 4 alternatives counted as 8, on the safe side.
		{"{{a,b},{c,d}}" + strings.Repeat("{x,y}", 5), false}, // 8*32
		{"{{a,b},{c,d}}" + strings.Repeat("{x,y}", 6), true},  // 8*64
	} {
		if got := BraceHeavy(tc.pattern); got != tc.heavy {
			t.Errorf("BraceHeavy(%q) = %v, want %v", tc.pattern, got, tc.heavy)
		}
	}
}
