package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// The two sections of docs/peer-agreement.md whose tables the harness
// reads: the peers' cases massgen-hook knowingly decides otherwise, keyed by
// case id, and the real agent commands it knowingly denies, keyed by the
// payload's path under ../shared/conformance.
const (
	knownHeading = "## Known disagreements"
	realHeading  = "## Real agent commands that are denied"
)

// documented is what docs/peer-agreement.md says massgen-hook does on purpose.
type documented struct {
	peers map[int]docRow    // by case id
	real  map[string]docRow // by payload path
}

// docRow is one row of a documented table: its line in the file (for the
// report) and, in the cases' table, the verdict it says the peer gives.
type docRow struct {
	line int
	says string
	// machine: the reason starts with machineNote, so the case may also
	// agree on another machine without the row being stale.
	machine bool
}

// machineNote opens the reason of a case whose verdict depends on what the
// machine holds outside the setting (the files in /tmp a glob expands to).
const machineNote = "Depends on the machine:"


// loadDocumented reads the two tables of the page at path.
func loadDocumented(path string) (documented, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return documented{}, err
	}
	d, err := parseDocumented(data)
	if err != nil {
		return d, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

var separatorRow = regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+\s*$`)

// parseDocumented reads the rows of the tables under knownHeading (first
// cell: the case id; third: what the peer says, block or allow) and
// realHeading (first cell: the payload's path): the first table under each.
// Both headings must be there; a table may have no rows. A row that does not parse, or a key given
// twice, is an error naming its line, so that a typo cannot hide a case.
func parseDocumented(data []byte) (documented, error) {
	d := documented{peers: map[int]docRow{}, real: map[string]docRow{}}
	// Only the first table of each section is read; inTable is true on its
	// rows, tableDone once it has ended.
	section, seenKnown, seenReal, inTable, tableDone := "", false, false, false, false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "## ") {
			section, inTable, tableDone = line, false, false
			seenKnown = seenKnown || line == knownHeading
			seenReal = seenReal || line == realHeading
			continue
		}
		if section != knownHeading && section != realHeading {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			tableDone = tableDone || inTable
			inTable = false
			continue
		}
		if tableDone {
			continue
		}
		if separatorRow.MatchString(line) {
			inTable = true // the rows follow the header and its separator
			continue
		}
		if !inTable {
			continue // the header
		}
		cells := splitRow(line)
		if section == knownHeading {
			id, err := strconv.Atoi(strings.TrimPrefix(cells[0], "#"))
			if err != nil {
				return d, fmt.Errorf("line %d: first cell %q is not a case id", n, cells[0])
			}
			if len(cells) < 3 || (cells[2] != expectBlock && cells[2] != expectAllow) {
				return d, fmt.Errorf("line %d: case %d: third cell must say what the peer says, block or allow", n, id)
			}
			if prev, ok := d.peers[id]; ok {
				return d, fmt.Errorf("line %d: case %d is already documented on line %d", n, id, prev.line)
			}
			d.peers[id] = docRow{line: n, says: cells[2], machine: strings.HasPrefix(cells[len(cells)-1], machineNote)}
			continue
		}
		file := strings.Trim(cells[0], "`")
		if file == "" {
			return d, fmt.Errorf("line %d: first cell must be a payload's path", n)
		}
		if prev, ok := d.real[file]; ok {
			return d, fmt.Errorf("line %d: %s is already documented on line %d", n, file, prev.line)
		}
		d.real[file] = docRow{line: n}
	}
	if err := sc.Err(); err != nil {
		return d, err
	}
	if !seenKnown {
		return d, fmt.Errorf("no %q section", knownHeading)
	}
	if !seenReal {
		return d, fmt.Errorf("no %q section", realHeading)
	}
	return d, nil
}

// splitRow splits a Markdown table row into its trimmed cells; `\|` is a
// pipe inside a cell.
func splitRow(line string) []string {
	line = strings.TrimPrefix(strings.TrimSpace(line), "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	if rest := strings.TrimSpace(cell.String()); rest != "" {
		cells = append(cells, rest)
	}
	if len(cells) == 0 {
		cells = []string{""}
	}
	return cells
}
