package scratchpad

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// checkTree builds a scratchpad tree with one of every kind of violation.
func checkTree(t *testing.T) Layout {
	t.Helper()
	l, outside := newLayout(t)
	writeFile(t, l.File(CoordinatorDir, "2026-01-01"), "")      // empty: coordinator not heading-checked
	mkdir(t, l.File(CoordinatorDir, "2026-01-03"))              // unreadable: a directory
	writeFile(t, l.File(EgoDir, "2026-01-02"), "no headings\n") // ego not heading-checked
	writeFile(t, l.File("alice", "2026-01-01"), complete)
	writeFile(t, l.File("alice", "2026-01-02"), "## What I did\n## Cross-agent observations\n")
	writeFile(t, l.File("alice", "notes.md"), "ignored")
	writeFile(t, l.File("plugin%3Areviewer", "2026-01-02"), "")
	writeFile(t, l.File("zed", "2026-01-02"), complete)
	writeFile(t, l.File("bob", "2026-01-03"), complete)
	symlink(t, FileName("2026-01-04"), l.File("bob", "2026-01-04")) // a symlink loop
	writeFile(t, filepath.Join(outside, "2026-01-02.md"), "")
	symlink(t, outside, filepath.Join(l.Root, "evil"))
	writeFile(t, filepath.Join(l.Root, "afile"), "a file at root level")
	writeFile(t, filepath.Join(l.Root, "2026-01-02.md"), "a day-file at root level")
	return l
}

const sp = ".claude/scratchpad/"

func TestCheckAllDays(t *testing.T) {
	l := checkTree(t)
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Root != ".claude/scratchpad" || rep.Date != "" {
		t.Errorf("Root %q Date %q", rep.Root, rep.Date)
	}
	// coordinator ×2, ego, alice ×2, plugin, zed, bob ×2
	if rep.FilesChecked != 9 {
		t.Errorf("FilesChecked = %d, want 9", rep.FilesChecked)
	}
	want := []Violation{
		{Kind: KindEscapes, Path: sp + "evil", Agent: "evil"},
		{Kind: KindMissingSections, Path: sp + "alice/2026-01-02.md", Agent: "alice", Date: "2026-01-02",
			Missing: []string{"Unresolved"}, Message: "missing sections: Unresolved"},
		{Kind: KindMissingCoordinator, Path: sp + "coordinator/2026-01-02.md", Date: "2026-01-02",
			Agents:  []string{"alice", "plugin:reviewer", "zed"},
			Message: "subagent scratchpads (alice, plugin:reviewer, zed) but no coordinator scratchpad"},
		{Kind: KindMissingSections, Path: sp + "plugin%3Areviewer/2026-01-02.md", Agent: "plugin:reviewer", Date: "2026-01-02",
			Missing: DefaultSections, Message: "missing sections: What I did, Cross-agent observations, Unresolved"},
		{Kind: KindUnreadable, Path: sp + "coordinator/2026-01-03.md", Agent: "coordinator", Date: "2026-01-03",
			Message: "is a directory"},
		{Kind: KindMissingCoordinator, Path: sp + "coordinator/2026-01-03.md", Date: "2026-01-03", Agents: []string{"bob"},
			Message: "subagent scratchpads (bob) but no coordinator scratchpad"},
		{Kind: KindUnreadable, Path: sp + "bob/2026-01-04.md", Agent: "bob", Date: "2026-01-04",
			Message: "cannot be read: symlink loop"},
	}
	compareViolations(t, rep.Violations, want)
	if m := rep.Violations[0].Message; !strings.HasPrefix(m, "resolves to ") || !strings.HasSuffix(m, "/outside, outside the scratchpad root") {
		t.Errorf("escape message %q", m)
	}
}

// compareViolations compares all fields; a want with an empty Message only
// requires a non-empty one.
func compareViolations(t *testing.T, got, want []Violation) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d violations, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if w.Message == "" {
			if g.Message == "" {
				t.Errorf("violation %d (%s %s) has no message", i, g.Kind, g.Path)
			}
			g.Message = ""
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("violation %d:\n got  %+v\n want %+v", i, g, w)
		}
	}
	for i := len(want); i < len(got); i++ {
		t.Errorf("extra violation %d: %+v", i, got[i])
	}
}

func TestCheckOneDay(t *testing.T) {
	l := checkTree(t)
	rep, err := l.Check("2026-01-02", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Date != "2026-01-02" {
		t.Errorf("Date = %q", rep.Date)
	}
	if rep.FilesChecked != 4 { // ego, alice, plugin, zed
		t.Errorf("FilesChecked = %d, want 4", rep.FilesChecked)
	}
	var kinds []string
	for _, v := range rep.Violations {
		if v.Date != "" && v.Date != "2026-01-02" {
			t.Errorf("violation of another day: %+v", v)
		}
		kinds = append(kinds, v.Kind+" "+v.Path)
	}
	want := []string{
		KindEscapes + " " + sp + "evil",
		KindMissingSections + " " + sp + "alice/2026-01-02.md",
		KindMissingCoordinator + " " + sp + "coordinator/2026-01-02.md",
		KindMissingSections + " " + sp + "plugin%3Areviewer/2026-01-02.md",
	}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(kinds, "\n"), strings.Join(want, "\n"))
	}

	// A symlink loop named for the day is found by the day filter too.
	rep, err = l.Check("2026-01-04", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if rep.FilesChecked != 1 || len(rep.Violations) != 2 || rep.Violations[1].Kind != KindUnreadable {
		t.Errorf("Check(2026-01-04) = %d files, %+v", rep.FilesChecked, rep.Violations)
	}

	rep, err = l.Check("2026-01-01", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if rep.FilesChecked != 2 || len(rep.Violations) != 1 { // coordinator + alice; only the escape
		t.Errorf("Check(2026-01-01) = %d files, %+v", rep.FilesChecked, rep.Violations)
	}
}

func TestCheckDeterministic(t *testing.T) {
	l := checkTree(t)
	for i := range 30 {
		writeFile(t, l.File("agent"+string(rune('a'+i%26))+strings.Repeat("x", i/26), "2026-02-01"), "")
	}
	first, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		again, err := l.Check("", DefaultSections)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, again) {
			t.Fatal("Check is not deterministic")
		}
	}
}

