package shellcmd

import (
	"strings"
	"testing"
)

// Where zsh may run the line, its flagged expansions ($~v, $=v, $^v) and
// the (e) flag are refused: each read .env or ran code unseen. Where bash
// runs it, they are the text they are to bash.
func TestZshExpansions(t *testing.T) {
	zshOpts, bashOpts := testOpts, testOpts
	zshOpts.Zsh = true
	for _, src := range []string{
		`v=.env; cat $=v`,
		`v="x .env"; cat "$=v"`,
		`v=".env .env.local"; cat < $=v`,
		`v='/(e:cat .env:)'; : $~v`,
		`a=(zz env); cat .$^a`,
		`v=.env; cat x$==v "$~~v"`,
		`echo $=AWS_SECRET_ACCESS_KEY`,
		`v=.env; cat "${x:-$=v}"`,
		"v=.env; cat $=\\\nv",
		`cat $~1`,
		"v=.env; eval 'cat $=v'",
		"cat $(echo $^v)",
		"é=.env; cat $é",
		`emulate zsh -c "cat .env"`,
		`emulate sh -o globdots -c 'cat *'`,
		`emulate -Lc sh "$x"`,
		`builtin emulate sh -c 'cat .env'`,
		`'emulate' sh -c 'cat .env'`,
		`\emulate sh -c 'cat .env'`,
		`noglob emulate sh -c 'cat .env'`,
		`e=emulate; $e sh -c 'cat .env'`,
	} {
		if _, err := Parse(src, zshOpts); err == nil || !strings.Contains(err.Error(), "zsh's") {
			t.Errorf("zsh: %q: err %v, want a refusal naming zsh's expansion", src, err)
		}
	}
	// Code zsh runs is refused whatever the line's shell; code bash runs
	// inside a zsh line is bash's.
	for _, src := range []string{
		`zsh -c 'v=.env; cat $=v'`,
		`zsh -c 'cat ${~v}'`,
		`zsh -c 'cat ${(e)v}'`,
		"zsh <<'EOF'\nv=.env; cat $=v\nEOF",
		`echo 'v=.env; cat $=v' | zsh`,
	} {
		if _, err := Parse(src, bashOpts); err == nil || !strings.Contains(err.Error(), "zsh's") {
			t.Errorf("bash: %q: err %v, want a refusal naming zsh's expansion", src, err)
		}
	}
	for _, src := range []string{
		`perl -e "print $^O"`,
		`v=.env; cat \$=v '$~v' "\$^v" $+v x$ $~ $=`,
		`git commit -m "cost: $=5"`,
		`echo "prix: 5$ €"`,
	} {
		if _, err := Parse(src, bashOpts); err != nil {
			t.Errorf("bash: %q: %v", src, err)
		}
	}
	for _, src := range []string{
		`bash -c 'v=.env; cat $=v'`,
		`v=.env; cat \$=v '$~v' "\$^v" $+v x$ $~ $=`,
		`cat $v[1,4] $v:r ${v}`,
		`emulate -L zsh; setopt localoptions; ls`,
	} {
		if _, err := Parse(src, zshOpts); err != nil {
			t.Errorf("zsh: %q: %v", src, err)
		}
	}
}
