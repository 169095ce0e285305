package lifecycle

import (
	"strings"
	"testing"
)

// The stop counter reads its last line: a line per block appended, an
// earlier release's single record without its newline, or a last line cut
// short (not ok: the count restarts); a counter past maxStopLines starts
// a new file.
func TestStopCounterLines(t *testing.T) {
	for _, c := range []struct {
		name, old string
		blocks    int
		reason    string
		kept      string
		ok        bool
	}{
		{"absent", "", 0, "", "", true},
		{"one line", `{"blocks":1,"last_reason":"a"}` + "\n", 1, "a", `{"blocks":1,"last_reason":"a"}` + "\n", true},
		{"lines", `{"blocks":1,"last_reason":"a"}` + "\n" + `{"blocks":2,"last_reason":"b \"q\""}` + "\n", 2, `b "q"`,
			`{"blocks":1,"last_reason":"a"}` + "\n" + `{"blocks":2,"last_reason":"b \"q\""}` + "\n", true},
		{"earlier release's record", `{"blocks":2,"last_reason":"a"}`, 2, "a", `{"blocks":2,"last_reason":"a"}` + "\n", true},
		{"cut short", `{"blocks":1,"last_reason":"a"}` + "\n" + `{"blocks":2,"last_re`, 0, "", "", false},
		{"damaged", `{"blocks": tr` + "\n", 0, "", "", false},
		{"not a count", `{"blocks":"2"}` + "\n", 0, "", "", false},
		{"not an object", "[1]\n", 0, "", "", false},
		{"full", strings.Repeat(`{"blocks":1}`+"\n", maxStopLines), 1, "", "", true},
	} {
		rec, kept, ok := lastStop([]byte(c.old))
		if rec.Blocks != c.blocks || rec.Reason != c.reason || string(kept) != c.kept || ok != c.ok {
			t.Errorf("%s: %+v, kept %q, ok %v; want %d %q, kept %q, ok %v", c.name, rec, kept, ok, c.blocks, c.reason, c.kept, c.ok)
		}
	}
	rec := stopRecord{Blocks: 3, Reason: "write <it>\n"}
	if got, want := string(rec.appendLine([]byte("x\n"))), "x\n"+`{"blocks":3,"last_reason":"write \u003cit\u003e\n"}`+"\n"; got != want {
		t.Errorf("appendLine: %q, want %q", got, want)
	}
	if back, _, ok := lastStop(rec.appendLine(nil)); !ok || back != rec {
		t.Errorf("a line read back: %+v %v", back, ok)
	}
}
