package confine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// maxWalk bounds the entries read to find protected files: the walk runs
// before every command, so it must stay cheap (a few milliseconds).
var maxWalk = 50000 // a variable for the tests of the bound

// skipDir reports the folders not searched for protected files: git's own
// files, and the package trees that hold thousands of files of no one's
// secrets.
func skipDir(name string) bool { return name == ".git" || name == "node_modules" || name == ".venv" }

type masks struct {
	files, dirs, notes []string
}

// masks finds what the read list protects: in the project (walked,
// bounded by maxWalk), in the home directory (its entries and one level
// below, where the usual credential files live), and at the places a
// pattern names literally (~/.config/gh/hosts.yml, an absolute path).
func (p *Policy) masks() masks {
	var m masks
	if len(p.Read) == 0 {
		return m
	}
	seen := map[string]bool{}
	add := func(path string, dir bool) {
		real, err := filepath.EvalSymlinks(path)
		if err != nil || seen[real] {
			return // dangling: nothing to read
		}
		if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 && !p.linkTargetMaskable(real) {
			return
		}
		seen[real] = true
		if dir {
			m.dirs = append(m.dirs, real)
		} else {
			m.files = append(m.files, real)
		}
	}
	budget := maxWalk
	// visit judges one entry; true when it was masked (a folder is then
	// not entered).
	visit := func(path, rel string, d fs.DirEntry) bool {
		if !p.protected(path, rel) {
			return false
		}
		isDir := d.IsDir()
		if d.Type()&fs.ModeSymlink != 0 {
			info, err := os.Stat(path)
			if err != nil {
				return false
			}
			isDir = info.IsDir()
		}
		add(path, isDir)
		return true
	}
	// Level by level, each folder's entries in order: the project's own
	// top-level files (.env) are judged before any folder is entered, so
	// no folder of many entries, sorted first, can use up the budget
	// before them.
	queue := []string{p.Project}
	for len(queue) > 0 && budget >= 0 {
		dir := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, d := range entries {
			if budget--; budget < 0 {
				break
			}
			path := filepath.Join(dir, d.Name())
			rel, _ := filepath.Rel(p.Project, path)
			if visit(path, rel, d) || !d.IsDir() || skipDir(d.Name()) {
				continue
			}
			queue = append(queue, path)
		}
	}
	if budget < 0 {
		m.notes = append(m.notes, fmt.Sprintf("massgen-hook confine: the project has more than %d entries; protected files past them are not masked, unless an earlier command's search found them", maxWalk))
	}
	// What an earlier search found stays masked while it is there and
	// protected: a command cannot make so many files that the next one's
	// search stops before a secret it already found.
	for _, path := range p.Found {
		rel, err := filepath.Rel(p.Project, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = ""
		}
		if info, err := os.Lstat(path); err == nil && p.protected(path, rel) {
			add(path, info.IsDir())
		}
	}
	if p.Home != "" && !within(p.Home, p.Project) {
		p.walkHome(visit)
	}
	for _, pat := range p.Read {
		abs := p.literalPattern(pat)
		if abs == "" {
			continue
		}
		matches, _ := doublestar.FilepathGlob(abs, doublestar.WithNoFollow())
		for _, f := range matches {
			if p.protected(f, "") {
				if info, err := os.Stat(f); err == nil {
					add(f, info.IsDir())
				}
			}
		}
	}
	return m
}

// walkHome visits the entries of the home directory and of the folders
// right below it (~/.env, ~/.netrc, ~/.ssh/id_rsa, ~/.aws/credentials).
func (p *Policy) walkHome(visit func(path, rel string, d fs.DirEntry) bool) {
	top, err := os.ReadDir(p.Home)
	if err != nil {
		return
	}
	for _, d := range top {
		path := filepath.Join(p.Home, d.Name())
		if visit(path, "", d) || !d.IsDir() {
			continue
		}
		below, err := os.ReadDir(path)
		if err != nil || len(below) > 1000 {
			continue
		}
		for _, e := range below {
			visit(filepath.Join(path, e.Name()), "", e)
		}
	}
}

// literalPattern is the absolute form of a pattern that names a place
// outside the project (~/..., /...), "" for one matched inside it.
func (p *Policy) literalPattern(pat string) string {
	if rest, ok := strings.CutPrefix(pat, "~/"); ok {
		if p.Home == "" {
			return ""
		}
		return filepath.Join(p.Home, rest)
	}
	if filepath.IsAbs(pat) {
		return pat
	}
	return ""
}

// protected reports whether path (rel: its form relative to the project,
// "" outside it) is on the read list and not an exception, matched as the
// guard matches it: relative in the project, absolute outside.
func (p *Policy) protected(path, rel string) bool {
	return p.matchAny(p.Read, path, rel) && !p.matchAny(p.Except, path, rel)
}

func (p *Policy) matchAny(patterns []string, path, rel string) bool {
	for _, pat := range patterns {
		form := path
		if abs := p.literalPattern(pat); abs != "" {
			pat = abs
		} else if rel != "" {
			form = rel
		}
		if ok, _ := doublestar.Match(pat, filepath.ToSlash(form)); ok {
			return true
		}
	}
	return false
}

// linkTargetMaskable reports whether what a protected name that is a
// symlink points at may be masked: a file or folder inside the project or
// the home directory that holds neither. A link to a system folder
// (id_rsa -> /usr, -> /), to the project itself or into a repository's
// .git would otherwise mask what every command, and the guards' git,
// needs to run; what it shows is readable by its own path all the same.
func (p *Policy) linkTargetMaskable(real string) bool {
	if within(real, p.Project) || (p.Home != "" && within(real, p.Home)) {
		return false
	}
	if slices.Contains(strings.Split(filepath.ToSlash(real), "/"), ".git") {
		return false // a repository's own files: git cannot run without them
	}
	return within(p.Project, real) || (p.Home != "" && within(p.Home, real))
}
