package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// openmoat's conformance suite (openmoat-corpus.json in the shared folder):
// agent tool calls with the verdict its default policy gives, judged with
// the home /Users/me and the project /p. They run here in the peers'
// setting, with /Users/me read as its home and /p as its project. The
// fixtures in massgen-hook's scope (omScope) count toward the target; the
// ask fixtures are reported, with no target.

const omDenyTarget = 0.98

// omHeading is the section of docs/peer-agreement.md whose first table
// lists, by fixture id, the in-scope deny fixtures massgen-hook lets
// through on purpose.
const omHeading = "## openmoat"

type omCase struct {
	ID       string          `json:"id"`
	Threat   string          `json:"threat"`
	Kind     string          `json:"kind"`
	Action   json.RawMessage `json:"action"`
	Expected string          `json:"expected"`
	Extra    json.RawMessage `json:"extra"`
}

func loadOpenmoat(path string) ([]omCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Cases []omCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(f.Cases) == 0 {
		return nil, fmt.Errorf("%s: no cases", path)
	}
	return f.Cases, nil
}

// omScopeThreats are the threat classes massgen-hook's guards share:
// secrets through the shell, the file tools and the environment,
// destructive git and filesystem commands, obfuscated and nested
// commands, MCP tools' reads and writes, tampering with the hooks,
// symlinks. The others are decided out of scope in SECURITY.md.
var omScopeThreats = map[string]bool{"T1": true, "T2": true, "T3": true, "T4": true, "T7": true, "T8": true, "T9": true, "T11": true}

// omMCP is an mcp_tool fixture's action: the tool, and the paths it reads
// or writes (its hosts, a network matter, are not the guards').
type omMCP struct {
	Name   string   `json:"name"`
	Reads  []string `json:"reads"`
	Writes []string `json:"writes"`
}

// omMCPPath is the one path an mcp_tool fixture reads or writes, and
// whether it writes it; false when it names none.
func omMCPPath(c omCase) (m omMCP, path string, write, ok bool) {
	if json.Unmarshal(c.Action, &m) != nil || m.Name == "" {
		return m, "", false, false
	}
	switch {
	case len(m.Writes) == 1 && len(m.Reads) == 0:
		return m, m.Writes[0], true, true
	case len(m.Reads) == 1 && len(m.Writes) == 0:
		return m, m.Reads[0], false, true
	}
	return m, "", false, false
}

// omScope reports whether a fixture is in massgen-hook's scope: one of
// those classes, a shell command or a file tool's read or write, needing
// none of openmoat's own fixture setup (links, sessions, repository
// policies), and not about openmoat's own tool or files, nor Windows paths.
func omScope(c omCase) bool {
	if !omScopeThreats[c.Threat] || len(bytes.TrimSpace(c.Extra)) > 0 && string(bytes.TrimSpace(c.Extra)) != "null" {
		return false
	}
	if c.Kind == "mcp_tool" {
		_, _, _, ok := omMCPPath(c)
		return ok
	}
	if c.Kind != "shell" && c.Kind != "fs_read" && c.Kind != "fs_write" {
		return false
	}
	a := strings.ToLower(string(c.Action))
	return !strings.Contains(a, "moat") && !strings.Contains(a, "c:/")
}

// omEvent is the PreToolUse event of a fixture in the setting; false when
// its action has no form here.
func omEvent(c omCase, home, project string) ([]byte, bool) {
	if c.Kind == "mcp_tool" {
		return omMCPEvent(c, home, project)
	}
	var s string
	if err := json.Unmarshal(c.Action, &s); err != nil {
		var m map[string]any
		if json.Unmarshal(c.Action, &m) != nil {
			return nil, false
		}
		for _, k := range []string{"command", "path"} {
			if v, ok := m[k].(string); ok {
				s = v
			}
		}
		if s == "" {
			return nil, false
		}
	}
	s = strings.ReplaceAll(s, "/Users/me", home)
	for _, q := range []string{" ", "'", "\"", "="} {
		s = strings.ReplaceAll(s, q+"/p/", q+project+"/")
	}
	if c.Kind == "shell" {
		return bashEvent(s, project, "toolu_openmoat_"+c.ID), true
	}
	s = omPath(s, home, project)
	tool, input := "Read", map[string]any{"file_path": s}
	if c.Kind == "fs_write" {
		tool, input["content"] = "Write", "x\n"
	}
	data, _ := json.Marshal(map[string]any{"session_id": "peer-agreement", "transcript_path": "", "cwd": project,
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
		"tool_use_id": "toolu_openmoat_" + c.ID})
	return data, true
}

// omPath is a fixture's path in the setting: ~ and /Users/me its home, /p
// its project, a relative path in the project.
func omPath(s, home, project string) string {
	s = strings.ReplaceAll(s, "/Users/me", home)
	switch {
	case strings.HasPrefix(s, "~/"):
		return home + s[1:]
	case strings.HasPrefix(s, "/p/"):
		return project + s[2:]
	case !strings.HasPrefix(s, "/"):
		return project + "/" + s
	}
	return s
}

