package checks

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/shellcmd"
)

// The recursive-delete rule: a delete of a whole tree (rm -r, find
// -delete) that reaches /, the home directory, the project or a folder
// holding it, or a path outside the project that is not temporary.

// recursiveDelete judges every delete that takes a whole tree: rm -r,
// find -delete, and whatever else shellcmd reports as a Delete of a tree.
func recursiveDelete(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	for _, e := range c.Effects() {
		w := e.Path
		if e.Op != shellcmd.Delete || !e.Tree || !w.Known || w.Value == "" {
			continue
		}
		for _, target := range deleteTargets(w, d.dir(c)) {
			if what, instead := d.judgeDelete(c, resolveOperand(target, d.dir(c))); what != "" {
				return what, instead
			}
		}
	}
	return "", ""
}

// resolveOperand resolves an rm operand as rm treats it: a symlink named
// without a trailing slash is removed itself, its target left alone, so
// only the folders above it are resolved.
func resolveOperand(target, dir string) resolvedPath {
	if strings.HasSuffix(target, "/") {
		return resolve(target, dir)
	}
	rp := resolve(target, dir)
	if info, err := os.Lstat(rp.lexical); err == nil && info.Mode()&os.ModeSymlink != 0 {
		rp.real = filepath.Join(resolveSymlinks(filepath.Dir(rp.lexical)), filepath.Base(rp.lexical))
	}
	return rp
}

// deleteTargets are the paths an rm operand deletes: itself; for a glob
// that takes everything in a folder (*, .*, dir/*), that folder; for any
// other glob, what it matches now, as the shell would expand it.
func deleteTargets(w shellcmd.Word, dir string) []string {
	if !w.Glob {
		return []string{w.Value}
	}
	if base := path.Base(w.Value); base == "*" || base == ".*" || base == "**" {
		// The folder's contents go: a link to it is followed, like dir/.
		return []string{strings.TrimSuffix(globDir(w.Value), "/") + "/"}
	}
	pattern := w.Value
	if !filepath.IsAbs(pattern) && dir != "" {
		pattern = filepath.Join(escapeGlob(dir), pattern)
	}
	matches, _ := filepath.Glob(pattern)
	return matches
}

// judgeDelete says what is wrong with deleting rp recursively.
func (d *dangerCall) judgeDelete(c *shellcmd.Command, rp resolvedPath) (string, string) {
	const instead = "Delete only the specific files or folders you mean, inside the project."
	switch {
	case rp.real == "/" || rp.lexical == "/":
		return fmt.Sprintf("%s would delete the whole filesystem", quoteCmd(c)), instead
	case d.home != "" && (rp.lexical == filepath.Clean(d.home) || rp.real == resolveSymlinks(d.home)):
		return fmt.Sprintf("%s would delete the home directory", quoteCmd(c)), instead
	case rp.lexical == d.project.root || rp.real == d.project.real:
		return fmt.Sprintf("%s would delete the project itself (%s)", quoteCmd(c), d.project.root), instead
	case within(d.project.root, rp.lexical) || within(d.project.real, rp.real):
		return fmt.Sprintf("%s would delete %s, which holds the project (%s)", quoteCmd(c), rp.lexical, d.project.root), instead
	case !d.project.inside(rp) && !isTemp(rp):
		return fmt.Sprintf("%s deletes %s, outside the project", quoteCmd(c), rp.lexical), "Only delete inside the project (or under /tmp); ask the user to remove anything outside it."
	}
	return "", ""
}

// globDir is the directory a glob's matches live in: "*" is ".",
// "build/*.o" is "build", "/*" is "/".
func globDir(pattern string) string {
	dir := pattern
	for strings.ContainsAny(path.Base(dir), "*?[{") {
		next := path.Dir(dir)
		if next == dir {
			break
		}
		dir = next
	}
	if strings.ContainsAny(dir, "*?[{") {
		return "."
	}
	return dir
}

// isTemp reports whether rp, symlinks resolved, is inside a temporary
// folder: a link in /tmp that points at /etc is /etc.
func isTemp(rp resolvedPath) bool {
	for _, t := range []string{"/tmp", "/private/tmp", "/var/tmp", "/var/folders"} {
		if rp.real != t && within(rp.real, t) {
			return true
		}
	}
	return false
}
