package guard

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/internal/lazy"
)

// Hard links: after `ln .env notes`, notes is .env under another name, and
// no pattern sees it. A file with one name cannot be another, so the search
// below runs only for a regular file with more than one name, which the
// walk that resolved the path has already read: most calls pay nothing.

// hardLinkBudget is how many folder entries the search for a protected
// file reads in the project, at most (a few milliseconds). A variable, so
// that a test can run out of it.
var hardLinkBudget = 20000

// hardLinkSkipped are folders the search does not enter: package managers
// (pnpm, uv) fill them with hard links to their stores, so a file in them
// is often linked, and no file of the user's that needs protecting lives
// there.
var hardLinkSkipped = &lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{"node_modules": true, ".venv": true} }}

// homeCredentialFolders are the folders of the home directory searched
// for protected files, besides the home directory itself.
var homeCredentialFolders = &lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{".ssh": true, ".aws": true, ".gnupg": true} }}

// hardLinked returns the protected file (and its pattern) that rp is
// another name of: one of the project's files that patterns protect, one
// in the home directory or its credential folders, or a literal path a
// pattern names. A search that runs out of budget passes the path, with a
// note saying so.
func (g *guard) hardLinked(rp fspath.Path, patterns []string) (same, pattern string) {
	f, ok := rp.File()
	if !ok || !f.SharesData() {
		return "", ""
	}
	// Literal paths first: a stat each.
	for _, pat := range patterns {
		lit := pat
		if rest, ok := strings.CutPrefix(pat, "~/"); ok && g.Home != "" {
			lit = filepath.Join(g.Home, rest)
		}
		if !filepath.IsAbs(lit) || strings.ContainsAny(lit, `*?[{\`) {
			continue
		}
		if other, ok := fspath.Stat(lit); ok && other.Same(f) {
			return lit, pat
		}
	}
	if g.Home != "" {
		home := g.realHome()
		s := fspath.Search{Root: home, Budget: hardLinkBudget,
			Enter: func(rel string) bool { return homeCredentialFolders.Get()[rel] },
			Want:  func(rel string) bool { return g.protects(patterns, g.formOf(filepath.Join(home, rel)), rp.Fold) != "" }}
		if rel, _ := s.Find(f); rel != "" {
			p := filepath.Join(home, filepath.FromSlash(rel))
			return p, g.protects(patterns, g.formOf(p), rp.Fold)
		}
	}
	s := fspath.Search{Root: g.Project.real, Budget: hardLinkBudget,
		Enter: func(rel string) bool { return !hardLinkSkipped.Get()[path.Base(rel)] },
		Want:  func(rel string) bool { return g.protects(patterns, rel, rp.Fold) != "" }}
	rel, complete := s.Find(f)
	if rel != "" {
		return filepath.FromSlash(rel), g.protects(patterns, rel, rp.Fold)
	}
	if !complete {
		note := fmt.Sprintf("protected_paths: %s has other names (hard links), and the project is too big to look through all of it (%d entries) for a protected file it could be; it was let through unchecked",
			g.Project.Display(rp), hardLinkBudget)
		if !slices.Contains(g.notes, note) { // one path may be judged in several forms
			g.notes = append(g.notes, note)
		}
	}
	return "", ""
}

// formOf is how patterns see the real path p: relative to the project
// inside it, absolute outside.
func (g *guard) formOf(p string) string {
	if rel, ok := g.Project.Relative(p, false); ok {
		return rel
	}
	return p
}
