package checks

import (
	"os"
	"path/filepath"
	"strings"
)

// project is a project root as the path guards see it: as written and with
// its symlinks resolved (macOS's /tmp is /private/tmp, for one).
type project struct {
	root, real string
}

func newProject(root string) project {
	root = filepath.Clean(root)
	return project{root: root, real: resolveSymlinks(root)}
}

// resolvedPath is one path a tool call names, made absolute and cleaned
// (lexical), and with every symlink on it resolved (real).
type resolvedPath struct {
	lexical, real string
}

// resolve makes p absolute against dir (the call's working directory),
// removes . and .., and resolves symlinks. The file need not exist (a
// write may create it): the longest existing prefix is resolved and the
// rest joined on.
func resolve(p, dir string) resolvedPath {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	return resolvedPath{lexical: p, real: resolveSymlinks(p)}
}

// resolveSymlinks is filepath.EvalSymlinks for a path whose tail may not
// exist yet.
func resolveSymlinks(p string) string { return resolveLinks(filepath.Clean(p), maxLinkHops) }

// maxLinkHops bounds the dangling links followed, as the kernel's ELOOP
// does: a cycle (a -> b -> a) must end, not recurse forever.
const maxLinkHops = 40

func resolveLinks(p string, hops int) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent, base := filepath.Dir(p), filepath.Base(p)
	if parent == p {
		return p
	}
	// A dangling symlink resolves to its target, which a write would create.
	if target, err := os.Readlink(p); err == nil && hops > 0 {
		if !filepath.IsAbs(target) {
			target = filepath.Join(parent, target)
		}
		if filepath.Clean(target) != p {
			return resolveLinks(filepath.Clean(target), hops-1)
		}
	}
	return filepath.Join(resolveLinks(parent, hops), base)
}

// within reports whether p is root or inside it.
func within(p, root string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// inside reports whether the path, symlinks resolved, is in the project:
// a symlink in the project that points out of it leads out of it.
func (pr project) inside(p resolvedPath) bool {
	return within(p.real, pr.real) || within(p.real, pr.root)
}

// forms are the names a path is matched by: relative to the project when
// it is inside (so "**/.env" and ".git/**" mean the project's), absolute
// otherwise; both as written and with symlinks resolved, so a link named
// harmlessly that points at .env is still .env.
func (pr project) forms(p resolvedPath) []string {
	out := make([]string, 0, 2)
	for _, c := range []struct{ path, root string }{{p.lexical, pr.root}, {p.real, pr.real}} {
		f := c.path
		if rel, ok := relativeWithin(c.path, c.root); ok {
			f = rel
		}
		if len(out) == 0 || out[0] != f {
			out = append(out, f)
		}
	}
	return out
}

// display is how a denial names a path: relative to the project inside it.
func (pr project) display(p resolvedPath) string {
	if rel, ok := relativeWithin(p.lexical, pr.root); ok {
		return filepath.FromSlash(rel)
	}
	return p.lexical
}

// relativeWithin is p relative to root, slash-separated; false when p is
// not inside root.
func relativeWithin(p, root string) (string, bool) {
	if !within(p, root) {
		return "", false
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
