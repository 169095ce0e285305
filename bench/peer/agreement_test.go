package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

const (
	safetyNet = "kenryu42/claude-code-safety-net"
	dcg       = "Dicklesworthstone/destructive_command_guard"
)

// fakeCorpus is a small corpus in the real file's shape: both peers, both
// verdicts, a case with a cwd and one both peers assert.
const fakeCorpus = `{"about": "test", "cases": [
 {"id": 1, "command": "rm -rf /", "expected": "block", "cwd": null, "peers": ["` + safetyNet + `", "` + dcg + `"], "note": "", "also": [], "source": {}},
 {"id": 2, "command": "git clean -nf", "expected": "block", "cwd": null, "peers": ["` + safetyNet + `"], "note": ""},
 {"id": 3, "command": "ls", "expected": "allow", "cwd": "$PROJECT", "peers": ["` + safetyNet + `"], "note": ""},
 {"id": 4, "command": "rm -r /x", "expected": "allow", "cwd": null, "peers": ["` + dcg + `"], "note": ""},
 {"id": 5, "command": "git stash drop", "expected": "block", "cwd": null, "peers": ["` + dcg + `"], "note": ""},
 {"id": 6, "command": "echo hi", "expected": "allow", "cwd": null, "peers": ["` + dcg + `"], "note": ""}
], "skipped": [{"command": "x", "reason": "not read"}]}`

