package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// projectMarkers are the folders that make a directory a project root:
// Claude Code's (which also holds massgen-hook's config and runtime
// directory) and those init wires for the other CLIs. Copilot's is
// .github/hooks, not .github, which any repository may have anywhere.
var projectMarkers = []string{".claude", ".codex", ".gemini", ".cursor", ".github" + string(filepath.Separator) + "hooks"}

// findProjectRoot walks up from start, as git finds its repository: the
// nearest directory holding a marker folder is the project; failing that,
// the nearest holding .git (a folder, or the file of a worktree or
// submodule) is, and the walk stops there, since a marker above the
// repository belongs to something else. Neither found, start itself is the
// project.
//
// The walk never reaches $HOME or /: ~/.claude, ~/.gemini and the like are
// the user's own settings, not a project, and a dotfiles repository in
// $HOME must not make it the project of everything below it. start itself
// may be either, and is then its own project.
//
// A directory above start is taken only when it is trusted as start is
// (trustedAbove): the project's config runs commands, and a marker that
// another user, or anyone, could plant in /tmp must not pick it.
//
// It costs at most six stats per directory climbed, and runs only when no
// variable named the project (a Claude Code hook never walks).
func findProjectRoot(start, home string) string {
	start = filepath.Clean(start)
	if home != "" {
		home = filepath.Clean(home)
	}
	for dir := start; ; {
		if dir == home || isFilesystemRoot(dir) {
			return start
		}
		if isProjectRoot(dir) {
			if dir == start || trustedAbove(dir, start) {
				return dir
			}
			return start
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return start
		}
		dir = parent
	}
}

func isFilesystemRoot(dir string) bool { return filepath.Dir(dir) == dir }

// isProjectRoot reports whether dir holds a marker folder or .git.
func isProjectRoot(dir string) bool {
	for _, m := range projectMarkers {
		if info, err := os.Stat(filepath.Join(dir, m)); err == nil && info.IsDir() {
			return true
		}
	}
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// trustedAbove reports whether dir, found above start, may be its
// project: owned by start's owner and not writable by others (as git
// refuses a repository another user owns). /tmp, world-writable, never is.
func trustedAbove(dir, start string) bool {
	d, err := os.Stat(dir)
	if err != nil || d.Mode().Perm()&0o002 != 0 {
		return false
	}
	s, err := os.Stat(start)
	if err != nil {
		return false
	}
	return owner(d) == owner(s)
}

// owner is a file's owning user id, or -1 where the system has none.
func owner(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int64(st.Uid)
	}
	return -1
}
