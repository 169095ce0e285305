package guard

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
)

// startupHidesDots reports whether the CLI's shell surely starts with the
// default globbing of bash and zsh, where a * or ? at the start of a name
// matches no name that starts with a dot (`cat *` does not read .env). It
// does not when:
//   - the shell is not bash, zsh, sh or dash ($SHELL, which Claude Code
//     and Codex run commands with);
//   - the environment the shell inherits turns dotglob on (GLOBIGNORE
//     set, BASHOPTS naming it) or runs a file first (BASH_ENV, ENV);
//   - a file the shell or the user's interactive shell reads at start
//     (~/.bashrc, ~/.zshrc, /etc/profile, ..., the files BASH_ENV, ENV and
//     ZDOTDIR name) mentions dotglob, GLOB_DOTS or GLOBIGNORE in any
//     spelling, or cannot be read;
//   - a shell snapshot of Claude Code's (the options of the user's
//     interactive shell, which every command of a session starts with)
//     turns dotglob or GLOB_DOTS on, or cannot be read.
//
// Files sourced from those files are not read: a user who turns dotglob
// on there, and not in their snapshot's shell, is not seen.
func startupHidesDots(environ []string, home string) bool {
	switch filepath.Base(envValue(environ, "SHELL")) {
	case ".", "bash", "zsh", "sh", "dash": // "." is no $SHELL: the CLIs use bash
	default:
		return false
	}
	if envValue(environ, "GLOBIGNORE") != "" || strings.Contains(envValue(environ, "BASHOPTS"), "dotglob") {
		return false
	}
	for _, f := range startupFiles(environ, home) {
		if mentionsDotglob(f) {
			return false
		}
	}
	return !snapshotsTurnDotsOn(home)
}

// startupFiles are the files bash, sh and zsh (login, interactive or
// neither) read before a command.
func startupFiles(environ []string, home string) []string {
	files := []string{"/etc/profile", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshenv", "/etc/zsh/zshenv",
		"/etc/zprofile", "/etc/zsh/zprofile", "/etc/zshrc", "/etc/zsh/zshrc", "/etc/zlogin", "/etc/zsh/zlogin"}
	zdot := home
	if z := envValue(environ, "ZDOTDIR"); z != "" {
		zdot = z
	}
	if home != "" {
		for _, name := range []string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_aliases"} {
			files = append(files, filepath.Join(home, name))
		}
	}
	if zdot != "" {
		for _, name := range []string{".zshenv", ".zprofile", ".zshrc", ".zlogin"} {
			files = append(files, filepath.Join(zdot, name))
		}
	}
	for _, v := range []string{"BASH_ENV", "ENV"} {
		if f := envValue(environ, v); f != "" {
			files = append(files, f)
		}
	}
	return files
}

// maxStartupFile bounds what is read of one startup file or snapshot.
const maxStartupFile = 1 << 20

// mentionsDotglob reports whether the file at path names dotglob,
// GLOB_DOTS (zsh takes any case and underscores), GLOBIGNORE or BASHOPTS,
// or may: a file that exists but cannot be read whole counts as naming
// them.
func mentionsDotglob(path string) bool {
	text, err := readSmall(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotRegular) {
		return false
	} else if err != nil {
		return true
	}
	return shellcmd.MentionsGlobbing(string(text))
}

var errNotRegular = errors.New("not a regular file")

// readSmall reads a regular file of at most maxStartupFile bytes; a
// larger one is an error.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, errNotRegular
	}
	text, err := io.ReadAll(io.LimitReader(f, maxStartupFile+1))
	if err == nil && len(text) > maxStartupFile {
		err = errors.New("too large")
	}
	return text, err
}

// maxSnapshots bounds how many of Claude Code's shell snapshots are read:
// the newest, by modification time.
const maxSnapshots = 16

// snapshotsTurnDotsOn reports whether one of Claude Code's newest shell
// snapshots (~/.claude/shell-snapshots) may turn dotglob (`shopt -s
// dotglob`) or GLOB_DOTS (`setopt globdots`) on, in its options or in a
// function or alias it defines, or cannot be read.
func snapshotsTurnDotsOn(home string) bool {
	if home == "" {
		return false
	}
	dir := filepath.Join(home, ".claude", "shell-snapshots")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	} else if err != nil {
		return true
	}
	type snap struct {
		path string
		mod  int64
	}
	var snaps []snap
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			snaps = append(snaps, snap{filepath.Join(dir, e.Name()), info.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(snaps, func(a, b snap) int { return cmp.Compare(b.mod, a.mod) })
	for i, s := range snaps {
		if i == maxSnapshots {
			break
		}
		text, err := readSmall(s.path)
		if err != nil {
			return true
		}
		// bash's snapshot lists every option (shopt -p): "shopt -u
		// dotglob" is the default, said. Any other mention, in a line
		// that turns it on or in a function or alias the snapshot
		// defines, may turn it on.
		for line := range bytes.Lines(text) {
			l := strings.TrimSpace(string(line))
			if l != "shopt -u dotglob" && shellcmd.MentionsGlobbing(l) {
				return true
			}
		}
	}
	return false
}
