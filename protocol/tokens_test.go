package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/fixtures"
)

func nested(depth int, inner string) string {
	return strings.Repeat(`{"a":[`, depth/2) + strings.Repeat("[", depth%2) + inner +
		strings.Repeat("]", depth%2) + strings.Repeat(`]}`, depth/2)
}

func TestTooDeep(t *testing.T) {
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"flat", `{"a":1}`, false},
		{"at the limit", nested(MaxDepth, "1"), false},
		{"one past the limit", nested(MaxDepth+1, "1"), true},
		{"100k deep", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), true},
		{"brackets in strings do not count", `["` + strings.Repeat("[", MaxDepth+1) + `"]`, false},
		{"an escaped quote does not end a string", `["\"` + strings.Repeat("[", MaxDepth+1) + `"]`, false},
		{"an escaped backslash does", `["\\",` + strings.Repeat("[", MaxDepth+1), true},
		{"an unclosed string", `["` + strings.Repeat("[", MaxDepth+1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TooDeep(tt.text); got != tt.want {
				t.Errorf("TooDeep = %v, want %v", got, tt.want)
			}
		})
	}
	if Valid(nested(MaxDepth+1, "1")) || !Valid(nested(MaxDepth, "1")) {
		t.Error("Valid does not draw the line at MaxDepth")
	}
}

// tokensOf lists the kinds and raw text of every token of s.
func tokensOf(t *testing.T, s string) []Token {
	t.Helper()
	var out []Token
	tk := NewTokens(s)
	for {
		tok, err := tk.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("Next on %q: %v", s, err)
		}
		out = append(out, tok)
	}
}

func TestTokens(t *testing.T) {
	got := tokensOf(t, ` {"k\"ey" : [1, -2.5e3, "s", true, null, {}], "b":{"c":"d"}} `)
	want := []Token{
		{BeginObject, "{"}, {Key, `"k\"ey"`}, {BeginArray, "["}, {Literal, "1"}, {Literal, "-2.5e3"},
		{String, `"s"`}, {Literal, "true"}, {Literal, "null"}, {BeginObject, "{"}, {EndObject, "}"},
		{EndArray, "]"}, {Key, `"b"`}, {BeginObject, "{"}, {Key, `"c"`}, {String, `"d"`}, {EndObject, "}"},
		{EndObject, "}"},
	}
	if len(got) != len(want) {
		t.Fatalf("tokens %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("token %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if s := (Token{Kind: Key, Raw: `"k\"ey\u00e9"`}).Str(); s != `k"eyé` {
		t.Errorf("Str = %q", s)
	}
}

// A walk on Tokens costs a byte a level: 100k levels of nesting stop at
// MaxDepth with ErrTooDeep, after reading MaxDepth tokens.
func TestTokensTooDeep(t *testing.T) {
	tk := NewTokens(strings.Repeat("[", 100000) + strings.Repeat("]", 100000))
	n := 0
	for {
		_, err := tk.Next()
		if errors.Is(err, ErrTooDeep) {
			break
		}
		if err != nil {
			t.Fatalf("after %d tokens: %v, want ErrTooDeep", n, err)
		}
		n++
	}
	if n != MaxDepth {
		t.Errorf("ErrTooDeep after %d tokens, want %d", n, MaxDepth)
	}
}

func TestTokensSkip(t *testing.T) {
	tk := NewTokens(`[{"a":[1,[2]],"b":3},"after"]`)
	tk.Next() // [
	first, _ := tk.Next()
	if err := tk.Skip(first); err != nil {
		t.Fatal(err)
	}
	if tok, _ := tk.Next(); tok != (Token{String, `"after"`}) {
		t.Errorf("after Skip: %+v", tok)
	}
}

// rebuild writes tokens back as compact JSON.
func rebuild(t *testing.T, s string) string {
	var b strings.Builder
	prev := TokenKind(0)
	for _, tok := range tokensOf(t, s) {
		switch {
		case prev == Key:
			b.WriteByte(':')
		case prev != 0 && prev != BeginObject && prev != BeginArray && tok.Kind != EndObject && tok.Kind != EndArray:
			b.WriteByte(',')
		}
		b.WriteString(tok.Raw)
		prev = tok.Kind
	}
	return b.String()
}

// FuzzTokens: on any valid JSON, the tokens are the text's own: written
// back with separators they are the text, compacted.
func FuzzTokens(f *testing.F) {
	for _, seed := range []string{`{}`, `[]`, `"s"`, `1`, `{"a":[1,{"b":null}],"c":"\"]"}`, `[[],[{}],""]`, ` [ 1 , 2 ] `} {
		f.Add(seed)
	}
	for _, ev := range fixtures.Files(f, ".json") {
		f.Add(string(ev))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !Valid(s) || !json.Valid([]byte(s)) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got := rebuild(t, s); got != want.String() {
			t.Fatalf("tokens of %q rebuild %q, want %q", s, got, want.String())
		}
	})
}

// BenchmarkTooDeep is what ParseEvent adds to a 50 MiB event to refuse deep
// nesting before gjson validates it: the two counts for text with few
// brackets, the full scan for text full of them.
func BenchmarkTooDeep(b *testing.B) {
	for _, bench := range []struct{ name, line string }{
		{"text", `line of output with \"quotes\" and (parentheses)\n`},
		{"brackets", `line of output with \"quotes\" and [brackets] {braces}\n`},
	} {
		b.Run(bench.name, func(b *testing.B) {
			var buf bytes.Buffer
			buf.WriteString(`{"tool_response":{"stdout":"`)
			for buf.Len() < 50<<20 {
				buf.WriteString(bench.line)
			}
			buf.WriteString(`"}}`)
			s := buf.String()
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if TooDeep(s) {
					b.Fatal("too deep")
				}
			}
		})
	}
}
