package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// TestLoneSurrogatesFixed: a lone surrogate's escape becomes \ufffd, a
// pair and every other escape stay as written, and what encoding/json
// reads is the same before and after, and what gjson reads after.
func TestLoneSurrogatesFixed(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":"plain"}`, `{"a":"plain"}`},
		{`{"a":"\u0041\u00e9"}`, `{"a":"\u0041\u00e9"}`},
		{`{"a":"\ud83d\ude00"}`, `{"a":"\ud83d\ude00"}`},
		{`{"a":"\uD83D\uDE00"}`, `{"a":"\uD83D\uDE00"}`},
		{`{"a":"x\ud800\u003b rm -rf ~"}`, `{"a":"x\ufffd\u003b rm -rf ~"}`},
		{`{"a":"\ud800"}`, `{"a":"\ufffd"}`},
		{`{"a":"\udc00\ud800"}`, `{"a":"\ufffd\ufffd"}`},
		{`{"a":"\ud800\ud800\udc00"}`, `{"a":"\ufffd\ud800\udc00"}`},
		{`{"a":"\ud800x"}`, `{"a":"\ufffdx"}`},
		{`{"\ud800\u0061":1,"\ud800\u0062":2}`, `{"\ufffd\u0061":1,"\ufffd\u0062":2}`},
		// An escaped backslash before "ud800" is no escape.
		{`{"a":"\\ud800\\"}`, `{"a":"\\ud800\\"}`},
		{`{"a":"\\\ud800"}`, `{"a":"\\\ufffd"}`},
		{`{"a":"\"\ud800\""}`, `{"a":"\"\ufffd\""}`},
	} {
		got, changed := loneSurrogatesFixed([]byte(tc.in))
		if string(got) != tc.want || changed != (tc.in != tc.want) {
			t.Errorf("%s: got %s, %v; want %s", tc.in, got, changed, tc.want)
			continue
		}
		var before, after any
		if json.Unmarshal([]byte(tc.in), &before) != nil || json.Unmarshal(got, &after) != nil {
			t.Fatalf("%s: not JSON", tc.in)
		}
		if !reflect.DeepEqual(before, after) {
			t.Errorf("%s: encoding/json reads %#v before and %#v after", tc.in, before, after)
		}
		if g := gjson.ParseBytes(got).Value(); !reflect.DeepEqual(g, after) {
			t.Errorf("%s: gjson reads %#v, encoding/json %#v", tc.in, g, after)
		}
	}
}

// FuzzLoneSurrogatesFixed: on any valid JSON object, encoding/json reads
// the same before and after, and gjson reads what encoding/json does
// whenever the text is valid UTF-8 and repeats no key.
func FuzzLoneSurrogatesFixed(f *testing.F) {
	for _, s := range []string{`{"a":"x\ud800\u003b rm"}`, `{"a":["\udc00\ud800\udc00","\\u","\u0000"]}`, `{"\ud800":{"b":"\uDBFF\uDFFF"}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var before any
		if json.Unmarshal([]byte(in), &before) != nil || !gjson.Valid(in) {
			return
		}
		got, _ := loneSurrogatesFixed([]byte(in))
		var after any
		if err := json.Unmarshal(got, &after); err != nil {
			t.Fatalf("%q became %q, not JSON: %v", in, got, err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("%q became %q: encoding/json reads %#v, then %#v", in, got, before, after)
		}
		// gjson keeps bad bytes and a repeated key's first value where
		// encoding/json does not; the checks read events made last-wins.
		if _, m := before.(map[string]any); !m || !utf8.Valid(got) || !bytes.Equal(LastWins(got), got) {
			return
		}
		if g := gjson.ParseBytes(got).Value(); !reflect.DeepEqual(g, after) {
			t.Fatalf("%q became %q: gjson reads %#v, encoding/json %#v", in, got, g, after)
		}
	})
}

// TestAsTheAgentReads: a tool input comes back with lone surrogates as
// \ufffd and each repeated key once, holding its last value; what is not
// JSON comes back as it is.
func TestAsTheAgentReads(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"command":"ls"}`, `{"command":"ls"}`},
		{`{"command":"x\ud800\u003b rm"}`, `{"command":"x\ufffd\u003b rm"}`},
		{`{"command":"ls","command":"x\ud800\u003b rm"}`, `{"command":"x\ufffd\u003b rm"}`},
		{`{"command":"x\ud800`, `{"command":"x\ud800`},
	} {
		if got := AsTheAgentReads([]byte(tc.in)); string(got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
	}
}
