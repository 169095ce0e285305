package shellcmd

import (
	"strings"
	"testing"
)

// TestBraceExpansion: a word with a brace expansion is the words bash
// makes of it, before tildes and globs; a sequence too long to list is not
// known.
func TestBraceExpansion(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"rm -rf {~,x}", "-rf /home/u x"},
		{"rm -rf {x,~+}", "-rf x /w"},
		{"rm -rf {/,x}etc", "-rf /etc xetc"},
		{"cat .e{n,}v", ".env .ev"},
		{"cat {~/.git-credentials,x}", "/home/u/.git-credentials x"},
		{"touch f{1..3}.txt", "f1.txt f2.txt f3.txt"},
		{"touch {a..c}{1,2}", "a1 a2 b1 b2 c1 c2"},
		{"echo {5..1..2}", "5 3 1"},
		{"echo '{a,b}' \"{c,d}\" {e}", "{a,b} {c,d} {e}"},
		{"echo {a,{b,c}}d", "ad bd cd"},
		{"echo {1..100000}", "{1..100000}?"},
		{"echo {,} x a{,}", "x a a"},
	} {
		s, err := Parse(tc.src, Options{Dir: "/w", Home: "/home/u"})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var got []string
		for _, a := range s.Commands[0].Args {
			v := a.Value
			if !a.Known {
				v += "?"
			}
			got = append(got, v)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s: args %q, want %q", tc.src, g, tc.want)
		}
	}
}

// TestGoGlob: bash's [!x] and [:class:] read as Go's path.Match reads them.
func TestGoGlob(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{".[!.]*", ".[^.]*", true},
		{"h[!x]me", "h[^x]me", true},
		{"[[:alpha:]]*", "[a-zA-Z]*", true},
		{"[![:digit:]x]", "[^0-9x]", true},
		{"[]a]", "[]a]", true},
		{"plain*", "plain*", true},
		{"a[[:bogus:]]", "", false},
		{"a[b", "", false},
	} {
		got, ok := goGlob(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("goGlob(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
