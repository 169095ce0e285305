package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/fixtures"
)

func TestLastWins(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"the last of two", `{"file_path":"ok.txt","file_path":".env"}`, `{"file_path":".env"}`},
		{"in the place of the first", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"keys compared unescaped", `{"file_path":"ok.txt","file\u005fpath":".env"}`, `{"file_path":".env"}`},
		{"nested in an array", `{"edits":[{"old":"a","old":"b"},{"x":1}]}`, `{"edits":[{"old":"b"},{"x":1}]}`},
		{"a container replaced by a scalar", `{"a":{"b":[1,2]},"a":null}`, `{"a":null}`},
		{"a scalar replaced by a container", ` { "a" : 1 , "a" : { "b" : [ ] } } `, `{"a":{"b":[]}}`},
		{"repeats inside a replaced value do not matter", `{"a":{"x":1,"x":2},"a":{"y":3}}`, `{"a":{"y":3}}`},
		{"three times", `{"k":1,"k":2,"k":3}`, `{"k":3}`},
		{"strings and escapes kept as written", `{"c":"a\"b\\\n\u00e9","c":"x\/y"}`, `{"c":"x\/y"}`},
		{"numbers kept as written", `{"n":1.50,"n":12345678901234567890123}`, `{"n":12345678901234567890123}`},
		{"a top-level array", `[{"a":1,"a":2}]`, `[{"a":2}]`},
		{"many keys", manyKeys(100, true), `{` + manyKeysBody(100) + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(LastWins([]byte(tt.in))); got != tt.want {
				t.Errorf("LastWins(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func manyKeysBody(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = `"k` + strings.Repeat("x", i) + `":0`
	}
	return strings.Join(keys, ",")
}

// manyKeys is an object of n keys, then one of them again.
func manyKeys(n int, repeat bool) string {
	s := `{` + manyKeysBody(n)
	if repeat {
		s += `,"kxx":0`
	}
	return s + `}`
}

// Without a repeated key the input comes back as it is, not a copy.
func TestLastWinsKeepsOtherInput(t *testing.T) {
	for _, in := range []string{`{"a":1,"b":{"a":2}}`, `[{"a":1},{"a":2}]`, `"a"`, `{}`, manyKeys(100, false), `{"a":1,"a":2`} {
		b := []byte(in)
		if got := LastWins(b); &got[0] != &b[0] || string(got) != in {
			t.Errorf("LastWins(%s) = %s, a copy", in, got)
		}
	}
}

// FuzzLastWins: the result is what encoding/json (last wins, like
// JSON.parse) reads from the input, and it repeats no key.
func FuzzLastWins(f *testing.F) {
	for _, seed := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":2},"c":[{"d":1,"d":{}}]}`, `{"\u0061":1,"a":2}`, `[]`, `1`} {
		f.Add(seed)
	}
	for _, ev := range fixtures.Files(f, ".json") {
		f.Add(string(ev))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !Valid(s) || !json.Valid([]byte(s)) {
			return
		}
		got := LastWins([]byte(s))
		var want, have any
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			return
		}
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatalf("LastWins(%q) = %q, not JSON: %v", s, got, err)
		}
		if !reflect.DeepEqual(want, have) {
			t.Fatalf("LastWins(%q) = %q, reads as %v; encoding/json reads the input as %v", s, got, have, want)
		}
		if repeatsKey(string(got)) {
			t.Fatalf("LastWins(%q) = %q still repeats a key", s, got)
		}
	})
}
