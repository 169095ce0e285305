package confine

import (
	"os/exec"

	"github.com/massgen/massgen-hook/state"
)

// availabilityRecord is where the probe's answer is remembered, in the
// runtime folder (which the sandbox keeps read-only).
const availabilityRecord = "confine.json"

// BwrapEnv names the bubblewrap binary to use, for a machine where it is
// not on PATH; "none" confines nothing, as if bubblewrap were missing.
const BwrapEnv = "MASSGEN_HOOK_BWRAP"

// Lookup is the sandbox tool: $MASSGEN_HOOK_BWRAP when set, else bwrap on
// PATH; "" when there is none. macOS's sandbox-exec is used only when
// that variable names it: its profile has not run on a real Mac yet, and
// a profile that refused what macOS tools need would break every command.
func Lookup(getenv func(string) string) string {
	switch v := getenv(BwrapEnv); {
	case v == "none":
		return ""
	case v != "":
		return v
	}
	bwrap, _ := exec.LookPath("bwrap")
	return bwrap
}

// Remembered is this machine's availability: the answer remembered in d
// when it was probed on this machine with this bwrap binary, else a new
// probe, remembered. A record that cannot be written costs a probe next
// time, nothing more.
func Remembered(d *state.Dir, bwrap string) Availability {
	key := Key(bwrap)
	var a Availability
	if ok, err := d.ReadJSON(availabilityRecord, &a); ok && err == nil && a.Key == key {
		return a
	}
	a = Probe(bwrap)
	var stored Availability
	_ = d.UpdateJSON(availabilityRecord, &stored, func() (bool, error) {
		stored = a
		return true, nil
	})
	return a
}
