package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fakePage = `# Peer agreement

Some prose | with a pipe.

## Known disagreements

| case | peer | peer says | command | why |
|---:|---|---|---|---|
| 145 | claude-code-safety-net | block | ` + "`git clean -nf`" + ` | dry run |
| #28 | claude-code-safety-net | allow | ` + "`echo a \\| xargs rm -r`" + ` | outside |
| 605 | destructive_command_guard | allow | ` + "`rm -rf /tmp/*`" + ` | Depends on the machine: what /tmp holds |

Text after the table.

| not | a table we read |
|---|---|
| x | y |

## Real agent commands that are denied

| payload | command | why |
|---|---|---|
| ` + "`real/claude-code-2.1.328/PreToolUse.Bash.json`" + ` | ` + "`cat .env`" + ` | protected |
| events/other.json | x | y |

## Another section

| 7 | block |
|---|---|
| 8 | allow |
`

func TestParseDocumented(t *testing.T) {
	d, err := parseDocumented([]byte(fakePage))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.peers) != 3 || d.peers[145] != (docRow{line: 9, says: expectBlock}) || d.peers[28] != (docRow{line: 10, says: expectAllow}) ||
		d.peers[605] != (docRow{line: 11, says: expectAllow, machine: true}) {
		t.Errorf("peers %+v", d.peers)
	}
	if len(d.real) != 2 || d.real["real/claude-code-2.1.328/PreToolUse.Bash.json"].line != 23 || d.real["events/other.json"].line != 24 {
		t.Errorf("real %+v", d.real)
	}
}

func TestParseDocumentedRejects(t *testing.T) {
	head := "## Real agent commands that are denied\n\n## Known disagreements\n\n| case | peer | says |\n|---|---|---|\n"
	for name, page := range map[string]string{
		"id not a number":   head + "| one | p | block |\n",
		"says missing":      head + "| 1 | p |\n",
		"says wrong":        head + "| 1 | p | deny |\n",
		"id twice":          head + "| 1 | p | block |\n| 1 | p | block |\n",
		"no known section":  "## Real agent commands that are denied\n",
		"no real section":   "## Known disagreements\n",
		"real file twice":   "## Known disagreements\n## Real agent commands that are denied\n| p | c |\n|---|---|\n| a.json | x |\n| a.json | y |\n",
		"real without file": "## Known disagreements\n## Real agent commands that are denied\n| p | c |\n|---|---|\n|  | x |\n",
	} {
		if _, err := parseDocumented([]byte(page)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestSplitRow(t *testing.T) {
	got := splitRow("| 1 | `a \\| b` |c|")
	if strings.Join(got, "¦") != "1¦`a | b`¦c" {
		t.Errorf("splitRow = %q", got)
	}
}

// The page in the repository must parse, so that `make peer` can read it.
func TestRepositoryPageParses(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "peer-agreement.md")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if _, err := loadDocumented(path); err != nil {
		t.Fatal(err)
	}
}
