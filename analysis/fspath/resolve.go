// Package fspath tells where a path leads as the kernel sees it: which file
// a name reaches once symbolic links are followed the way the kernel's path
// walk follows them, whether two names are one file (hard links), and
// whether a folder matches names regardless of case.
//
// Cleaning a path first (filepath.Clean) and following its links second is
// wrong: with src/e a link to /etc/ssl, src/e/../passwd is /etc/passwd to
// the kernel, which follows the link before it reads "..", and src/passwd
// to filepath.Clean. Resolve walks a path one name at a time, as the
// kernel does, and gives both answers, since a program that cleans a path
// before opening it (Node's path.resolve, and with it the CLIs' own file
// tools) reaches the second one.
package fspath

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Path is one path a program names, resolved.
type Path struct {
	// Lexical is the path made absolute against the working directory and
	// cleaned (. and .. removed by their text), with no link followed: the
	// name as written, for messages.
	Lexical string
	// Real is where the kernel's walk of the path as written ends: every
	// symlink on the way followed before the .. after it is read.
	Real string
	// Cleaned is where the kernel's walk of Lexical ends: the file a
	// program reaches when it cleans the path before opening it. It is Real
	// unless a .. comes after a symlink.
	Cleaned string
	// Fold reports that the folder holding Real's last name matches names
	// regardless of case (see CaseInsensitive): there .ENV is .env.
	Fold bool
	// Loop reports that the walk met more links than the kernel follows
	// (a loop): the kernel fails with ELOOP, and Real is the link where it
	// stopped.
	Loop bool
	// final is what Real names, as the walk found it; nil when it does
	// not exist.
	final fs.FileInfo
}

// Exists reports whether Real names an existing file or folder.
func (p Path) Exists() bool { return p.final != nil }

// Info is what Real names, as the walk found it (lstat: a symlink the
// walk did not follow, at the end of ResolveNoFollow's path or where a
// loop stopped it, is the link itself); nil when Real does not exist.
func (p Path) Info() fs.FileInfo { return p.final }

// Resolve resolves p, relative to dir unless absolute, as open, stat,
// chmod or a write does: a symlink at the end is followed too.
func Resolve(p, dir string) Path { return (*Cache)(nil).Resolve(p, dir) }

// ResolveNoFollow resolves p, relative to dir unless absolute, as unlink,
// rm, rename or lstat does: a symlink at the end is the file acted on, and
// only the links before it are followed. A trailing slash (or a last
// name of . or ..) makes the kernel follow the last link all the same.
func ResolveNoFollow(p, dir string) Path { return (*Cache)(nil).ResolveNoFollow(p, dir) }

// Real is where p leads, every symlink followed: what
// filepath.EvalSymlinks gives, for a path whose end may not exist yet. A
// relative p is taken against the process's working directory.
func Real(p string) string { return (*Cache)(nil).Real(p) }

// Cache remembers what the system said of each name a walk looked at
// (lstat, readlink), so that paths resolved one after another through the
// same folders (a project's path, for every word of a command) ask once
// per name. It is for one judgement, such as one hook call's check: what
// it remembers is the filesystem as that judgement found it, and a later
// one must start a new Cache to see changes. A nil *Cache remembers
// nothing. It is not safe for concurrent use.
type Cache struct {
	infos map[string]lstatResult
	links map[string]readlinkResult
}

type lstatResult struct {
	info fs.FileInfo
	err  error
}

type readlinkResult struct {
	target string
	err    error
}

// Resolve is the package's Resolve, through c.
func (c *Cache) Resolve(p, dir string) Path { return c.resolve(p, dir, true) }

// ResolveNoFollow is the package's ResolveNoFollow, through c.
func (c *Cache) ResolveNoFollow(p, dir string) Path { return c.resolve(p, dir, false) }

