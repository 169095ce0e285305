package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Plan is a Policy as it stands on disk now: the folders bound writable,
// the guard files bound read-only over them, and the protected files and
// folders masked. Args turns it into bubblewrap's arguments.
type Plan struct {
	Writable  []string
	ReadOnly  []string
	MaskFiles []string
	MaskDirs  []string
	// Found are the protected files and folders among the masks (the
	// rest are control sockets), for RememberFound.
	Found []string
	// Notes say what the plan could not do (a project too big to search
	// to the end), for the command's stderr.
	Notes []string
}

// Plan resolves p against the filesystem. Missing writable places are
// left out (a cache is created first when its parent exists); the
// protected files are found by walking the project (walk.go) and by the
// patterns that name places in the home directory.
func (p *Policy) Plan() Plan {
	var pl Plan
	pl.Writable = append(pl.Writable, p.Project)
	for _, c := range p.Caches {
		if _, err := os.Lstat(c.Dir); err != nil && c.installed(p.Path) {
			ensureCache(c.Dir)
		}
		if real, ok := existingDir(c.Dir); ok {
			pl.Writable = append(pl.Writable, real)
		}
	}
	for _, w := range p.Writable {
		if real, ok := existingDir(w); ok {
			pl.Writable = append(pl.Writable, real)
		}
	}
	pl.Writable = outermost(pl.Writable)
	for _, dir := range p.wiringFolders() {
		if _, ok := existingDir(dir); ok {
			pl.ReadOnly = append(pl.ReadOnly, dir)
		}
	}
	for _, f := range p.rootWiring() {
		if info, err := os.Lstat(f); err == nil && info.Mode().IsRegular() {
			pl.ReadOnly = append(pl.ReadOnly, f)
		}
	}
	for _, f := range p.GuardFiles {
		if _, err := os.Stat(f); err == nil {
			pl.ReadOnly = append(pl.ReadOnly, filepath.Clean(f))
		}
	}
	pl.ReadOnly = outermost(pl.ReadOnly)
	m := p.masks()
	pl.MaskFiles, pl.MaskDirs, pl.Notes = m.files, m.dirs, m.notes
	pl.Found = slices.Concat(m.files, m.dirs)
	files, dirs := p.socketMasks()
	pl.MaskFiles, pl.MaskDirs = append(pl.MaskFiles, files...), append(pl.MaskDirs, dirs...)
	return pl
}

// wiringFolders are the folders that hold the guards' wiring, absolute:
// the folder of each wiring file (.claude for .claude/settings.json), or
// the folder a pattern covers whole (.github/hooks for .github/hooks/**).
// A whole folder is read-only, not only the files that exist: a hook file
// created beside them (.claude/settings.local.json) would wire hooks too.
func (p *Policy) wiringFolders() []string {
	var out []string
	for _, pat := range p.Wiring {
		base := p.Project
		if rest, ok := strings.CutPrefix(pat, "~/"); ok {
			if p.Home == "" {
				continue
			}
			base, pat = p.Home, rest
		}
		var dir string
		if lit, ok := strings.CutSuffix(pat, "/**"); ok {
			dir = lit
		} else {
			dir = filepath.Dir(pat)
		}
		if dir == "." || dir == "" || strings.ContainsAny(dir, `*?[{\`) {
			continue // a file at the root itself: nothing to hold it
		}
		out = append(out, filepath.Join(base, dir))
	}
	return out
}

// rootWiring are the wiring files that sit in the project's top folder
// (.mcp.json), absolute: no folder of their own can be read-only (it is
// the project), so each that exists is read-only as a file. One a command
// creates is not stopped: the CLI asks its user before it starts a server
// a new .mcp.json names.
func (p *Policy) rootWiring() []string {
	var out []string
	for _, pat := range p.Wiring {
		if !strings.HasPrefix(pat, "~/") && !strings.ContainsAny(pat, `/*?[{\`) {
			out = append(out, filepath.Join(p.Project, pat))
		}
	}
	return out
}

// existingDir is path with its symbolic links resolved, when it is a
// directory.
func existingDir(path string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	info, err := os.Stat(real)
	return real, err == nil && info.IsDir()
}

// ensureCache creates a missing cache folder of an installed tool, as the
// tool would on its first run (which a read-only home would refuse inside
// the sandbox).
func ensureCache(dir string) {
	if _, err := os.Lstat(dir); err == nil {
		return
	}
	_ = os.MkdirAll(dir, 0o755) // best effort: missing, it is left read-only
}

// outermost sorts paths and drops those inside another one of them: a
// bind of the outer folder carries what is below it.
func outermost(paths []string) []string {
	s := slices.Clone(paths)
	for i := range s {
		s[i] = filepath.Clean(s[i])
	}
	slices.Sort(s)
	s = slices.Compact(s)
	var out []string
	for _, p := range s {
		if len(out) > 0 && within(out[len(out)-1], p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
