package scratchpad

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/fixtures"
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
	for _, md := range fixtures.Files(f, ".md") {
		f.Add(md, "Summary")
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
		// A byte order mark in front, and CRLF line ends, change nothing.
		if !bytes.HasPrefix(content, bom) {
			if got := Headings(append(slices.Clip(bom), content...)); !maps.Equal(got, have) {
				t.Fatalf("%q: with a BOM, headings %v; without, %v", content, got, have)
			}
		}
		if !bytes.Contains(content, []byte("\r")) {
			crlf := bytes.ReplaceAll(content, []byte("\n"), []byte("\r\n"))
			if got := Headings(crlf); !maps.Equal(got, have) {
				t.Fatalf("%q: with CRLF line ends, headings %v; with LF, %v", content, got, have)
			}
		}
	})
}

// FuzzCheck runs the whole of `check` (Layout.Check) and the context
// hooks' Tail over a subagent scratchpad with any content, for any agent
// name: it reads the file, finds its headings exactly as MissingSections
// does, and reports at most one missing_sections violation for it.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(complete), "spec-writer")
	f.Add([]byte("\uFEFF## What I did\r\n"), "plugin:reviewer")
	for _, md := range fixtures.Files(f, ".md") {
		f.Add(md, "general-purpose")
	}
	f.Fuzz(func(t *testing.T, content []byte, agent string) {
		dir, err := DirName(agent, "general-purpose")
		if err != nil || IsReserved(dir) {
			t.Skip()
		}
		l, _ := newLayout(t)
		const day = "2026-11-20"
		writeFile(t, l.File(CoordinatorDir, day), "Delegated.\n")
		writeFile(t, l.File(dir, day), string(content))
		want := MissingSections(content, DefaultSections)
		for _, only := range []string{"", day} {
			rep, err := l.Check(only, DefaultSections)
			if err != nil {
				t.Fatalf("Check(%q): %v", only, err)
			}
			if rep.FilesChecked != 2 {
				t.Fatalf("Check(%q) checked %d files, want 2", only, rep.FilesChecked)
			}
			if len(want) == 0 {
				if len(rep.Violations) != 0 {
					t.Fatalf("Check(%q): violations %+v for a complete file", only, rep.Violations)
				}
			} else if len(rep.Violations) != 1 || rep.Violations[0].Kind != KindMissingSections ||
				!slices.Equal(rep.Violations[0].Missing, want) || rep.Violations[0].Agent != DisplayName(dir) {
				t.Fatalf("Check(%q): violations %+v, want one missing_sections %q", only, rep.Violations, want)
			}
			if _, err := json.Marshal(rep); err != nil {
				t.Fatalf("the report does not encode: %v", err)
			}
			_ = rep.Grid()
		}
		for _, n := range []int{0, 1, 3, 25} {
			lines, _, err := l.Tail(l.File(dir, day), n)
			if err != nil || len(lines) > n {
				t.Fatalf("Tail(%d) = %d lines, %v", n, len(lines), err)
			}
		}
		if path, got, ok, err := l.Newest(dir, day); err != nil || !ok || got != day || path != l.File(dir, day) {
			t.Fatalf("Newest(%q) = %q, %q, %v, %v", dir, path, got, ok, err)
		}
	})
}

// FuzzDayOf: only a real calendar date named YYYY-MM-DD.md is a
// scratchpad day, and it names its own file.
func FuzzDayOf(f *testing.F) {
	for _, seed := range []string{"2026-11-20.md", "2026-02-30.md", "2026-11-20.md.tmp", "notes.md", "+2026-1-20.md", "", ".md"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		day, ok := DayOf(name)
		if !ok {
			if day != "" {
				t.Fatalf("DayOf(%q) = %q with ok false", name, day)
			}
			return
		}
		if FileName(day) != name || len(day) != len(DayLayout) {
			t.Fatalf("DayOf(%q) = %q", name, day)
		}
		for i, c := range day {
			if (i == 4 || i == 7) != (c == '-') || c != '-' && (c < '0' || c > '9') {
				t.Fatalf("DayOf(%q) = %q is not YYYY-MM-DD", name, day)
			}
		}
	})
}

func FuzzDirName(f *testing.F) {
	for _, seed := range []string{"", "general-purpose", "plugin:reviewer", ".", "..", ".x", "a/b", "..\\x",
		"é", "%", "a%3Ab", "\x00", "\xff", strings.Repeat("a", 201)} {
		f.Add(seed, "general-purpose")
	}
	for _, ev := range fixtures.Files(f, ".json") {
		var fields struct {
			AgentType *string `json:"agent_type"`
		}
		if json.Unmarshal(ev, &fields) == nil && fields.AgentType != nil {
			f.Add(*fields.AgentType, "general-purpose")
		}
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

// TestRegressionHeadingInListAfterQuoteOrNestedItem: found by
// FuzzHeadingsMatchCommonMark. A heading inside a list item used to count as
// top-level in two cases: a list marker right after a block quote ("-" or
// "2. item", which cannot interrupt a paragraph, was taken for a lazy
// continuation of the quoted one), and an item whose first line holds a
// nested item ("- - note", whose paragraph was not seen as open).
func TestRegressionHeadingInListAfterQuoteOrNestedItem(t *testing.T) {
	for _, content := range []string{
		"> quoted\n-\n  ## Unresolved\n",
		"> quoted\n2. item\n   ## Unresolved\n",
		"- - note\ncontinued\n  ## Unresolved\n",
	} {
		if Headings([]byte(content))["unresolved"] {
			t.Errorf("%q: the \"## Unresolved\" inside a list item counts as a top-level heading", content)
		}
	}
}
