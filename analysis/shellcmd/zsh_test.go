package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// zsh's flagged expansions ($~v, $=v, $^v), which bash's grammar keeps as
// text, are read as the parameter they expand; quoted or escaped, they
// stay text.
func TestZshFlaggedParams(t *testing.T) {
	for _, tc := range []struct {
		src  string
		args []string
	}{
		{`v=.env; cat $=v`, []string{".env"}},
		{`v=.env; cat $==v "$~~v"`, []string{".env", ".env"}},
		{`v=".e*"; cat $~v`, []string{`".e*"*`}},
		{`v=sub; cat x$^v/.env`, []string{"xsub/.env"}},
		{`v=a w=b; cat $~v$=w "[$^=v]"`, []string{"ab", `"[a]"`}},
		{`cat $~F`, []string{`"$~F"?`}},
		{`cat $~1 $=1a`, []string{`"$~1"?`, `"$=1a"?`}},
		{`v=.env; cat \$~v '$~v' "\$=v" $+v $~ $= x$`, []string{`"$~v"`, `"$~v"`, `"$=v"`, `"$+v"`, `"$~"`, `"$="`, `"x$"`}},
		{"v=.env; bash <<EOF\ncat $=v\nEOF", []string{".env"}}, // the here-document's text too
	} {
		t.Run(tc.src, func(t *testing.T) {
			s := mustParse(t, tc.src, testOpts)
			c := s.Commands[len(s.Commands)-1]
			if got := showWords(c.Args); !slices.Equal(got, nonNil(tc.args)) {
				t.Errorf("%s\nargs %q, want %q", show(c), got, tc.args)
			}
			for _, a := range c.Args {
				if a.Raw == "" {
					t.Errorf("%s: a word without its source text", show(c))
				}
			}
		})
	}
}

// A flagged expansion split by a line continuation is refused: the offsets
// of the literal's value are not those of its text.
func TestZshFlaggedSplit(t *testing.T) {
	for _, src := range []string{"v=.env; cat $=\\\nv", "v=.env; cat \"$\\\n~v\""} {
		if _, err := Parse(src, testOpts); err == nil || !strings.Contains(err.Error(), "zsh expansion") {
			t.Errorf("%q: err %v, want a refusal naming the zsh expansion", src, err)
		}
	}
	if _, err := Parse("echo a\\\nb $HOME", testOpts); err != nil {
		t.Errorf("a line continuation without a flagged expansion: %v", err)
	}
}
