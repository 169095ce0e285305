package shellcmd

import (
	"slices"
	"testing"
)

// TestCommandEnv: the assignments a command line puts in a command's
// environment, before it or a wrapper, and as env's and sudo's operands;
// not those of a substitution inside its words.
func TestCommandEnv(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"git log", nil},
		{"GIT_PAGER=cat git log", []string{"GIT_PAGER=cat"}},
		{"A=1 B='x y' git log", []string{"A=1", `"B=x y"`}},
		{"env GIT_SSH_COMMAND='ssh -v' git fetch", []string{`"GIT_SSH_COMMAND=ssh -v"`}},
		{"A=1 sudo B=2 env -u X C=3 git log", []string{"A=1", "B=2", "C=3"}},
		{"A=1 bash -c 'B=2 git log'", []string{"A=1", "B=2"}},
		{"A=$X git log", []string{`"A=$X"?`}},
		{"A=1 echo $(git log)", nil},
	} {
		s := mustParse(t, tc.src, testOpts)
		var c *Command
		for _, cmd := range s.Commands {
			if cmd.Base() == "git" {
				c = cmd
			}
		}
		if c == nil {
			t.Fatalf("%q: no git command", tc.src)
		}
		if got := showWords(c.Env); !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%q: env %q, want %q", tc.src, got, tc.want)
		}
	}
}
