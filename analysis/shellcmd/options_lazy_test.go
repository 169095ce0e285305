package shellcmd

import (
	"strings"
	"testing"
)

// TestOptionTableLongOnFirstUse: a line of short options alone leaves the
// long options unread; the first long option reads them all, abbreviations
// and "no-" forms included.
func TestOptionTableLongOnFirstUse(t *testing.T) {
	o := &OptionTable{Short: "nC:", Long: "count context= no-index color[=]", Abbrev: true, Negate: true, Permute: true}
	l := o.Parse(lits("-n", "-C", "3", "x"))
	if o.long != nil || len(l.Opts) != 2 || !l.Opts[1].HasVal || l.Opts[1].Val.Value != "3" {
		t.Fatalf("short options: %+v; long read: %v", l, o.long != nil)
	}
	l = o.Parse(lits("--cou", "--no-count", "--index", "--context", "2", "--color=always"))
	if o.long == nil {
		t.Fatal("a long option did not read the long options")
	}
	want := []struct {
		long    string
		unknown bool
		val     string
	}{{"count", false, ""}, {"no-count", false, ""}, {"index", false, ""}, {"context", false, "2"}, {"color", false, "always"}}
	if len(l.Opts) != len(want) {
		t.Fatalf("got %+v", l.Opts)
	}
	for i, w := range want {
		if o := l.Opts[i]; o.Long != w.long || o.Unknown != w.unknown || o.Val.Value != w.val {
			t.Errorf("option %d: got %+v, want %+v", i, o, w)
		}
	}
}

func lits(words ...string) []Word {
	out := make([]Word, len(words))
	for i, w := range words {
		out[i] = Word{Value: w, Known: true}
	}
	return out
}

// TestOptionLineRoomBounded: the room Parse makes for options grows with
// the options, not with the length of a word that starts with a dash (a
// commit message or a pattern may): a 200,000-character "-aaa…" value
// costs a few options' room, not 200,000.
func TestOptionLineRoomBounded(t *testing.T) {
	o := &OptionTable{Short: "m:e:", Permute: true}
	long := "-" + strings.Repeat("a", 200_000)
	l := o.Parse(lits("-m", long, "x"))
	if len(l.Opts) != 1 || l.Opts[0].Val.Value != long {
		t.Fatalf("got %+v", l.Opts)
	}
	if c := cap(l.Opts); c > 2*maxCluster {
		t.Errorf("room for %d options made for one option and one long value", c)
	}
	l = o.Parse(lits("-me", "x"))
	if len(l.Opts) != 1 || l.Opts[0].Short != 'm' || l.Opts[0].Val.Value != "e" {
		t.Errorf("a cluster whose first option takes the rest: %+v", l.Opts)
	}
}
