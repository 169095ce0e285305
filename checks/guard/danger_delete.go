package guard

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/analysis/shellcmd"
)

// The recursive-delete rule: a delete of a whole tree (rm -r, find
// -delete) that reaches /, the home directory, the project or a folder
// holding it, or a path outside the project that is not temporary.

// recursiveDelete judges every delete that takes a whole tree: rm -r,
// find -delete, and whatever else shellcmd reports as a Delete of a tree.
//
// It fails closed where the path cannot be known: an operand only known
// at run time (a variable, a command's output, xargs' input) is denied,
// unless it is a fresh mktemp name (shellcmd's Temp); so is a relative
// path where the directory is not known (after cd "$X"). A program whose
// name is not known is judged as if it deleted its operands.
func recursiveDelete(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	for _, e := range c.Effects() {
		w := e.Path
		if e.Op != shellcmd.Delete || !e.Tree || w.Temp || (w.Known && w.Value == "") {
			continue
		}
		what, instead := d.deleteOperand(c, w)
		if what != "" && !c.Name.Known {
			return fmt.Sprintf("%s (the program %s is only known at run time, so it is judged as if it deleted its operands)", what, c.Name.Raw),
				"Name the program in the command itself, not through a variable or a command's output."
		}
		if what != "" {
			return what, instead
		}
	}
	return "", ""
}

// deleteOperand judges one operand of a recursive delete.
func (d *dangerCall) deleteOperand(c *shellcmd.Command, w shellcmd.Word) (string, string) {
	if !w.Known {
		return fmt.Sprintf("%s deletes %s, a path that is only known at run time", quoteCmd(c), w.Raw),
			"Name the paths in the command itself (literally, or in a variable assigned a literal earlier in the same command), so they can be checked."
	}
	if _, ok := w.NoSuchUserHome(); ok {
		return fmt.Sprintf("%s deletes %s, the home directory of a user this machine does not have (bash would take it as a folder here)", quoteCmd(c), w.Raw),
			"Give the path in full, without ~user."
	}
	if c.Dir == "" && !filepath.IsAbs(w.Value) {
		return fmt.Sprintf("%s deletes %s in a directory that is only known at run time", quoteCmd(c), w.Raw),
			"cd to a literal directory first, or give the path in full."
	}
	for _, target := range deleteTargets(w, c.Dir) {
		if link := d.linkMadeBefore(c, target); link != "" {
			return fmt.Sprintf("%s deletes %s, through %s, where this command line makes a symbolic link first: where it leads is only known when it runs", quoteCmd(c), target.path, link),
				"Delete by the path the link leads to, in a command of its own, so it can be checked."
		}
		// rm removes a symlink itself unless a trailing slash (which
		// deleteTargets gives a folder's contents) makes it follow.
		rp := d.paths.ResolveNoFollow(target.path, c.Dir)
		if what, instead := d.judgeDelete(c, rp, target.contents); what != "" {
			return what, instead
		}
		if climbs(target.path) && !d.Project.contains(rp.Real, rp.Fold) {
			return fmt.Sprintf("%s deletes %s, climbing out of the folder it names with ..", quoteCmd(c), rp.Lexical),
				"Write the path to delete without .., so where it leads can be seen."
		}
	}
	return "", ""
}

// linkMadeBefore is the name an ln of the same command line, run before
// c, gives a link on the way to target: a folder the target is in, or the
// target itself when its contents go (a trailing slash, dir/*). The delete
// then goes where that link leads, which the files as they are now do not
// show (`ln -s /etc /tmp/x; rm -rf /tmp/x/ssh`). ln's name is its only
// write, and a hard link is a file, never a folder on the way, so every
// ln counts. "" when there is none.
func (d *dangerCall) linkMadeBefore(c *shellcmd.Command, target deleteTarget) string {
	p, ok := absolute(target.path, c.Dir)
	if !ok {
		return ""
	}
	follows := target.contents || strings.HasSuffix(target.path, "/")
	for _, prev := range d.script.Commands {
		if prev == c {
			break
		}
		if prev.Base() != "ln" {
			continue
		}
		for _, e := range prev.Effects() {
			name, ok := absolute(e.Path.Value, prev.Dir)
			if e.Op != shellcmd.Write || !e.Path.Known || !ok {
				continue
			}
			if p != name && Within(p, name) || follows && p == name {
				return name
			}
		}
	}
	return ""
}

