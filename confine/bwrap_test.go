package confine

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// bwrapOrSkip is bubblewrap's path. Without it the test is skipped, and
// says why, unless MASSGEN_HOOK_TEST_BWRAP=required (CI), where a
// missing or broken bubblewrap fails.
func bwrapOrSkip(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("bwrap")
	if err == nil {
		if a := Probe(path); !a.OK {
			err = errors.New(a.Reason)
		}
	}
	if err != nil {
		if os.Getenv("MASSGEN_HOOK_TEST_BWRAP") == "required" {
			t.Fatalf("bubblewrap is required here: %v", err)
		}
		t.Skipf("bubblewrap cannot run here (%v): apt install bubblewrap", err)
	}
	return path
}

// confined runs command under the plan of f's policy, in dir, with
// HOME set to the fixture's home, and returns its exit code and output.
func (f fixture) confined(t *testing.T, p *Policy, dir, command string) (int, string) {
	t.Helper()
	bwrap := bwrapOrSkip(t)
	mask, err := MaskFile(filepath.Join(f.project, ".claude", "massgen-hook"))
	if err != nil {
		t.Fatal(err)
	}
	filter, err := SeccompFile()
	if err != nil {
		t.Fatal(err)
	}
	fd := -1
	if filter != nil {
		defer filter.Close()
		fd = 3
	}
	argv := Argv(bwrap, p.Plan(), mask, fd, "/bin/bash", command)
	cmd := exec.Command(argv[0], argv[1:]...)
	if filter != nil {
		cmd.ExtraFiles = []*os.File{filter}
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+f.home)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	case err != nil:
		t.Fatalf("%s: %v", command, err)
	}
	return 0, out.String()
}

func TestConfinedSecretsCannotBeRead(t *testing.T) {
	f := newFixture(t)
	p := f.policy(t, "")
	for _, cmd := range []string{
		"cat .env",
		"cat src/deep/server.key",
		"cat ~/.git-credentials",
		"cd ~ && cat .ssh/id_ed25519",
		"python3 -c 'print(open(\".env\").read())' 2>&1 || true",
		"cp .env copy && cat copy",
		"ln .env hard 2>&1; cat hard",
		"cat $HOME/.aws/credentials ${HOME%/}/.config/gh/hosts.yml",
	} {
		_, out := f.confined(t, p, f.project, cmd)
		for _, secret := range []string{"PROJECT_SECRET", "HOME_SECRET", "SSH_SECRET", "AWS_SECRET", "GH_SECRET", "KEY\n"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s: the secret %q is in the output:\n%s", cmd, secret, out)
			}
		}
	}
	if code, out := f.confined(t, p, f.project, "cat .env.example"); code != 0 || out != "TEMPLATE=1\n" {
		t.Errorf("an exception is readable: exit %d, %q", code, out)
	}
}

