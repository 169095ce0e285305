package main

import (
	"bytes"
	"context"
	"errors"
	"hash/maphash"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/confine"
)

// The outer jail: attacks run for real, but inside bubblewrap with the
// whole filesystem read-only except one scratch folder (the project and a
// fake HOME, bound at jailRoot), no network, fresh /tmp and /run, no
// capabilities, a time bound; massgen-hook's own confinement runs inside
// it. The jail's user is uid 1000 of a user namespace of its own: a
// namespace that maps root cannot nest another one, and the product's
// sandbox must nest.
const (
	jailRoot    = "/run/jail"
	jailProject = jailRoot + "/proj"
	jailHome    = jailRoot + "/home"
	jailTimeout = 30 * time.Second
)

// jail is one scratch folder and the bwrap that runs commands on it.
type jail struct {
	t       *testing.T
	bwrap   string
	scratch string
	// timeout bounds each run (jailTimeout unless set).
	timeout time.Duration
	// network keeps the machine's network in the jail (everyday work that
	// downloads packages; never for attacks).
	network bool
	// env changes the jail's environment: "K=V" sets K, "-K" unsets it.
	env []string
	// kept is a copy of the project and HOME as keep found them, which
	// reset puts back.
	kept string
}

// newJail makes a scratch folder holding the built massgen-hook (as
// itself and as the shell prefix) and whatever setup writes. Without
// bubblewrap the test is skipped, and says why, unless
// MASSGEN_HOOK_TEST_BWRAP=required (CI).
func newJail(t *testing.T, setup func(proj, home string)) *jail {
	t.Helper()
	bwrap := confine.Lookup(func(string) string { return "" })
	if a := confine.Probe(bwrap); !a.OK {
		if os.Getenv("MASSGEN_HOOK_TEST_BWRAP") == "required" {
			t.Fatalf("bubblewrap is required here: %s", a.Reason)
		}
		t.Skipf("the outer jail needs bubblewrap (%s): apt install bubblewrap", a.Reason)
	}
	bin := buildHook(t)
	j := &jail{t: t, bwrap: bwrap, scratch: t.TempDir()}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"massgen-hook", "massgen-hook-shell"} {
		j.write("bin/"+name, string(data), 0o755)
	}
	setup(filepath.Join(j.scratch, "proj"), filepath.Join(j.scratch, "home"))
	j.keep()
	return j
}

// jailTrees are the scratch folder's trees an attack may change.
var jailTrees = []string{"proj", "home"}

// keep records the jail's project and HOME as they are now (after init,
// say); reset puts them back. Tests that run many attacks share one jail
// this way, one init and one copy of the binary, and no attack's files
// meet the next one's. Copying on the host runs nothing of an attack's.
func (j *jail) keep() {
	j.t.Helper()
	if j.kept == "" {
		j.kept = j.t.TempDir()
	}
	for _, tree := range jailTrees {
		j.copyTree(filepath.Join(j.scratch, tree), filepath.Join(j.kept, tree))
	}
}

// reset puts the project and HOME back as keep found them.
func (j *jail) reset() {
	j.t.Helper()
	for _, tree := range jailTrees {
		j.copyTree(filepath.Join(j.kept, tree), filepath.Join(j.scratch, tree))
	}
}

// copyTree makes to a copy of from (modes, links and all), removing what
// was at to first, folders an attack made read-only included.
func (j *jail) copyTree(from, to string) {
	j.t.Helper()
	_ = filepath.WalkDir(to, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(to); err != nil {
		j.t.Fatal(err)
	}
	if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
		return
	}
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		j.t.Fatalf("copying %s: %v\n%s", from, err, out)
	}
}

// write puts a file in the scratch folder (path relative to it).
func (j *jail) write(rel, content string, mode fs.FileMode) {
	j.t.Helper()
	p := filepath.Join(j.scratch, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		j.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		j.t.Fatal(err)
	}
}