func TestCheckCustomSections(t *testing.T) {
	l, _ := newLayout(t)
	writeFile(t, l.File(CoordinatorDir, "2026-01-01"), "x")
	writeFile(t, l.File("a", "2026-01-01"), "## Summary\n")
	writeFile(t, l.File("b", "2026-01-01"), complete)
	rep, err := l.Check("", []string{"Summary"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || rep.Violations[0].Agent != "b" ||
		!reflect.DeepEqual(rep.Violations[0].Missing, []string{"Summary"}) {
		t.Errorf("violations = %+v", rep.Violations)
	}
}

func TestCheckCompliant(t *testing.T) {
	l, _ := newLayout(t)
	writeFile(t, l.File(CoordinatorDir, "2026-01-01"), "")
	writeFile(t, l.File("a", "2026-01-01"), complete)
	writeFile(t, l.File(EgoDir, "2026-01-05"), "") // ego alone needs no coordinator
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if rep.FilesChecked != 3 || len(rep.Violations) != 0 {
		t.Errorf("Check = %d files, %+v", rep.FilesChecked, rep.Violations)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"violations":[]`) {
		t.Errorf("JSON %s lacks an empty violations list", b)
	}
}

func TestCheckNoRoot(t *testing.T) {
	l, _ := newLayout(t)
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if rep.FilesChecked != 0 || rep.Violations == nil || len(rep.Violations) != 0 {
		t.Errorf("Check without a root = %+v", rep)
	}
}

func TestCheckRootIsAFile(t *testing.T) {
	l, _ := newLayout(t)
	writeFile(t, l.Root, "not a dir")
	if rep, err := l.Check("", DefaultSections); err == nil {
		t.Errorf("Check with a file as root = %+v, want an error", rep)
	}
}

func TestCheckSymlinkedFileOut(t *testing.T) {
	l, outside := newLayout(t)
	writeFile(t, filepath.Join(outside, "x.md"), complete)
	writeFile(t, l.File(CoordinatorDir, "2026-01-01"), "")
	symlink(t, filepath.Join(outside, "x.md"), l.File("a", "2026-01-01"))
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 {
		t.Fatalf("violations = %+v", rep.Violations)
	}
	v := rep.Violations[0]
	if v.Kind != KindEscapes || v.Path != sp+"a/2026-01-01.md" || v.Date != "2026-01-01" ||
		!strings.Contains(v.Message, "outside the scratchpad root") {
		t.Errorf("violation = %+v, want the file reported as leaving the root", v)
	}
}

func TestCheckManyFiles(t *testing.T) {
	l, _ := newLayout(t)
	const agents, days = 20, 15
	for a := range agents {
		for d := range days {
			day := "2026-03-" + twoDigits(d+1)
			content := complete
			if (a+d)%7 == 0 {
				content = ""
			}
			writeFile(t, l.File("agent-"+twoDigits(a), day), content)
		}
	}
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if rep.FilesChecked != agents*days {
		t.Errorf("FilesChecked = %d", rep.FilesChecked)
	}
	sections, coord := 0, 0
	for _, v := range rep.Violations {
		switch v.Kind {
		case KindMissingSections:
			sections++
			if !strings.Contains(v.Path, "agent-") {
				t.Errorf("bad path %q", v.Path)
			}
		case KindMissingCoordinator:
			coord++
			if len(v.Agents) != agents {
				t.Errorf("%s: %d agents", v.Date, len(v.Agents))
			}
		}
	}
	wantSections := 0
	for a := range agents {
		for d := range days {
			if (a+d)%7 == 0 {
				wantSections++
			}
		}
	}
	if sections != wantSections || coord != days {
		t.Errorf("missing_sections %d (want %d), missing_coordinator %d (want %d)", sections, wantSections, coord, days)
	}
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

func TestCheckAgentsSortedByDisplayName(t *testing.T) {
	// Encoded, "a%7E" sorts before "a-"; displayed, "a-" comes before "a~".
	l, _ := newLayout(t)
	for _, agent := range []string{"a~", "a-", "Z"} {
		dir, err := DirName(agent, "")
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, l.File(dir, "2026-01-01"), complete)
	}
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || !reflect.DeepEqual(rep.Violations[0].Agents, []string{"Z", "a-", "a~"}) {
		t.Errorf("violations = %+v, want one missing_coordinator listing Z, a-, a~", rep.Violations)
	}
}

func TestCheckUnreadablePermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	l, _ := newLayout(t)
	writeFile(t, l.File(CoordinatorDir, "2026-01-01"), "")
	writeFile(t, l.File("a", "2026-01-01"), complete)
	writeFile(t, l.File("b", "2026-01-01"), complete)
	if err := os.Chmod(l.File("a", "2026-01-01"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(l.Root, "b"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(l.Root, "b"), 0o755) })
	rep, err := l.Check("", DefaultSections)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range rep.Violations {
		got = append(got, v.Kind+" "+v.Path)
	}
	want := []string{KindUnreadable + " " + sp + "b", KindUnreadable + " " + sp + "a/2026-01-01.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
}
