package confine

import "testing"

func TestSeccompFilteredReadsTheStatusLine(t *testing.T) {
	for _, c := range []struct {
		status string
		want   bool
	}{
		{"Name:\tbash\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n", true},
		{"Name:\tbash\nSeccomp:\t1\n", true},
		{"Name:\tbash\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n", false},
		// Seccomp_filters alone is not the mode line.
		{"Name:\tbash\nSeccomp_filters:\t3\n", false},
		{"", false},
	} {
		if got := seccompFiltered(c.status); got != c.want {
			t.Errorf("seccompFiltered(%q) = %v, want %v", c.status, got, c.want)
		}
	}
}
