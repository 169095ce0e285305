//go:build realcli

package realcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// cacheDir is where the CLIs are installed, one prefix per CLI and version,
// kept across runs and across clones: $MASSGEN_REALCLI_CACHE, else
// massgen-hook/realcli in the user's cache folder ($XDG_CACHE_HOME or
// ~/.cache), so CI on the same machine reuses what a developer installed.
func cacheDir() (string, error) {
	if dir := os.Getenv("MASSGEN_REALCLI_CACHE"); dir != "" {
		return filepath.Abs(dir)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "massgen-hook", "realcli"), nil
}

// installed memoises each CLI's install for the whole test run, so parallel
// scenarios wait for one install and only selected CLIs are installed.
var installed sync.Map // name → *installOnce

type installOnce struct {
	once sync.Once
	inst Install
	err  error
}

// Install is where one CLI is installed.
type Install struct {
	Prefix string // the npm prefix
	Exe    string // the CLI's program
}

// install returns the CLI's install, putting the pinned packages into the
// cache first unless a finished install of them is there.
func install(c *CLI) (Install, error) {
	v, _ := installed.LoadOrStore(c.Name, &installOnce{})
	o := v.(*installOnce)
	o.once.Do(func() { o.inst, o.err = installLocked(c) })
	return o.inst, o.err
}

// readyFile marks a finished install; it holds the package list, so a
// changed pin installs afresh.
const readyFile = ".realcli-ready"

func installLocked(c *CLI) (Install, error) {
	root, err := cacheDir()
	if err != nil {
		return Install{}, fmt.Errorf("no cache folder: %w", err)
	}
	prefix := filepath.Join(root, c.Name+"@"+c.Version)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Install{}, err
	}
	// Two test runs (two clones, CI and a developer) may install at once.
	lock := flock.New(prefix + ".lock")
	if err := lock.Lock(); err != nil {
		return Install{}, fmt.Errorf("locking %s: %w", prefix, err)
	}
	defer lock.Unlock()

	want := strings.Join(c.Packages, "\n") + "\n"
	exe := c.Executable(prefix)
	if got, err := os.ReadFile(filepath.Join(prefix, readyFile)); err == nil && string(got) == want {
		if err := verifyInstall(c, prefix, exe); err == nil {
			return Install{Prefix: prefix, Exe: exe}, nil
		}
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return Install{}, errors.New("npm is not installed (apt-get install nodejs npm)")
	}
	if err := os.RemoveAll(prefix); err != nil {
		return Install{}, err
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return Install{}, err
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	args := append([]string{"install", "--prefix", prefix, "--no-audit", "--no-fund",
		"--no-update-notifier", "--loglevel=error"}, c.Packages...)
	cmd := exec.CommandContext(ctx, "npm", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return Install{}, fmt.Errorf("npm %s: %v\n%s", strings.Join(args, " "), err, tail(out.Bytes(), 2000))
	}
	exe = c.Executable(prefix)
	if err := verifyInstall(c, prefix, exe); err != nil {
		return Install{}, err
	}
	if err := os.WriteFile(filepath.Join(prefix, readyFile), []byte(want), 0o644); err != nil {
		return Install{}, err
	}
	logf("installed %s %s into %s in %s", c.Name, c.Version, prefix, time.Since(start).Round(time.Second))
	return Install{Prefix: prefix, Exe: exe}, nil
}

// verifyInstall checks a finished install: c's own Verify, else its
// --version.
func verifyInstall(c *CLI, prefix, exe string) error {
	if c.Verify != nil {
		return c.Verify(prefix, exe)
	}
	return checkVersion(c, prefix, exe)
}

// checkVersion runs `exe --version` and wants the pinned version in it.
func checkVersion(c *CLI, prefix, exe string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--version")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()}
	if c.Env != nil {
		cmd.Env = append(cmd.Env, c.Env(prefix)...)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s --version: %v\n%s", exe, err, tail(out, 1000))
	}
	if !strings.Contains(string(out), c.Version) {
		return fmt.Errorf("%s --version printed %q, not version %s", exe, strings.TrimSpace(string(out)), c.Version)
	}
	return nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}
