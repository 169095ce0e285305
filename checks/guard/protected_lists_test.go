package guard

import (
	"slices"
	"testing"
)

// TestProtectedLists: the lists a protected_paths check is made with, from
// no options and from options that replace or extend them; a list built
// on the shared defaults leaves no room after it, so that an append (the
// config file $MASSGEN_HOOK_CONFIG names, added per call) copies it
// instead of writing where another check's append writes too. A call
// judges writes by the write list and then the running binary.
func TestProtectedLists(t *testing.T) {
	var binary []string
	if exe := ownBinary(); exe != "" {
		binary = []string{exe}
	}
	secret := DefaultSecretPaths()
	for _, tc := range []struct {
		options                             string
		read, write, except, outsideAllowed []string
	}{
		{"", secret, slices.Concat(secret, defaultWriteOnly, defaultWiring), DefaultExcept, defaultOutsideAllowed},
		{"{read: [a], write: [b], except: [c], outside_allowed: [/d]}",
			[]string{"a"}, slices.Concat([]string{"b"}, defaultWiring), []string{"c"}, []string{"/d"}},
		{"{add: {read: [a], write: [b], except: [c], outside_allowed: [/d]}}",
			slices.Concat(secret, []string{"a"}), slices.Concat(secret, defaultWriteOnly, []string{"b"}, defaultWiring),
			slices.Concat(DefaultExcept, []string{"c"}), slices.Concat(defaultOutsideAllowed, []string{"/d"})},
	} {
		p := newProtected(t, tc.options).(*protectedPaths)
		q := newProtected(t, tc.options).(*protectedPaths)
		for _, l := range []struct {
			name          string
			got, of, want []string
		}{{"read", p.read, q.read, tc.read}, {"write", p.write, q.write, tc.write}, {"except", p.except, q.except, tc.except}, {"outside_allowed", p.outsideAllowed, q.outsideAllowed, tc.outsideAllowed}} {
			if !slices.Equal(l.got, l.want) {
				t.Errorf("%q: %s = %q, want %q", tc.options, l.name, l.got, l.want)
			}
			mine, theirs := append(l.got, "mine"), append(l.of, "theirs")
			if mine[len(mine)-1] != "mine" || theirs[len(theirs)-1] != "theirs" {
				t.Errorf("%q: two checks' %s lists share room after them: an append to one wrote into the other", tc.options, l.name)
			}
		}
		g := &guard{protectedPaths: p}
		if got, want := g.writes(), slices.Concat(tc.write, binary); !slices.Equal(got, want) {
			t.Errorf("%q: a call's write list = %q, want %q", tc.options, got, want)
		}
		if mine, theirs := append(g.writes(), "mine"), append(p.write, "theirs"); mine[len(mine)-1] != "mine" || theirs[len(theirs)-1] != "theirs" {
			t.Errorf("%q: a call's write list shares room with the check's", tc.options)
		}
	}
	if !slices.Equal(DefaultSecretPaths(), secret) {
		t.Errorf("the default secret paths changed")
	}
}