func mustCorpus(t *testing.T, data string) corpus {
	t.Helper()
	c, err := parseCorpus([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseCorpusRejects(t *testing.T) {
	for name, data := range map[string]string{
		"bad verdict":   `{"cases": [{"id": 1, "command": "ls", "expected": "deny", "peers": ["p"]}]}`,
		"unknown cwd":   `{"cases": [{"id": 1, "command": "ls", "expected": "allow", "cwd": "/tmp", "peers": ["p"]}]}`,
		"empty command": `{"cases": [{"id": 1, "command": "", "expected": "allow", "peers": ["p"]}]}`,
		"no peer":       `{"cases": [{"id": 1, "command": "ls", "expected": "allow", "peers": []}]}`,
		"id twice":      `{"cases": [{"id": 1, "command": "ls", "expected": "allow", "peers": ["p"]}, {"id": 1, "command": "pwd", "expected": "allow", "peers": ["p"]}]}`,
		"no cases":      `{"cases": []}`,
		"not JSON":      `cases`,
	} {
		if _, err := parseCorpus([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	c := mustCorpus(t, fakeCorpus)
	if len(c.Cases) != 6 || *c.Cases[2].Cwd != cwdProject || c.Cases[0].Cwd != nil {
		t.Errorf("parsed %+v", c.Cases)
	}
	if got := c.peerNames(); len(got) != 2 || got[0] != dcg || got[1] != safetyNet {
		t.Errorf("peerNames = %v", got)
	}
}

func TestVerdictAgrees(t *testing.T) {
	for _, tc := range []struct {
		expected string
		kind     kind
		want     bool
	}{
		{expectBlock, denied, true},
		{expectBlock, asked, true},
		{expectBlock, allowed, false},
		{expectBlock, failed, false},
		{expectAllow, allowed, true},
		{expectAllow, denied, false},
		{expectAllow, asked, false},
		{expectAllow, failed, false},
	} {
		v := verdict{peerCase{Expected: tc.expected}, answer{Kind: tc.kind}}
		if v.agrees() != tc.want {
			t.Errorf("%s, %s: agrees = %v", tc.expected, tc.kind, !tc.want)
		}
	}
}

// verdictsOf pairs each case of c with the answer of that id.
func verdictsOf(c corpus, answers map[int]answer) []verdict {
	vs := make([]verdict, len(c.Cases))
	for i, pc := range c.Cases {
		vs[i] = verdict{pc, answers[pc.ID]}
	}
	return vs
}

func TestJudgeFiguresAndDisagreements(t *testing.T) {
	c := mustCorpus(t, fakeCorpus)
	a := judge(c, verdictsOf(c, map[int]answer{
		1: {denied, "rule recursive-delete"},
		2: {Kind: allowed},          // disagrees, documented below
		3: {Kind: allowed},          // agrees
		4: {denied, "outside"},      // disagrees, undocumented
		5: {asked, "sure?"},         // an ask agrees with block
		6: {failed, "exit 1: boom"}, // a failure agrees with nothing
	}), documented{peers: map[int]docRow{2: {line: 10, says: expectBlock}}})

	if a.overall != (figures{block: 3, blockDenied: 2, allow: 3, allowAllowed: 1, asked: 1}) {
		t.Errorf("overall %+v", a.overall)
	}
	if f := *a.perPeer[safetyNet]; f != (figures{block: 2, blockDenied: 1, allow: 1, allowAllowed: 1}) {
		t.Errorf("%s: %+v", safetyNet, f)
	}
	if f := *a.perPeer[dcg]; f != (figures{block: 2, blockDenied: 2, allow: 2, allowAllowed: 0, asked: 1}) {
		t.Errorf("%s: %+v", dcg, f)
	}
	if ids := idsOf(a.disagreements); ids != "2 4 6" {
		t.Errorf("disagreements %s, want 2 4 6", ids)
	}
	if ids := idsOf(a.undocumented()); ids != "4 6" {
		t.Errorf("undocumented %s, want 4 6", ids)
	}
	if ids := idsOf(a.failures); ids != "6" {
		t.Errorf("failures %s, want 6", ids)
	}
	if len(a.stale) != 0 {
		t.Errorf("stale %v", a.stale)
	}
	if a.ok() || a.overall.met() {
		t.Error("ok with targets not met")
	}
}

func TestJudgeStale(t *testing.T) {
	c := mustCorpus(t, fakeCorpus)
	all := map[int]answer{1: {Kind: denied}, 2: {Kind: denied}, 3: {Kind: allowed}, 4: {Kind: allowed}, 5: {Kind: denied}, 6: {Kind: allowed}}
	a := judge(c, verdictsOf(c, all), documented{peers: map[int]docRow{
		2:  {line: 7, says: expectBlock}, // now agrees
		4:  {line: 8, says: expectBlock}, // the peer says allow
		99: {line: 9, says: expectAllow}, // no such case
	}})
	want := []string{
		"line 7: case 2 now agrees (block, denied): remove it from the page",
		"line 8: case 4: the page says the peer says block; it says allow",
		"line 9: case 99 is not in the corpus",
	}
	if strings.Join(a.stale, "\n") != strings.Join(want, "\n") {
		t.Errorf("stale:\n%s\nwant:\n%s", strings.Join(a.stale, "\n"), strings.Join(want, "\n"))
	}
	if a.ok() {
		t.Error("ok with a stale page")
	}
	// The same run with an accurate (empty) page passes.
	if a := judge(c, verdictsOf(c, all), documented{}); !a.ok() {
		t.Errorf("not ok: %+v", a)
	}
	// A row that depends on the machine may agree here.
	if a := judge(c, verdictsOf(c, all), documented{peers: map[int]docRow{2: {line: 7, says: expectBlock, machine: true}}}); len(a.stale) > 0 {
		t.Errorf("a machine-dependent row that agrees is stale: %q", a.stale)
	}
}

func TestTargetsAreInclusive(t *testing.T) {
	if !(figures{block: 100, blockDenied: 98, allow: 100, allowAllowed: 97}).met() {
		t.Error("98% and 97% do not meet the targets")
	}
	if (figures{block: 100, blockDenied: 97, allow: 100, allowAllowed: 100}).met() {
		t.Error("97% of block cases meets the 98% target")
	}
	if (figures{block: 100, blockDenied: 100, allow: 100, allowAllowed: 96}).met() {
		t.Error("96% of allow cases meets the 97% target")
	}
}

func TestRenderListsEveryDisagreement(t *testing.T) {
	c := mustCorpus(t, fakeCorpus)
	a := judge(c, verdictsOf(c, map[int]answer{1: {Kind: denied}, 2: {Kind: allowed}, 3: {Kind: allowed},
		4: {denied, "⚠️ BLOCKED: /x is outside\nthe project"}, 5: {Kind: denied}, 6: {Kind: allowed}}),
		documented{peers: map[int]docRow{2: {line: 3, says: expectBlock}, 77: {line: 4, says: expectAllow}}})
	var out bytes.Buffer
	a.render(&out, "docs/peer-agreement.md")
	for _, want := range []string{
		"| block → denied, all peers | 3 | 2 | 66.7% | ≥ 98% | not met |",
		"| allow → allowed, all peers | 3 | 2 | 66.7% | ≥ 97% | not met |",
		"| block → denied, claude-code-safety-net | 2 | 1 | 50.0% | ≥ 98% | not met |",
		"| allow → allowed, destructive_command_guard | 2 | 1 | 50.0% | ≥ 97% | not met |",
		"Disagreements: 2 (1 undocumented, 1 listed in docs/peer-agreement.md)",
		"#4    destructive_command_guard                          allow, denied: rm -r /x",
		"↳ ⚠️ BLOCKED: /x is outside the project",
		"#2    claude-code-safety-net                             block, allowed: git clean -nf",
		"line 4: case 77 is not in the corpus",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if i, j := strings.Index(out.String(), "#4 "), strings.Index(out.String(), "#2 "); i > j {
		t.Error("the undocumented disagreement is not listed first")
	}
}

func TestShowCommand(t *testing.T) {
	for in, want := range map[string]string{
		"ls -la":                 "ls -la",
		"bash <<EOF\nrm\nEOF":    `"bash <<EOF\nrm\nEOF"`,
		strings.Repeat("x", 130): strings.Repeat("x", 120) + "… (130 bytes)",
	} {
		if got := showCommand(in); got != want {
			t.Errorf("showCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

func idsOf(vs []verdict) string {
	var ids []string
	for _, v := range vs {
		ids = append(ids, strconv.Itoa(v.ID))
	}
	return strings.Join(ids, " ")
}