// absolute is p made absolute against dir, cleaned; false when p is
// relative and dir is not known.
func absolute(p, dir string) (string, bool) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if dir == "" {
		return "", false
	}
	return filepath.Join(dir, p), true
}

// climbs reports whether a path goes up with "..": outside the project,
// even into another temporary folder, that is how a delete gets out of the
// scratch folder it seems to name ($TMPDIR/../x), so it is not taken for
// scratch.
func climbs(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// deleteTarget is one path a recursive delete takes: the path itself, or
// with contents only what is in it (dir/*), not the folder.
type deleteTarget struct {
	path     string
	contents bool
}

// deleteTargets are the paths an rm operand deletes: itself; for a glob
// that takes everything in a folder (*, .*, dir/*), that folder's
// contents; for any other glob, what it matches now, as the shell would
// expand it.
func deleteTargets(w shellcmd.Word, dir string) []deleteTarget {
	if !w.Glob {
		return []deleteTarget{{path: w.Value}}
	}
	if base := path.Base(w.Value); base == "*" || base == ".*" || base == "**" {
		// The folder's contents go: a link to it is followed, like dir/.
		return []deleteTarget{{path: strings.TrimSuffix(globDir(w.Value), "/") + "/", contents: true}}
	}
	pattern := w.Value
	if !filepath.IsAbs(pattern) && dir != "" {
		pattern = filepath.Join(escapeGlob(dir), pattern)
	}
	matches := globFiles(pattern)
	targets := make([]deleteTarget, len(matches))
	for i, m := range matches {
		targets[i] = deleteTarget{path: m}
	}
	return targets
}

// judgeDelete says what is wrong with deleting rp recursively (with
// contents, only what is in it). rm acts where the kernel's walk ends
// (rp.Real); the names as written count too for the places never to
// delete.
func (d *dangerCall) judgeDelete(c *shellcmd.Command, rp fspath.Path, contents bool) (string, string) {
	const instead = "Delete only the specific files or folders you mean, inside the project."
	switch {
	case rp.Real == "/" || rp.Lexical == "/":
		return fmt.Sprintf("%s would delete the whole filesystem", quoteCmd(c)), instead
	case d.Home != "" && (rp.Lexical == filepath.Clean(d.Home) || rp.Real == d.paths.Real(d.Home)):
		return fmt.Sprintf("%s would delete the home directory", quoteCmd(c)), instead
	case rp.Lexical == d.Project.Root || rp.Real == d.Project.real:
		return fmt.Sprintf("%s would delete the project itself (%s)", quoteCmd(c), d.Project.Root), instead
	case Within(d.Project.Root, rp.Lexical) || Within(d.Project.real, rp.Real):
		return fmt.Sprintf("%s would delete %s, which holds the project (%s)", quoteCmd(c), rp.Lexical, d.Project.Root), instead
	case !d.Project.contains(rp.Real, rp.Fold) && !isTemp(rp.Real, contents, userTmpdir(d.Tmpdir, d.Home)):
		shown := rp.Lexical
		if Within(rp.Lexical, d.Project.Root) {
			shown = rp.Real // named in the project, a link leads out: say where
		}
		return fmt.Sprintf("%s deletes %s, outside the project", quoteCmd(c), shown), "Only delete inside the project (or under /tmp); ask the user to remove anything outside it."
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

// sharedTemp are the temporary folders every program shares.
var sharedTemp = []string{"/tmp", "/private/tmp", "/var/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders"}

// isTemp reports whether real (symlinks resolved: a link in /tmp that
// points at /etc is /etc; macOS's /var/tmp is /private/var/tmp) is inside
// a temporary folder, or with contents is /tmp or /var/tmp: emptying them
// is allowed, removing them is not. /var/folders holds every user's
// caches, and is not emptied. The user's own temporary folder (tmpdir, see
// userTmpdir) may go whole, as it may where it lies in /tmp or /var/folders
// (macOS's $TMPDIR).
func isTemp(real string, contents bool, tmpdir string) bool {
	if tmpdir != "" && Within(real, tmpdir) {
		return true
	}
	for _, t := range sharedTemp {
		if real != t && Within(real, t) || contents && real == t && !strings.HasSuffix(t, "/folders") {
			return true
		}
	}
	return false
}
