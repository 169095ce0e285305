package secretpaths

import (
	"slices"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// Every entry is a valid glob, starts with "**/" or "~/", and appears once;
// the list holds what users expect protected.
func TestDefault(t *testing.T) {
	got := Default()
	seen := map[string]bool{}
	for _, p := range got {
		if !doublestar.ValidatePattern(p) {
			t.Errorf("%q is not a valid glob", p)
		}
		if !strings.HasPrefix(p, "**/") && !strings.HasPrefix(p, "~/") {
			t.Errorf("%q starts with neither **/ nor ~/", p)
		}
		if seen[p] {
			t.Errorf("%q listed twice", p)
		}
		seen[p] = true
	}
	for _, want := range []string{"**/.env", "**/.envrc", "~/.bash_history", "~/.zsh_history", "~/.config/gcloud/**", "~/.azure/**", "~/.cargo/credentials.toml", "~/.vercel/**", "~/.ssh/id_*"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q missing", want)
		}
	}
	got[0] = "changed"
	if Default()[0] == "changed" {
		t.Error("Default shares its slice")
	}
}
