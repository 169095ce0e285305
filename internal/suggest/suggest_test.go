package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"fail_closd", "fail_closed", 1},
		{"PreToolUse", "PreTooluse", 1}, {"Stop", "Stpo", 1}, {"abc", "abcd", 1}, {"abcd", "abdc", 1}, {"abcd", "dcba", 3}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	known := []string{"fail_closed", "default_guards", "scratchpad", "hooks"}
	for typo, want := range map[string]string{
		"fail_closd": "fail_closed", "failClosed": "fail_closed", "FAIL-CLOSED": "fail_closed",
		"default_guard": "default_guards", "scratchpda": "scratchpad", "hook": "hooks",
		"colour": "", "xyz": "", "hoo": "",
	} {
		if got := Closest(typo, known); got != want {
			t.Errorf("Closest(%q) = %q, want %q", typo, got, want)
		}
	}
}
