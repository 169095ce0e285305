package guard

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// TestMatchAnyHomePatterns: matchAny, which does not expand a home pattern
// for a path outside the home, matches as expanding every pattern does:
// for homes that are plain, hold glob characters or are unset, and for
// home patterns that climb out of the home with "..".
func TestMatchAnyHomePatterns(t *testing.T) {
	patterns := []string{"~/.npmrc", "~/.config/**", "~/**", "~/../shared/x", "~/a/../../etc/*", "~/..", "**/.env", "/etc/*"}
	paths := []string{"/home/u/.npmrc", "/home/u/.config/gh/hosts.yml", "/home/u", "/home/shared/x", "/etc/passwd",
		"/home/v/.npmrc", "/home", "rel/.npmrc", ".env", "/srv/app/.env", "/home/[u]/.npmrc", "/HOME/U/.NPMRC"}
	for _, home := range []string{"/home/u", "/home/[u]", "/home/u*", ""} {
		for _, fold := range []bool{false, true} {
			for _, pat := range patterns {
				for _, path := range paths {
					g := &guard{shellCall: shellCall{Home: home}}
					want := ""
					ref := &guard{shellCall: shellCall{Home: home}}
					p := path
					if fold {
						p = strings.ToLower(p)
					}
					for _, f := range ref.fullPatterns(pat) {
						if fold {
							f = strings.ToLower(f)
						}
						if ok, _ := doublestar.Match(f, p); ok {
							want = pat
						}
					}
					if got := g.matchAny([]string{pat}, path, fold); got != want {
						t.Errorf("home %q fold %v: matchAny(%q, %q) = %q, want %q", home, fold, pat, path, got, want)
					}
				}
			}
		}
	}
}
