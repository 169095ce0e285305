package confine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// controlSockets are the places of the sockets through which a command
// could have a program outside the sandbox run a command line for it:
// a terminal multiplexer's server (tmux send-keys, screen -X stuff), the
// user's or the system's service manager over D-Bus (systemd-run), a
// display server (a keystroke into another terminal). Each that exists is
// masked like a secret. Only sockets with a path can be: an abstract one
// (X11's, on Linux) lives in the network namespace, which the sandbox
// leaves as it is. Docker's socket is left too, knowingly: building and
// running test containers is everyday work (SECURITY.md).
func controlSockets(env map[string]string) []string {
	uid := strconv.Itoa(os.Getuid())
	tmux := env["TMUX_TMPDIR"]
	if !filepath.IsAbs(tmux) {
		tmux = "/tmp"
	}
	out := []string{
		filepath.Join(tmux, "tmux-"+uid),
		"/run/screen", "/var/run/screen",
		"/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket",
		"/tmp/.X11-unix",
	}
	if s := env["SCREENDIR"]; filepath.IsAbs(s) {
		out = append(out, s)
	}
	for _, run := range []string{env["XDG_RUNTIME_DIR"], "/run/user/" + uid} {
		if !filepath.IsAbs(run) {
			continue
		}
		out = append(out, filepath.Join(run, "bus"), filepath.Join(run, "systemd"))
		if waylands, _ := filepath.Glob(filepath.Join(run, "wayland-*")); len(waylands) > 0 {
			out = append(out, waylands...)
		}
	}
	// The session bus where its address names a path of its own.
	for _, part := range strings.Split(env["DBUS_SESSION_BUS_ADDRESS"], ";") {
		if path, ok := strings.CutPrefix(part, "unix:path="); ok {
			path, _, _ = strings.Cut(path, ",")
			if filepath.IsAbs(path) {
				out = append(out, path)
			}
		}
	}
	return out
}

// socketMasks sorts the control sockets that exist into the files and
// folders to mask, resolved as the kernel resolves them.
func (p *Policy) socketMasks() (files, dirs []string) {
	seen := map[string]bool{}
	for _, path := range p.Sockets {
		real, err := filepath.EvalSymlinks(path)
		if err != nil || seen[real] {
			continue
		}
		info, err := os.Stat(real)
		if err != nil {
			continue
		}
		seen[real] = true
		if info.IsDir() {
			dirs = append(dirs, real)
		} else {
			files = append(files, real)
		}
	}
	return files, dirs
}
