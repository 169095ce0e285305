package guard

import (
	"path/filepath"

	"github.com/massgen/massgen-hook/analysis/fspath"
)

// project is a project root as the path guards see it: as written and with
// its symlinks resolved (macOS's /tmp is /private/tmp, for one).
type project struct {
	Root, real string
}

// newProject is the project at root, resolved through paths (nil: asking
// the system).
func newProject(root string, paths *fspath.Cache) project {
	root = filepath.Clean(root)
	return project{Root: root, real: paths.Real(root)}
}

// Within reports whether p is root or inside it, by name.
func Within(p, root string) bool { return fspath.Within(p, root, false) }

// contains reports whether real, a path with its symlinks resolved, is in
// the project.
func (pr project) contains(real string, fold bool) bool {
	return fspath.Within(real, pr.real, fold) || fspath.Within(real, pr.Root, fold)
}

// inside reports whether the path is in the project both where the kernel
// takes it and where a program that cleans it first does: a symlink in the
// project that points out of it leads out of it.
func (pr project) inside(p fspath.Path) bool {
	return pr.contains(p.Real, p.Fold) && pr.contains(p.Cleaned, p.Fold)
}

// Forms are the names a path is matched by: relative to the project when
// it is inside (so "**/.env" and ".git/**" mean the project's), absolute
// otherwise; as written and where it leads (to the kernel, and to a program
// that cleans it first), so a link named harmlessly that points at .env is
// still .env.
func (pr project) Forms(p fspath.Path) []string {
	out := make([]string, 0, 3)
	add := func(f string) {
		for _, have := range out {
			if have == f {
				return
			}
		}
		out = append(out, f)
	}
	lexical := p.Lexical
	if rel, ok := fspath.Rel(p.Lexical, pr.Root, p.Fold); ok {
		lexical = rel
	}
	add(lexical)
	for _, real := range []string{p.Real, p.Cleaned} {
		if rel, ok := pr.Relative(real, p.Fold); ok {
			real = rel
		}
		add(real)
	}
	return out
}

// Relative is real (a path with its symlinks resolved) relative to the
// project, slash-separated; false when it is outside.
func (pr project) Relative(real string, fold bool) (string, bool) {
	if rel, ok := fspath.Rel(real, pr.real, fold); ok {
		return rel, true
	}
	return fspath.Rel(real, pr.Root, fold)
}

// Display is how a denial names a path: relative to the project inside it.
func (pr project) Display(p fspath.Path) string {
	if rel, ok := fspath.Rel(p.Lexical, pr.Root, p.Fold); ok {
		return filepath.FromSlash(rel)
	}
	return p.Lexical
}

// RelativeWithin is p relative to root, slash-separated; false when p is
// not inside root.
func RelativeWithin(p, root string) (string, bool) { return fspath.Rel(p, root, false) }
