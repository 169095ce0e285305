package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// maskName is the empty file, mode 0, bound over each protected file. It
// lives in the runtime folder, which the sandbox keeps read-only.
const maskName = "masked"

// MaskFile returns the empty, unreadable file in dir that masks protected
// files, creating it when missing. A file found there that is not an
// empty regular file of mode 0 (a link, content) is replaced: a mask that
// showed content would show the wrong content.
func MaskFile(dir string) (string, error) {
	path := filepath.Join(dir, maskName)
	if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() && info.Size() == 0 && info.Mode().Perm() == 0 {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".masked-*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	err = errors.Join(tmp.Chmod(0), tmp.Close())
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("cannot create the mask file: %w", err)
	}
	return path, nil
}

// Argv is the whole command line that runs shell -c command confined by
// the plan: bwrap, its arguments, then the shell. --cap-drop ALL matters
// when the user is root: a root shell that kept its capabilities could
// unmount the masks. seccompFD is the descriptor of SeccompFile's
// program in bwrap's process, or -1 for none.
//
// Where the tool is macOS's sandbox-exec, the plan runs as a Seatbelt
// profile instead (the mask file and the filter are bwrap's).
func Argv(bwrap string, pl Plan, maskFile string, seccompFD int, shell, command string) []string {
	if isSandboxExec(bwrap) {
		return seatbeltArgv(bwrap, pl, shell, command)
	}
	argv := []string{bwrap, "--cap-drop", "ALL"}
	if seccompFD >= 0 {
		argv = append(argv, "--seccomp", strconv.Itoa(seccompFD))
	}
	argv = append(argv, pl.Args(maskFile)...)
	return append(argv, shell, "-c", command)
}

// SeccompFile is a pipe whose read end holds the seccomp program
// (SeccompFilter), for bwrap's --seccomp; nil where the machine has no
// filter. The program is a few hundred bytes: it fits the pipe's buffer.
func SeccompFile() (*os.File, error) {
	prog := SeccompFilter()
	if prog == nil {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = w.Write(prog)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// ReadOnlyArgv runs argv (no shell) with the whole filesystem read-only
// and the plan's protected files masked: for the programs the hooks run
// in the project (git), which a repository's configuration, written by a
// confined command, may make run other programs.
func ReadOnlyArgv(bwrap string, pl Plan, maskFile string, argv []string) []string {
	masks := Plan{MaskFiles: pl.MaskFiles, MaskDirs: pl.MaskDirs}
	out := append(hookSandboxStart(bwrap), masks.Args(maskFile)...)
	return append(out, argv...)
}

// ExecArgv runs argv (no shell) confined by the plan, as the agent's own
// commands are: for the programs the hooks run that a confined command
// may have rewritten (a rule's script in the project), which must not get
// more rights than that command had.
func ExecArgv(bwrap string, pl Plan, maskFile string, argv []string) []string {
	out := append(hookSandboxStart(bwrap), pl.Args(maskFile)...)
	return append(out, argv...)
}

// hookSandboxStart opens the sandboxes of the programs the hooks run:
// capabilities dropped, and a session of their own (--new-session), so
// that the terminal the agent CLI runs in is not their controlling
// terminal: a program a confined command planted (a git filter) cannot
// push a command line into its input (TIOCSTI) for the shell that gets
// it back. Unlike the agent's commands, none of them needs the terminal,
// so no seccomp descriptor has to be handed through the hooks' exec.
func hookSandboxStart(bwrap string) []string {
	return []string{bwrap, "--new-session", "--cap-drop", "ALL"}
}
