package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/massgen/massgen-hook/internal/memcap"
)

// detach starts this binary again with args as a detached process (its own
// session, no terminal, stdio on /dev/null) and does not wait for it: work
// that must never delay the agent, such as observers, finishes there after
// the hook has answered. The child outlives the hook; its failures are its
// own to record.
func (a *app) detach(args ...string) error {
	if a.sandbox != "" {
		return nil // a replay starts nothing that outlives it
	}
	self, err := selfPath()
	if err != nil {
		return err
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("detaching %s: %w", args, err)
	}
	defer null.Close()
	cmd := exec.Command(self, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	cmd.Env = a.environ()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := memcap.Lifted(cmd.Start); err != nil {
		return fmt.Errorf("starting %s %s: %w", self, args[0], err)
	}
	// Release, not Wait: the hook exits first and init reaps the child.
	return cmd.Process.Release()
}

// selfPath is the program to run for a detached child: the path this
// process was started by when it names a file (a link named massgen-hook
// runs massgen-hook, even when it points at a binary that dispatches on its
// name), else the resolved executable.
func selfPath() (string, error) {
	arg0 := os.Args[0]
	if filepath.Base(arg0) == arg0 {
		if p, err := exec.LookPath(arg0); err == nil {
			arg0 = p
		}
	}
	if p, err := filepath.Abs(arg0); err == nil {
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p, nil
		}
	}
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding massgen-hook's own executable: %w", err)
	}
	return p, nil
}
