package shellcmd

import (
	"fmt"
	"testing"
)

// The effect of the last command on the tested path is skipped only when
// a test around it rules the command out while the path exists.
func TestSkippedWhenPresent(t *testing.T) {
	exists := func(abs string, file bool) bool { return abs == "/w/.env" }
	tests := []struct {
		src     string
		skipped bool
	}{
		{`[ -f .env ] || cp .env.example .env`, true},
		{`test -e .env || cp .env.example .env`, true},
		{`[[ -f .env ]] || cp .env.example .env`, true},
		{`[ ! -f .env ] && cp .env.example .env`, true},
		{`[[ ! -e ".env" ]] && cp .env.example .env`, true},
		{`if [ ! -f .env ]; then cp .env.example .env; fi`, true},
		{`if [ -f .env ]; then echo ok; else cp .env.example .env; fi`, true},
		{`[ -f /w/.env ] || cp .env.example ./.env`, true},
		// Near misses: the command runs while the file is there.
		{`[ -f .env ] && cp .env.example .env`, false},
		{`[ ! -f .env ] || cp .env.example .env`, false},
		{`if [ -f .env ]; then cp .env.example .env; fi`, false},
		{`[ -f .env.local ] || cp .env.example .env`, false},
		{`true && [ -f .env ] || cp .env.example .env`, false},
		{`[ -f $F ] || cp .env.example .env`, false},
		{`[ -f .e* ] || cp .env.example .env`, false},
		{`[ -s .env ] || cp .env.example .env`, false},
		{`[ -f .env ]; cp .env.example .env`, false},
		{`[ -f .env ] || cd sub && cp ../.env.example .env`, false},
		// Present only as a directory: -f fails, so cp runs.
		{`[ -f dir ] || cp a dir`, false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			s := mustParse(t, tt.src, testOpts)
			c := s.Commands[len(s.Commands)-1]
			skipped := false
			for _, e := range c.Effects() {
				if e.Op == Write && c.Skipped(e, exists) {
					skipped = true
				}
			}
			if skipped != tt.skipped {
				t.Errorf("%s: skipped %v, want %v (absent %v)", show(c), skipped, tt.skipped, fmt.Sprint(c.OnlyIfAbsent))
			}
		})
	}
}

// ~user is the user's home; a user that does not exist leaves the word as
// it is; without a look-up, or for ~N, the word is not known.
func TestTildeUser(t *testing.T) {
	homes := func(name string) (string, bool, error) {
		if name == "root" {
			return "/root", true, nil
		}
		if name == "broken" {
			return "", false, fmt.Errorf("no database")
		}
		return "", false, nil
	}
	tests := []struct {
		src, want string
		lookup    bool
	}{
		{`cat ~root/.ssh/id_rsa`, `/root/.ssh/id_rsa`, true},
		{`cat ~root`, `/root`, true},
		{`cat ~nobody-x/.ssh/id_rsa`, `"~nobody-x/.ssh/id_rsa"`, true},
		{`cat ~broken/x`, `"~broken/x"?`, true},
		{`cat ~2/x`, `"~2/x"?`, true},
		{`cat ~root/x`, `"~root/x"?`, false},
		{`cat '~root/x'`, `"~root/x"`, true},
	}
	for _, tt := range tests {
		opts := testOpts
		if tt.lookup {
			opts.UserHome = homes
		}
		s := mustParse(t, tt.src, opts)
		if got := showWords(s.Commands[0].Args); len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s: args %q, want %s", tt.src, got, tt.want)
		}
	}
}
