package confine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Availability is whether bubblewrap can confine commands on this
// machine, and why not.
type Availability struct {
	OK      bool   `json:"ok"`
	Bwrap   string `json:"bwrap,omitempty"`
	Version string `json:"version,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Key identifies the machine and the bwrap binary probed (host name,
	// size and time of the binary): a record with another key is stale.
	Key string `json:"key"`
}

// probeTimeout bounds the probe: a sandbox that cannot start in that time
// is not one to run every command in.
const probeTimeout = 5 * time.Second

// Probe runs bwrap once with the kinds of mounts a plan uses (the root
// read-only, a folder writable, a file masked, a folder emptied, the
// capabilities dropped, the seccomp filter) and says whether it worked. It fails where
// bubblewrap is missing, too old for those options, or where the system
// refuses the namespace (a container without user namespaces, another
// sandbox that does not nest).
func Probe(bwrap string) Availability {
	a := Availability{Bwrap: bwrap, Key: Key(bwrap)}
	if bwrap == "" {
		a.Reason = "bubblewrap (bwrap) is not installed"
		return a
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	if out, err := exec.CommandContext(ctx, bwrap, "--version").Output(); err == nil {
		a.Version = strings.TrimSpace(string(out))
	}
	dir, err := os.MkdirTemp("", "massgen-hook-probe-")
	if err != nil {
		a.Reason = "cannot make a folder to probe bubblewrap in: " + err.Error()
		return a
	}
	defer os.RemoveAll(dir)
	secret, masked, empty := filepath.Join(dir, "secret"), filepath.Join(dir, "mask"), filepath.Join(dir, "empty")
	for _, f := range []string{secret, masked} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			a.Reason = err.Error()
			return a
		}
	}
	if err := os.Mkdir(empty, 0o755); err != nil {
		a.Reason = err.Error()
		return a
	}
	pl := Plan{Writable: []string{dir}, ReadOnly: []string{empty}, MaskFiles: []string{secret}, MaskDirs: []string{empty}}
	filter, err := SeccompFile()
	if err != nil {
		a.Reason = "cannot prepare the seccomp filter: " + err.Error()
		return a
	}
	fd := -1
	if filter != nil {
		defer filter.Close()
		fd = 3 // the first of ExtraFiles
	}
	argv := Argv(bwrap, pl, masked, fd, "/bin/sh", "echo ok > "+filepath.Join(dir, "written"))
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if filter != nil {
		cmd.ExtraFiles = []*os.File{filter}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		why := strings.TrimSpace(stderr.String())
		if ctx.Err() != nil {
			why = "it did not start within " + probeTimeout.String()
		}
		if why == "" {
			why = err.Error()
		}
		tool := "bubblewrap"
		if isSandboxExec(bwrap) {
			tool = "sandbox-exec"
		}
		a.Reason = fmt.Sprintf("%s cannot make a sandbox here (%s)", tool, firstLine(why))
		return a
	}
	if data, err := os.ReadFile(filepath.Join(dir, "written")); err != nil || string(data) != "ok\n" {
		a.Reason = "the sandbox ran, but a write inside it did not arrive"
		return a
	}
	a.OK = true
	return a
}

// Key identifies this machine and bwrap binary.
func Key(bwrap string) string {
	host, _ := os.Hostname()
	if bwrap == "" {
		return host + " no-bwrap"
	}
	info, err := os.Stat(bwrap)
	if err != nil {
		return host + " " + bwrap
	}
	return fmt.Sprintf("%s %s %d %d", host, bwrap, info.Size(), info.ModTime().UnixNano())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