// omMCPEvent is an mcp_tool fixture as the call of its tool, with the
// path in the argument the reference filesystem server names it by.
func omMCPEvent(c omCase, home, project string) ([]byte, bool) {
	m, p, write, ok := omMCPPath(c)
	if !ok {
		return nil, false
	}
	input := map[string]any{"path": omPath(p, home, project)}
	if write {
		input["content"] = "x\n"
	}
	data, _ := json.Marshal(map[string]any{"session_id": "peer-agreement", "transcript_path": "", "cwd": project,
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": m.Name, "tool_input": input,
		"tool_use_id": "toolu_openmoat_" + c.ID})
	return data, true
}

// omResult is the judged run of the fixtures.
type omResult struct {
	deny, denyDenied        int // in scope
	ask, askDenied, askLets int // in scope, no target
	outOfScope              int
	misses                  []omMiss // in-scope deny fixtures let through
	stale                   []string // rows of the page no longer true
	failures                []omMiss
}

type omMiss struct {
	c          omCase
	a          answer
	documented bool
}

// omRow is a row of the page's table: its line, and whether its reason
// opens with machineNote (its verdict turns on what is around the setting,
// so it is never stale).
type omRow struct {
	line    int
	machine bool
}

func judgeOpenmoat(cases []omCase, answers map[string]answer, doc map[string]omRow) omResult {
	var r omResult
	seen := map[string]bool{}
	for _, c := range cases {
		a, ran := answers[c.ID]
		if !ran {
			r.outOfScope++
			continue
		}
		if a.Kind == failed {
			r.failures = append(r.failures, omMiss{c: c, a: a})
			continue
		}
		stops := a.Kind == denied || a.Kind == asked
		switch c.Expected {
		case "deny":
			r.deny++
			if stops {
				r.denyDenied++
				continue
			}
			_, ok := doc[c.ID]
			seen[c.ID] = ok
			r.misses = append(r.misses, omMiss{c: c, a: a, documented: ok})
		case "ask":
			r.ask++
			if stops {
				r.askDenied++
			} else {
				r.askLets++
			}
		}
	}
	for id, row := range doc {
		if _, missed := seen[id]; !missed && !row.machine {
			r.stale = append(r.stale, fmt.Sprintf("line %d: %s is denied now, or not an in-scope deny fixture", row.line, id))
		}
	}
	slices.Sort(r.stale)
	return r
}

func (r omResult) ok() bool {
	if len(r.stale) > 0 || len(r.failures) > 0 || share(r.denyDenied, r.deny) < omDenyTarget {
		return false
	}
	for _, m := range r.misses {
		if !m.documented {
			return false
		}
	}
	return true
}

func (r omResult) render(w io.Writer, docPath string) {
	met := "met"
	if share(r.denyDenied, r.deny) < omDenyTarget {
		met = "not met"
	}
	fmt.Fprintf(w, "| openmoat fixtures in scope | total | massgen-hook | share | target | met? |\n|---|---:|---:|---:|---|---|\n")
	fmt.Fprintf(w, "| deny → denied | %d | %d | %s | ≥ %.0f%% | %s |\n", r.deny, r.denyDenied, percent(r.denyDenied, r.deny), 100*omDenyTarget, met)
	fmt.Fprintf(w, "| ask → denied / allowed | %d | %d / %d | | none | |\n\n", r.ask, r.askDenied, r.askLets)
	fmt.Fprintf(w, "Out of scope (other threat classes, openmoat's own tool, fixtures needing its setup): %d.\n", r.outOfScope)
	for _, f := range r.failures {
		fmt.Fprintf(w, "  FAILED %s: %s\n", f.c.ID, f.a.Reason)
	}
	for _, m := range r.misses {
		tag := "undocumented"
		if m.documented {
			tag = "documented"
		}
		fmt.Fprintf(w, "  %-12s %s (%s): %s\n", tag, m.c.ID, m.c.Kind, showCommand(string(m.c.Action)))
	}
	for _, s := range r.stale {
		fmt.Fprintf(w, "  stale in %s: %s\n", docPath, s)
	}
}

// parseOpenmoatDoc reads the fixture ids (the first cell, in backquotes)
// of the table under omHeading whose first column is "fixture", with their
// lines.
func parseOpenmoatDoc(data []byte) (map[string]omRow, error) {
	rows := map[string]omRow{}
	in, inTable, done, seen, wanted := false, false, false, false, false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "## ") {
			in, inTable, done = line == omHeading, false, false
			seen = seen || in
			continue
		}
		if !in || done {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			done = inTable && wanted
			inTable = false
			continue
		}
		if separatorRow.MatchString(line) {
			inTable = true
			continue
		}
		if !inTable {
			wanted = splitRow(line)[0] == "fixture" // the header
			continue
		}
		if !wanted {
			continue
		}
		cells := splitRow(line)
		id := strings.Trim(cells[0], "`")
		if id == "" || strings.ContainsAny(id, " \t") {
			return nil, fmt.Errorf("line %d: first cell %q is not a fixture id", n, id)
		}
		if prev, dup := rows[id]; dup {
			return nil, fmt.Errorf("line %d: %s is already listed on line %d", n, id, prev.line)
		}
		rows[id] = omRow{line: n, machine: strings.HasPrefix(cells[len(cells)-1], machineNote)}
	}
	if !seen {
		return nil, fmt.Errorf("no %q section", omHeading)
	}
	return rows, sc.Err()
}
