package confine

import (
	"os"
	"os/exec"
	"path/filepath"

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

// LookupOutside is Lookup for a machine whose commands p confines: bwrap
// is looked for on PATH only in folders p does not let a command write.
// The prefix, the hooks and init run the bwrap they find unconfined (to
// probe it, then to build every sandbox), so a bwrap planted by a
// confined command in a writable folder on PATH (a build tool's bin
// folder, a folder of the project) must never be the one found.
// $MASSGEN_HOOK_BWRAP is the user's, as in Lookup.
func LookupOutside(getenv func(string) string, p *Policy) string {
	switch v := getenv(BwrapEnv); {
	case v == "none":
		return ""
	case v != "":
		return v
	}
	for _, dir := range filepath.SplitList(p.Path) {
		if !filepath.IsAbs(dir) || p.MayWrite(dir) {
			continue
		}
		path := filepath.Join(dir, "bwrap")
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return path
		}
	}
	return ""
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

// foundRecord remembers, in the runtime folder, the protected paths the
// plans of this project masked: the next plan masks them again wherever
// they still are (Policy.Found).
const foundRecord = "confine-found.json"

// maxFound bounds that record: beyond it, the oldest are let go.
const maxFound = 10000

// FoundBefore are the protected paths earlier plans of d's project masked.
func FoundBefore(d *state.Dir) []string {
	var found []string
	if ok, err := d.ReadJSON(foundRecord, &found); !ok || err != nil {
		return nil
	}
	return found
}

// RememberFound adds what pl masks to the record, when it holds something
// new. A record that cannot be written is let go: the search still runs
// every time.
func RememberFound(d *state.Dir, before []string, pl Plan) {
	seen := make(map[string]bool, len(before))
	for _, p := range before {
		seen[p] = true
	}
	found := before
	for _, p := range pl.Found {
		if !seen[p] {
			seen[p] = true
			found = append(found, p)
		}
	}
	if len(found) == len(before) {
		return
	}
	if len(found) > maxFound {
		found = found[len(found)-maxFound:]
	}
	var stored []string
	_ = d.UpdateJSON(foundRecord, &stored, func() (bool, error) {
		stored = found
		return true, nil
	})
}
