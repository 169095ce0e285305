package protocol

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Units is an independent UTF-16 length: what JavaScript's .length says.
func utf16Units(s string) int { return len(utf16.Encode([]rune(s))) }

var markerRe = regexp.MustCompile(`\n…\[truncated by massgen-hook: (\d+) more characters\]$`)

func TestTruncateUnchanged(t *testing.T) {
	tests := []struct {
		name string
		s    string
		max  int
	}{
		{"empty", "", 10},
		{"under", "hello", 10},
		{"exactly at cap ascii", strings.Repeat("a", 10), 10},
		{"exactly at cap CJK (30 bytes, 10 units)", strings.Repeat("漢", 10), 10},
		{"exactly at cap emoji (5 pairs)", strings.Repeat("😀", 5), 10},
		{"bytes over, units under", strings.Repeat("é", 8), 10},
		{"at MaxStringLen", strings.Repeat("x", MaxStringLen), MaxStringLen},
		{"at MaxStringLen in pairs", strings.Repeat("😀", MaxStringLen/2), MaxStringLen},
		{"U+FFFF is one unit", strings.Repeat("\uFFFF", MaxStringLen), MaxStringLen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Truncate(tt.s, tt.max); got != tt.s {
				t.Errorf("Truncate changed an input within the cap: %q", got)
			}
		})
	}
}

func TestTruncateOverCap(t *testing.T) {
	tests := []struct {
		name string
		s    string
		max  int
	}{
		{"ascii one over", strings.Repeat("a", MaxStringLen+1), MaxStringLen},
		{"ascii far over", strings.Repeat("a", 5*MaxStringLen), MaxStringLen},
		{"CJK", strings.Repeat("漢字", MaxStringLen), MaxStringLen},
		{"emoji pairs", strings.Repeat("😀", MaxStringLen), MaxStringLen},
		{"emoji one unit over", strings.Repeat("😀", MaxStringLen/2) + "a", MaxStringLen},
		{"U+10000 is a pair", strings.Repeat("\U00010000", MaxStringLen/2+1), MaxStringLen},
		{"mixed", strings.Repeat("a😀é漢🏳️‍🌈", 3000), MaxStringLen},
		{"odd alignment pairs", "a" + strings.Repeat("😀", 200), 101},
		{"small cap", strings.Repeat("😀漢", 200), 80},
		{"invalid utf8", strings.Repeat("a\xffb\xc3", 100), 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Truncate(tt.s, tt.max)
			if n := utf16Units(got); n > tt.max {
				t.Errorf("result is %d UTF-16 units, cap %d", n, tt.max)
			}
			m := markerRe.FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("result does not end with the marker: %q", tail(got))
			}
			kept := strings.TrimSuffix(got, m[0])
			if !strings.HasPrefix(tt.s, kept) {
				t.Fatal("kept text is not a prefix of the input")
			}
			if utf8.ValidString(tt.s) && !utf8.ValidString(kept) {
				t.Error("kept text splits a multi-byte rune")
			}
			cut, _ := strconv.Atoi(m[1])
			if want := utf16Units(tt.s) - utf16Units(kept); cut != want {
				// utf16Units counts an invalid byte as one unit (U+FFFD), like Truncate.
				t.Errorf("marker says %d cut, want %d", cut, want)
			}
			if len(kept) == 0 {
				t.Error("nothing kept although the cap leaves room")
			}
			// Greedy: the budget is the cap less the longest marker (the one
			// naming the whole length), and one more rune would not fit it.
			budget := tt.max - utf16Units(fmt.Sprintf("\n…[truncated by massgen-hook: %d more characters]", utf16Units(tt.s)))
			r, _ := utf8.DecodeRuneInString(tt.s[len(kept):])
			if n := utf16Units(kept); n > budget || n+utf16.RuneLen(r) <= budget {
				t.Errorf("kept %d units, budget %d: not the longest prefix that fits", n, budget)
			}
		})
	}
}

func TestTruncateNeverSplitsPairs(t *testing.T) {
	s := strings.Repeat("😀", 100) // 200 units
	for max := 60; max < 200; max++ {
		got := Truncate(s, max)
		if n := utf16Units(got); n > max {
			t.Fatalf("max %d: %d units", max, n)
		}
		kept := markerRe.ReplaceAllString(got, "")
		if strings.Trim(kept, "😀") != "" {
			t.Fatalf("max %d: kept %q is not whole emoji", max, kept)
		}
	}
}

func TestTruncateCapBelowMarker(t *testing.T) {
	// The doc promises "at most max UTF-16 code units"; a cap smaller than the
	// marker itself cannot keep that promise with the marker appended.
	for _, max := range []int{0, 1, 10, 40} {
		got := Truncate(strings.Repeat("a", 1000), max)
		if n := utf16Units(got); n > max {
			t.Errorf("Truncate(1000×\"a\", %d) returns %d UTF-16 units (%q), over the cap "+
				"(the marker alone is longer than a small cap)", max, n, got)
		}
	}
}

func tail(s string) string {
	if len(s) > 80 {
		return "…" + s[len(s)-80:]
	}
	return s
}