// Real is the package's Real, through c.
func (c *Cache) Real(p string) string {
	if !filepath.IsAbs(p) {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	return c.walk(p, true).path
}

// Lead is where the absolute path p leads, as Resolve's Real, whether that
// exists, and whether the walk met a loop (Path.Loop): Resolve without
// what a caller comparing only where paths lead does not use, the
// case-folding probe (a lookup or a listing more, per folder) and the
// walk of the cleaned form.
func (c *Cache) Lead(p string) (real string, exists, loop bool) {
	w := c.walk(p, true)
	return w.path, w.final != nil, w.loop
}

func (c *Cache) lstat(p string) (fs.FileInfo, error) {
	if c == nil {
		return os.Lstat(p)
	}
	if r, ok := c.infos[p]; ok {
		return r.info, r.err
	}
	info, err := os.Lstat(p)
	if c.infos == nil {
		c.infos = map[string]lstatResult{}
	}
	c.infos[p] = lstatResult{info, err}
	return info, err
}

func (c *Cache) readlink(p string) (string, error) {
	if c == nil {
		return os.Readlink(p)
	}
	if r, ok := c.links[p]; ok {
		return r.target, r.err
	}
	target, err := os.Readlink(p)
	if c.links == nil {
		c.links = map[string]readlinkResult{}
	}
	c.links[p] = readlinkResult{target, err}
	return target, err
}

func (c *Cache) resolve(p, dir string, follow bool) Path {
	raw := p
	if !filepath.IsAbs(p) {
		if !filepath.IsAbs(dir) {
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
		}
		raw = dir + string(filepath.Separator) + p
	}
	w := c.walk(raw, follow)
	out := Path{Lexical: filepath.Clean(raw), Real: w.path, Cleaned: w.path, final: w.final, Loop: w.loop}
	if hasDotDot(raw) {
		// Cleaning drops a trailing slash, which also asks for the last
		// link to be followed.
		out.Cleaned = c.walk(out.Lexical, follow || endsInDir(raw)).path
	}
	out.Fold = caseInsensitive(w.dir, w.known)
	return out
}

// maxHops is how many symlinks one resolution follows, Linux's limit
// before ELOOP: a cycle (a -> b -> a) must end.
const maxHops = 40

// walked is the end of a walk.
type walked struct {
	path  string
	final fs.FileInfo // nil when path does not exist
	// dir is the existing folder that holds the last name: where that
	// name is looked up, and so whose case rules apply. known is a name
	// found in it ("" if none).
	dir, known string
	// loop: a link past maxHops was met, and not followed.
	loop bool
}

// walk follows the absolute path p one name at a time, as the kernel's
// path walk does: . stays; .. goes to the parent of the folder reached so
// far (the real one, after the links before it were followed); a symlink
// is replaced by its target, read against the link's folder, and walked
// the same way. The last name's link is followed only when follow is set
// or more names come after it (a trailing slash is a "." after it).
//
// A name that does not exist, or that comes after a file, is kept as
// written along with all that follows it: a write may create it. The
// kernel would fail on a .. after such a name (ENOENT, ENOTDIR), so that
// nothing happens; a program that first creates the folders (mkdir -p,
// the CLIs' Write) lands where dropping the missing name with the .. puts
// it, and that is what walk reports. A loop of links (past maxHops) stops
// being followed at the link that went one hop too far: the kernel fails
// with ELOOP there, and the link itself is reported.
func (c *Cache) walk(p string, follow bool) walked {
	pending := names(p)
	cur := string(filepath.Separator)
	var missing []string
	var final fs.FileInfo
	hops, loop := 0, false
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		switch {
		case name == ".":
			continue
		case name == "..":
			if n := len(missing); n > 0 {
				missing = missing[:n-1]
			} else {
				cur = filepath.Dir(cur)
			}
			final = nil // read again at the end if it is the last name
			continue
		case len(missing) > 0:
			missing = append(missing, name)
			continue
		}
		next := child(cur, name)
		info, err := c.lstat(next)
		if err != nil {
			missing = append(missing, name)
			final = nil
			continue
		}
		if info.Mode()&fs.ModeSymlink != 0 && (follow || len(pending) > 0) {
			target, err := c.readlink(next)
			if err == nil && hops < maxHops {
				hops++
				if filepath.IsAbs(target) {
					cur = string(filepath.Separator)
				}
				pending = append(names(target), pending...)
				continue
			}
			loop = loop || err == nil
		}
		if len(pending) > 0 && info.Mode()&fs.ModeSymlink == 0 && !info.IsDir() {
			missing = append(missing, name) // ENOTDIR
			final = nil
			continue
		}
		cur, final = next, info
	}
	if final == nil && len(missing) == 0 {
		final, _ = c.lstat(cur) // the path ended in ..
	}
	out := walked{path: filepath.Join(append([]string{cur}, missing...)...), final: final, dir: cur, loop: loop}
	if final != nil {
		out.dir, out.known = filepath.Dir(cur), filepath.Base(cur)
	}
	return out
}

// child is the path of name in the folder cur: what filepath.Join gives,
// without its cleaning, which a walk's clean folder and single name (never
// empty, . or ..) do not need, and which costs a walk of every path it
// makes.
func child(cur, name string) string {
	if cur == string(filepath.Separator) {
		return cur + name
	}
	return cur + string(filepath.Separator) + name
}

// names splits a path into its names, . and .. included. A trailing
// slash becomes a final ".", so that the name before it is not last.
func names(p string) []string {
	parts := strings.Split(p, string(filepath.Separator))
	out := parts[:0]
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	if endsInDir(p) && len(out) > 0 {
		out = append(out, ".")
	}
	return out
}

// endsInDir reports whether p ends in a slash: the kernel then wants a
// folder, and follows a last symlink to get one.
func endsInDir(p string) bool {
	return len(p) > 1 && p[len(p)-1] == filepath.Separator
}

// hasDotDot reports whether p has a ".." name: only then can cleaning it
// first change where it leads.
func hasDotDot(p string) bool {
	for _, s := range strings.Split(p, string(filepath.Separator)) {
		if s == ".." {
			return true
		}
	}
	return false
}
