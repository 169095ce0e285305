package codextrust

import (
	"crypto/sha256"
	"strings"
	"testing"
)

func TestSHA256(t *testing.T) {
	for _, s := range []string{"", "abc", strings.Repeat("a", 55), strings.Repeat("b", 56), strings.Repeat("c", 64),
		strings.Repeat("d", 119), strings.Repeat("é", 1000), hooksJSON} {
		if got, want := sha256Sum([]byte(s)), sha256.Sum256([]byte(s)); got != want {
			t.Errorf("len %d: %x, want %x", len(s), got, want)
		}
	}
}

func FuzzSHA256(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := sha256Sum(b), sha256.Sum256(b); got != want {
			t.Fatalf("%x: %x, want %x", b, got, want)
		}
	})
}
