package guard

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
)

// FuzzShellWord: an argument a table tool puts into the command line it is
// judged as stays one word, whatever it holds: quotes, $( ), ;, newlines
// never become shell syntax to the analysis, so no value can hide a
// command from the Bash judgements or smuggle one in.
func FuzzShellWord(f *testing.F) {
	for _, s := range []string{"HEAD:.env", "it's", "x'; rm -rf ~; '", "$(cat .env)", "`id`", "a\nb", "--", "-rf", "~", "*", "", "a b", "\\'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
			t.Skip("a shell word holds no NUL; the parser reads UTF-8")
		}
		script, err := shellcmd.Parse("git show "+shellWord(s), shellcmd.Options{Dir: "/p", Home: "/h"})
		if err != nil {
			t.Fatalf("git show %s: %v", shellWord(s), err)
		}
		if len(script.Commands) != 1 {
			t.Fatalf("git show %s: %d commands", shellWord(s), len(script.Commands))
		}
		c := script.Commands[0]
		var words []string
		for _, a := range c.Args {
			if !a.Known {
				t.Fatalf("git show %s: an unknown word", shellWord(s))
			}
			words = append(words, a.Value)
		}
		if c.Name.Value != "git" || len(words) != 2 || words[0] != "show" || words[1] != s {
			t.Fatalf("git show %s: read as %s %q", shellWord(s), c.Name.Value, words)
		}
	})
}
