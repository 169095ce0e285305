package guard

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
)

// The rules for the machine itself: modes opened to everyone, fork
// bombs, and writes to disk devices.

func chmodRecursive777(_ context.Context, _ *dangerCall, c *shellcmd.Command) (string, string) {
	mode, recursive, ok := c.ChmodMode()
	if !ok || !recursive {
		return "", ""
	}
	switch mode.Value {
	case "777", "0777", "a+rwx", "ugo+rwx", "a=rwx", "ugo=rwx", "+rwx":
		return fmt.Sprintf("%s makes every file under it writable and executable by everyone", quoteCmd(c)),
			"Give only the permission needed to the file that needs it (e.g. chmod u+x script.sh)."
	}
	return "", ""
}

func forkBomb(_ context.Context, _ *dangerCall, c *shellcmd.Command) (string, string) {
	if c.Func == "" || c.Name.Value != c.Func || !(c.Stages > 1 || c.Background) {
		return "", ""
	}
	return fmt.Sprintf("function %q runs copies of itself without end (a fork bomb)", c.Func), "Do not run it."
}

// safeDevices may be written to freely.
var safeDevices = []string{"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/*", "/dev/shm/**", "/dev/pts/*"}

func deviceWrite(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	base := c.Base()
	if strings.HasPrefix(base, "mkfs") || base == "wipefs" {
		return fmt.Sprintf("%s erases a filesystem", quoteCmd(c)), "Never format disks from here; ask the user."
	}
	for _, w := range c.Writes() {
		if !w.Known || !strings.HasPrefix(w.Value, "/dev/") {
			continue
		}
		safe := false
		for _, s := range safeDevices {
			if ok, _ := doublestar.Match(s, path.Clean(w.Value)); ok {
				safe = true
			}
		}
		if !safe {
			return fmt.Sprintf("%s writes straight to the device %s, destroying what is on it", quoteCmd(c), w.Value), "Never write to disk devices from here; ask the user."
		}
	}
	return "", ""
}
