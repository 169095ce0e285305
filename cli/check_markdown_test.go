package cli

import (
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/scratchpad"
)

// TestCheckMarkdown renders a fixed report: the coordinator missing on one
// day and unreadable on another, an incomplete subagent, an ego file (in no
// row), and agent names and headings that would break the table or add
// markup if they were not escaped.
func TestCheckMarkdown(t *testing.T) {
	const sp = ".claude/scratchpad/"
	rep := &scratchpad.Report{
		Root:         ".claude/scratchpad",
		FilesChecked: 6,
		Files: []scratchpad.FileResult{
			{Dir: "coordinator", Agent: "coordinator", Date: "2026-11-20", Path: sp + "coordinator/2026-11-20.md"},
			{Dir: "coordinator", Agent: "coordinator", Date: "2026-11-21", Path: sp + "coordinator/2026-11-21.md", Fault: scratchpad.KindUnreadable},
			{Dir: "ego", Agent: "ego", Date: "2026-11-18", Path: sp + "ego/2026-11-18.md"},
			{Dir: "x%7C%60y%60%0A%23_z_", Agent: "x|`y`\n#_z_", Date: "2026-11-19", Path: sp + "x%7C%60y%60%0A%23_z_/2026-11-19.md"},
			{Dir: "tester", Agent: "tester", Date: "2026-11-20", Path: sp + "tester/2026-11-20.md",
				Missing: []string{"*Unresolved*", "[Notes](x) <b>$1</b>"}},
			{Dir: "tester", Agent: "tester", Date: "2026-11-21", Path: sp + "tester/2026-11-21.md"},
		},
		Violations: []scratchpad.Violation{
			{Kind: scratchpad.KindMissingCoordinator, Path: sp + "coordinator/2026-11-19.md", Date: "2026-11-19",
				Agents: []string{"x|`y`\n#_z_"}, Message: "subagent scratchpads (x|`y`\n#_z_) but no coordinator scratchpad"},
			{Kind: scratchpad.KindMissingSections, Path: sp + "tester/2026-11-20.md", Agent: "tester", Date: "2026-11-20",
				Missing: []string{"*Unresolved*", "[Notes](x) <b>$1</b>"}, Message: "missing sections: *Unresolved*, [Notes](x) <b>$1</b>"},
			{Kind: scratchpad.KindUnreadable, Path: sp + "coordinator/2026-11-21.md", Agent: "coordinator", Date: "2026-11-21",
				Message: "is a directory"},
		},
	}
	want := strings.Join([]string{
		"### Scratchpad protocol",
		"",
		"❌ check: 6 scratchpad files in .claude/scratchpad (all dates): 3 violations",
		"",
		"| agent | 2026-11-19 | 2026-11-20 | 2026-11-21 |",
		"| :-- | :-: | :-: | :-: |",
		"| coordinator | ❌ | ✅ | ❌ |",
		"| tester | · | ⚠️ | ✅ |",
		"| x\\|\\`y\\`%0A#\\_z\\_ | ✅ | · | · |",
		"",
		"✅ compliant, ⚠️ headings missing, ❌ missing or unreadable, · did not work that day",
		"",
		"**3 violations**",
		"",
		"- ❌ .claude/scratchpad/coordinator/2026-11-19.md: subagent scratchpads (x\\|\\`y\\`%0A#\\_z\\_) but no coordinator scratchpad",
		"- ⚠️ .claude/scratchpad/tester/2026-11-20.md: missing sections: \\*Unresolved\\*, \\[Notes\\](x) \\<b\\>\\$1\\</b\\>",
		"- ❌ .claude/scratchpad/coordinator/2026-11-21.md: is a directory",
		"",
	}, "\n")
	var b strings.Builder
	if err := writeCheckMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestCheckMarkdownCompliant: no violations, no violations section; no
// files, no grid.
func TestCheckMarkdownCompliant(t *testing.T) {
	for _, tc := range []struct {
		name string
		rep  *scratchpad.Report
		want string
	}{
		{"grid", &scratchpad.Report{Root: "sp", Date: "2026-11-20", FilesChecked: 1,
			Files: []scratchpad.FileResult{{Dir: "coordinator", Agent: "coordinator", Date: "2026-11-20"}}},
			"### Scratchpad protocol\n\n✅ check: 1 scratchpad file in sp (2026-11-20): compliant\n\n" +
				"| agent | 2026-11-20 |\n| :-- | :-: |\n| coordinator | ✅ |\n\n" +
				"✅ compliant, ⚠️ headings missing, ❌ missing or unreadable, · did not work that day\n"},
		{"empty", &scratchpad.Report{Root: "my_root", Date: "2026-11-20"},
			"### Scratchpad protocol\n\n✅ check: 0 scratchpad files in my\\_root (2026-11-20): compliant\n"},
	} {
		var b strings.Builder
		if err := writeCheckMarkdown(&b, tc.rep); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, b.String(), tc.want)
		}
	}
}

func TestMDEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain-name.v2":   "plain-name.v2",
		"a|b":             `a\|b`,
		`\|`:              `\\\|`, // the backslash cannot escape the escape
		"`code`":          "\\`code\\`",
		"*_[]<>~&$":       `\*\_\[\]\<\>\~\&\$`,
		"line\r\nbreak\t": "line%0D%0Abreak%09",
		"del\x7f":         "del%7F",
		"plugin:rev ü":    "plugin:rev ü",
	} {
		if got := mdEscape(in); got != want {
			t.Errorf("mdEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
