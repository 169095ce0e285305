package jsonw

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

var stringSeeds = []string{
	"", "plain", `quote " and \ backslash`, "<script>&amp;</script>", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "é ü 日本 🎉", "\u2028 and \u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate",
	"ends in half \xe6\x97",
}

func TestStringIsMarshals(t *testing.T) {
	for _, s := range stringSeeds {
		checkString(t, s)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(checkString)
}

func checkString(t *testing.T, s string) {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := String([]byte("x"), s); string(got) != "x"+string(want) {
		t.Errorf("String(%q) = %s, want %s", s, got[1:], want)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	if got := StringNoHTML([]byte("x"), s); string(got)+"\n" != "x"+buf.String() {
		t.Errorf("StringNoHTML(%q) = %s, want %s", s, got[1:], buf.String())
	}
}

var floatSeeds = []float64{0, 1, -1, 0.5, 1.25, 3.14159, 1e-6, 9.99e-7, 1e-7, 1.5e-10, 1e20, 1e21, 1.5e22, -2e-9, 123456789.123, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Copysign(0, -1)}

func TestFloatIsMarshals(t *testing.T) {
	for _, f := range floatSeeds {
		checkFloat(t, f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got, ok := Float([]byte("x"), f); ok || string(got) != "x" {
			t.Errorf("Float(%v) = %q, %v; want nothing, false", f, got, ok)
		}
	}
}

func FuzzFloat(f *testing.F) {
	for _, v := range floatSeeds {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		checkFloat(t, v)
	})
}

func checkFloat(t *testing.T, f float64) {
	want, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := Float([]byte("x"), f); !ok || string(got) != "x"+string(want) {
		t.Errorf("Float(%v) = %s, %v; want %s", f, got[1:], ok, want)
	}
}

func TestIntBool(t *testing.T) {
	for _, n := range []int64{0, 7, -42, math.MaxInt64, math.MinInt64} {
		want, _ := json.Marshal(n)
		if got := Int(nil, n); string(got) != string(want) {
			t.Errorf("Int(%d) = %s, want %s", n, got, want)
		}
	}
	if string(Bool(nil, true)) != "true" || string(Bool(nil, false)) != "false" {
		t.Error("Bool")
	}
}
