package scratchpad

import (
	"errors"
	"strings"
	"testing"
)

func FuzzMissingSections(f *testing.F) {
	for _, seed := range []string{
		complete,
		"",
		"```\n## What I did\n",
		"\uFEFF## What I did:\r\n> ## Unresolved\r\n",
		"<!--\n## Cross-agent observations\n-->\n- ## Unresolved\n",
		"What I did\n===\n    ## Unresolved\n",
		"## **What** I _did_ ##\n",
	} {
		f.Add([]byte(seed), "Unresolved")
	}
	f.Fuzz(func(t *testing.T, content []byte, extra string) {
		required := append(append([]string(nil), DefaultSections...), extra)
		missing := MissingSections(content, required)
		// missing is a subsequence of required.
		i := 0
		for _, m := range missing {
			for i < len(required) && required[i] != m {
				i++
			}
			if i == len(required) {
				t.Fatalf("missing %q is not a subsequence of required %q", missing, required)
			}
			i++
		}
		have := Headings(content)
		for _, r := range required {
			found := have[normalizeHeading(r)]
			isMissing := false
			for _, m := range missing {
				isMissing = isMissing || m == r
			}
			if found == isMissing {
				t.Fatalf("%q: in Headings %v, reported missing %v", r, found, isMissing)
			}
		}
	})
}

func FuzzDirName(f *testing.F) {
	for _, seed := range []string{"", "general-purpose", "plugin:reviewer", ".", "..", ".x", "a/b", "..\\x",
		"é", "%", "a%3Ab", "\x00", "\xff", strings.Repeat("a", 201)} {
		f.Add(seed, "general-purpose")
	}
	f.Fuzz(func(t *testing.T, agent, def string) {
		dir, err := DirName(agent, def)
		if err != nil {
			var ne *NameError
			if !errors.As(err, &ne) {
				t.Fatalf("error %v is %T, not *NameError", err, err)
			}
			if dir != "" {
				t.Fatalf("name %q returned with an error", dir)
			}
			return
		}
		if dir == "" || dir == "." || dir == ".." || dir[0] == '.' || len(dir) > maxNameLen {
			t.Fatalf("DirName(%q, %q) = %q", agent, def, dir)
		}
		for i := 0; i < len(dir); i++ {
			c := dir[i]
			if !(isPlain(c) || c == '%') {
				t.Fatalf("DirName(%q) = %q holds byte %q", agent, dir, c)
			}
		}
		want := agent
		if want == "" {
			want = def
		}
		if got := DisplayName(dir); got != want {
			t.Fatalf("DisplayName(DirName(%q)) = %q", want, got)
		}
		// Injectivity through the inverse: re-encoding the display name gives dir back.
		if again, err := DirName(DisplayName(dir), ""); err != nil || again != dir {
			t.Fatalf("DirName(DisplayName(%q)) = %q, %v", dir, again, err)
		}
	})
}