func TestConfinedWiringIsReadOnly(t *testing.T) {
	f := newFixture(t)
	p := f.policy(t, "")
	for _, cmd := range []string{
		"echo '{\"disableAllHooks\":true}' > .claude/settings.json",
		"echo '{}' > .claude/settings.local.json",
		"rm -rf .claude",
		"mv .claude gone",
		"f() { rm -rf .claude; }; f",
	} {
		code, out := f.confined(t, p, f.project, cmd)
		if code == 0 {
			t.Errorf("%s: exit 0 (%s)", cmd, out)
		}
		if !strings.Contains(out, "Read-only file system") && !strings.Contains(out, "Device or resource busy") {
			t.Errorf("%s: %q does not say why", cmd, out)
		}
	}
	if data, err := os.ReadFile(filepath.Join(f.project, ".claude", "settings.json")); err != nil || string(data) != "{}\n" {
		t.Errorf("settings.json changed: %q %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(f.project, ".claude", "settings.local.json")); err == nil {
		t.Error("settings.local.json was created")
	}
}

func TestConfinedHomeSurvivesAndProjectIsWritable(t *testing.T) {
	f := newFixture(t)
	p := f.policy(t, "")
	if code, _ := f.confined(t, p, f.project, "rm -rf ~/notes.txt"); code == 0 {
		t.Error("rm of a file in HOME: exit 0")
	}
	if code, _ := f.confined(t, p, f.project, "rm -rf ~/* ~/.[!.]* 2>/dev/null; exit 3"); code != 3 {
		t.Errorf("the exit code is not the command's: %d", code)
	}
	if _, err := os.Stat(filepath.Join(f.home, "notes.txt")); err != nil {
		t.Errorf("a HOME file is gone: %v", err)
	}
	code, out := f.confined(t, p, filepath.Join(f.project, "src"), "pwd && echo made > new.txt && mkdir -p ../build/x && echo ok > ../build/x/y && echo cache > ~/.cache/go-build/z")
	if code != 0 || !strings.HasPrefix(out, filepath.Join(f.project, "src")+"\n") {
		t.Fatalf("everyday writes: exit %d\n%s", code, out)
	}
	for _, p := range []string{"proj/src/new.txt", "proj/build/x/y", "home/.cache/go-build/z"} {
		if _, err := os.Stat(filepath.Join(f.root, p)); err != nil {
			t.Errorf("%s was not written: %v", p, err)
		}
	}
}

// tiocstiScript tries to push a character into a terminal's input, from a
// process whose controlling terminal it is; exit 0 when it could.
const tiocstiScript = `python3 -c '
import os, pty, fcntl, termios
m, s = pty.openpty()
name = os.ttyname(s)
pid = os.fork()
if pid == 0:
    os.setsid()
    fd = os.open(name, os.O_RDWR)
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"x")
        os._exit(0)
    except OSError as e:
        os._exit(3)
_, st = os.waitpid(pid, 0)
raise SystemExit(os.waitstatus_to_exitcode(st))
'`

func TestConfinedCannotTypeIntoATerminal(t *testing.T) {
	f := newFixture(t)
	if out, err := exec.Command("bash", "-c", tiocstiScript).CombinedOutput(); err != nil || len(out) != 0 {
		t.Skipf("this kernel refuses TIOCSTI to everyone (%v %s): nothing to hold", err, out)
	}
	if code, out := f.confined(t, f.policy(t, ""), f.project, tiocstiScript); code != 3 {
		t.Errorf("TIOCSTI inside the sandbox: exit %d (want 3, refused)\n%s", code, out)
	}
}

// A command cannot reach the sockets through which a program outside the
// sandbox would run a command line for it (a tmux server, the session's
// D-Bus): each is masked, a folder of them and a lone one alike. Another
// socket, a server the project started, stays reachable.
func TestConfinedCannotReachControlSockets(t *testing.T) {
	f := newFixture(t)
	run := filepath.Join(f.root, "run")
	tmux := filepath.Join(f.root, "tmuxdir", "tmux-"+strconv.Itoa(os.Getuid()))
	for _, d := range []string{run, tmux} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	listen := func(path string) {
		l, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
	}
	server := filepath.Join(f.project, "server.sock")
	for _, s := range []string{filepath.Join(tmux, "default"), filepath.Join(run, "bus"), server} {
		listen(s)
	}
	p := f.policy(t, "", "TMUX_TMPDIR="+filepath.Dir(tmux), "XDG_RUNTIME_DIR="+run)
	connect := `python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print("CONNECTED")' `
	for _, sock := range []string{filepath.Join(tmux, "default"), filepath.Join(run, "bus")} {
		if _, out := f.confined(t, p, f.project, connect+sock+" 2>&1"); strings.Contains(out, "CONNECTED") {
			t.Errorf("a confined command reached %s: %s", sock, out)
		}
	}
	if code, out := f.confined(t, p, f.project, connect+server); code != 0 || !strings.Contains(out, "CONNECTED") {
		t.Errorf("the project's own server is not reachable: exit %d, %s", code, out)
	}
}