// run runs argv inside the outer jail, in dir (inside the jail), with
// stdin, and returns its exit code and its output (stdout and stderr).
func (j *jail) run(dir string, stdin string, argv ...string) (int, string) {
	j.t.Helper()
	timeout := j.timeout
	if timeout == 0 {
		timeout = jailTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	path := "/usr/local/bin:/usr/bin:/bin"
	if goBin := runtimeGoBin(); goBin != "" {
		path = goBin + ":" + path
	}
	outer := []string{
		"--unshare-user", "--uid", "1000", "--gid", "1000", "--unshare-pid", "--unshare-net",
		"--die-with-parent", "--cap-drop", "ALL", "--new-session",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--tmpfs", "/run",
		"--bind", j.scratch, jailRoot, "--chdir", dir, "--clearenv",
		"--setenv", "HOME", jailHome, "--setenv", "CLAUDE_PROJECT_DIR", jailProject,
		"--setenv", "PATH", path,
		"--setenv", "LANG", "C.UTF-8", "--setenv", "GOTOOLCHAIN", "local", "--setenv", "GOFLAGS", "-mod=mod",
		"--setenv", "GOPROXY", "off", "--setenv", "npm_config_offline", "true",
	}
	for _, kv := range j.env {
		if k, ok := strings.CutPrefix(kv, "-"); ok {
			outer = append(outer, "--unsetenv", k)
		} else if k, v, ok := strings.Cut(kv, "="); ok {
			outer = append(outer, "--setenv", k, v)
		}
	}
	outer = append(outer, "--")
	if j.network {
		outer = slices.DeleteFunc(outer, func(a string) bool { return a == "--unshare-net" })
		for i, a := range outer {
			if a == "npm_config_offline" {
				outer[i+1] = "false"
			}
		}
	}
	cmd := exec.CommandContext(ctx, j.bwrap, append(outer, argv...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		j.t.Fatalf("%q outlasted the jail's %s:\n%s", argv, timeout, out.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	case err != nil:
		j.t.Fatalf("running the jail: %v", err)
	}
	return 0, out.String()
}

// runtimeGoBin is the folder of the go tool this test runs with, for the
// everyday builds inside the jail.
func runtimeGoBin() string {
	p, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	return filepath.Dir(p)
}

// confined runs command as Claude Code runs a Bash command through
// CLAUDE_CODE_SHELL_PREFIX: one argument holding eval of the command and
// Claude Code's capture of the working directory.
func (j *jail) confined(dir, command string) (int, string) {
	wrapped := "eval " + shellQuoteTest(command) + " < /dev/null && pwd -P >| /tmp/claude-cwd"
	return j.run(dir, "", jailRoot+"/bin/massgen-hook-shell", wrapped)
}

// staticDenies feeds command to pre-tool-use, as Claude Code would before
// running it, and reports whether the static guards deny it.
func (j *jail) staticDenies(command string) bool {
	ev := `{"hook_event_name":"PreToolUse","session_id":"jail","cwd":"` + jailProject + `","tool_name":"Bash","tool_input":{"command":` + jsonString(command) + `}}`
	code, out := j.run(jailProject, ev, jailRoot+"/bin/massgen-hook", "pre-tool-use")
	return code == 2 || strings.Contains(out, `"permissionDecision":"deny"`)
}

func shellQuoteTest(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hashTree is a fingerprint of every file of a jail's trees an attack may
// change (jailTrees) below its scratch folder dir, by path relative to dir.
// Every check compares files of those trees only; the folder's bin/ holds
// the built hook twice (32 MiB), and hashing it before and after every step
// was most of the CPU these tests spent outside their jails. The
// fingerprints are compared within this process only, so they are
// maphash's (seeded per process; a 12 MiB file in 1.7 ms, where SHA-256
// took 9.8 ms): an attack script cannot aim at a seed it never sees.
func hashTree(t *testing.T, dir string) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, tree := range jailTrees {
		_ = filepath.WalkDir(filepath.Join(dir, tree), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = maphash.Bytes(treeSeed, data)
			return nil
		})
	}
	return out
}

// treeSeed seeds hashTree's fingerprints.
var treeSeed = maphash.MakeSeed()
