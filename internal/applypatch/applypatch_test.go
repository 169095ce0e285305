package applypatch

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, patch string
		want        []Op
	}{
		{"update", "*** Begin Patch\n*** Update File: deploy/server.key\n@@\n-SECRET=1\n+PWNED\n*** End Patch\n",
			[]Op{{Kind: Update, Path: "deploy/server.key"}}},
		{"every kind, in order",
			"*** Begin Patch\n*** Add File: docs/a.md\n+one\n+two\n*** Delete File: old.txt\n" +
				"*** Update File: src/x.go\n*** Move to: src/y.go\n@@ func f()\n-a\n+b\n*** End Patch",
			[]Op{{Kind: Add, Path: "docs/a.md"}, {Kind: Delete, Path: "old.txt"}, {Kind: Update, Path: "src/x.go", MoveTo: "src/y.go"}}},
		{"an add with no lines", "*** Begin Patch\n*** Add File: empty\n*** End Patch", []Op{{Kind: Add, Path: "empty"}}},
		{"no operations", "*** Begin Patch\n*** End Patch", nil},
		{"padded markers and CRLF", "  \r\n *** Begin Patch \r\n\t*** Delete File: a b.txt  \r\n *** End Patch\r\n\n",
			[]Op{{Kind: Delete, Path: "a b.txt"}}},
		{"a heredoc around it", "<<'EOF'\n*** Begin Patch\n*** Delete File: .env\n*** End Patch\nEOF\n",
			[]Op{{Kind: Delete, Path: ".env"}}},
		{"the first change without @@", "*** Begin Patch\n*** Update File: f\n import x\n+y\n*** End Patch",
			[]Op{{Kind: Update, Path: "f"}}},
		{"blank lines between changes, End of File",
			"*** Begin Patch\n*** Update File: f\n@@\n-a\n*** End of File\n\n  \n@@ g\n+b\n*** Add File: h\n+c\n*** End Patch",
			[]Op{{Kind: Update, Path: "f"}, {Kind: Add, Path: "h"}}},
		// An empty line inside a change is a context line, so a header after
		// it still starts the next operation, as in Codex.
		{"an empty line in a change", "*** Begin Patch\n*** Update File: f\n@@\n-a\n\n*** Delete File: g\n*** End Patch",
			[]Op{{Kind: Update, Path: "f"}, {Kind: Delete, Path: "g"}}},
		// The path is everything after the marker's one space.
		{"extra spaces belong to the path", "*** Begin Patch\n*** Add File:  x\n+1\n*** End Patch", []Op{{Kind: Add, Path: " x"}}},
		{"an absolute path", "*** Begin Patch\n*** Add File: /etc/cron.d/x\n+1\n*** End Patch", []Op{{Kind: Add, Path: "/etc/cron.d/x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.patch)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parse = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ name, patch, msg string }{
		{"empty", "", "the last line of the patch must be '*** End Patch'"},
		{"no begin", "*** Update File: f\n*** End Patch", "the first line"},
		{"no end", "*** Begin Patch\n*** Delete File: f", "the last line"},
		{"a header with nothing after it", "*** Begin Patch\n*** Add File:\n*** End Patch", "not a valid hunk header"},
		{"a bad header", "*** Begin Patch\n*** Rename File: a\n*** End Patch", `"*** Rename File: a" is not a valid hunk header`},
		{"an update that changes nothing", "*** Begin Patch\n*** Update File: f\n*** End Patch", "changes nothing"},
		{"a second change without @@", "*** Begin Patch\n*** Update File: f\n@@\n+a\n*** End of File\nx\n*** End Patch", "expected a change to start with '@@'"},
		{"a change of no lines", "*** Begin Patch\n*** Update File: f\n@@\n*** End of File\n*** End Patch", "holds no lines"},
		{"a stray line", "*** Begin Patch\n*** Update File: f\n@@\n?what\n*** End Patch", "unexpected line"},
		{"a heredoc of too few lines", "<<EOF\n*** Begin Patch\nEOF", "the first line"},
		{"a Move to out of place", "*** Begin Patch\n*** Add File: a\n+1\n*** Move to: b\n*** End Patch", "not a valid hunk header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops, err := Parse(tc.patch)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse = %+v, %v; want an *Error", ops, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

// FuzzParse holds Parse to what a guard relies on: it never panics, an
// accepted patch has a Begin and an End line, every operation names a
// path, and only an Update moves.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** Update File: c\n*** Move to: d\n@@ ctx\n-1\n+2\n*** End of File\n*** End Patch\n",
		"<<\"EOF\"\n*** Begin Patch\n*** Update File: f\n x\n*** End Patch\nEOF",
		"*** Begin Patch\r\n*** Update File: f\r\n@@\r\n\r\n-a\r\n*** End Patch",
		"*** Begin Patch\n*** Update File: \xff\n@@\n+\u2028\n*** End Patch",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, patch string) {
		ops, err := Parse(patch)
		if err != nil {
			if ops != nil {
				t.Fatalf("ops %v with error %v", ops, err)
			}
			return
		}
		if !strings.Contains(patch, beginPatch) || !strings.Contains(patch, endPatch) {
			t.Fatalf("accepted a patch without its markers: %q", patch)
		}
		for _, op := range ops {
			if op.Path == "" {
				t.Fatalf("operation without a path in %q: %+v", patch, ops)
			}
			if op.MoveTo != "" && op.Kind != Update {
				t.Fatalf("a %s that moves in %q", op.Kind, patch)
			}
			if !strings.Contains(patch, op.Path) || !strings.Contains(patch, op.MoveTo) {
				t.Fatalf("a path the patch does not hold: %+v", op)
			}
		}
	})
}
