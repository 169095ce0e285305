package main

import "testing"

// TestPeerDisagreementsDocumented is `make peer -mode peers` as a test, on
// a freshly built binary in a freshly built setting: every disagreement
// with a peer's verdict must be in docs/peer-agreement.md with its reason,
// no entry there may be stale, no hook run may fail, and the allow target
// must be met. The block target (98 %) is reported, not asserted: the
// cases massgen-hook lets through are each listed on that page as deleting
// only scratch or project files, or nothing at all.
func TestPeerDisagreementsDocumented(t *testing.T) {
	res, report := measureMode(t, "peers")
	a := res.peers
	if a == nil || res.cases == 0 {
		t.Fatalf("no case run:\n%s", report)
	}
	if u := a.undocumented(); len(u) > 0 || len(a.stale) > 0 || len(a.failures) > 0 {
		t.Errorf("%d undocumented disagreements, %d stale entries, %d failed runs:\n%s", len(u), len(a.stale), len(a.failures), report)
	}
	if share(a.overall.allowAllowed, a.overall.allow) < allowTarget {
		t.Errorf("allow → allowed below target:\n%s", report)
	}
	t.Logf("block → denied %d/%d (%s), allow → allowed %d/%d (%s)",
		a.overall.blockDenied, a.overall.block, percent(a.overall.blockDenied, a.overall.block),
		a.overall.allowAllowed, a.overall.allow, percent(a.overall.allowAllowed, a.overall.allow))
}

// TestOpenmoatDisagreementsDocumented is `make peer -mode openmoat` as a
// test: every in-scope deny fixture of openmoat's that massgen-hook lets
// through must be listed in docs/peer-agreement.md with its reason, no
// row there may be stale, and no hook run may fail. The 98 % target is
// reported, not asserted, for the same reason as the peers' block target.
func TestOpenmoatDisagreementsDocumented(t *testing.T) {
	res, report := measureMode(t, "openmoat")
	r := res.openmoat
	if r == nil || r.deny == 0 {
		t.Fatalf("no fixture run:\n%s", report)
	}
	undocumented := 0
	for _, m := range r.misses {
		if !m.documented {
			undocumented++
		}
	}
	if undocumented > 0 || len(r.stale) > 0 || len(r.failures) > 0 {
		t.Errorf("%d undocumented, %d stale rows, %d failed runs:\n%s", undocumented, len(r.stale), len(r.failures), report)
	}
	t.Logf("in-scope deny → denied %d/%d (%s); ask: %d denied, %d allowed",
		r.denyDenied, r.deny, percent(r.denyDenied, r.deny), r.askDenied, r.askLets)
}
