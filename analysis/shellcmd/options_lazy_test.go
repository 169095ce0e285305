package shellcmd

import "testing"

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
