package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestOmScope(t *testing.T) {
	for _, tc := range []struct {
		c    omCase
		want bool
	}{
		{omCase{Threat: "T1", Kind: "shell", Action: json.RawMessage(`"cat ~/.ssh/id_rsa"`)}, true},
		{omCase{Threat: "T2", Kind: "fs_read", Action: json.RawMessage(`"~/.aws/credentials"`), Extra: json.RawMessage(`null`)}, true},
		{omCase{Threat: "T12", Kind: "shell", Action: json.RawMessage(`"curl https://x"`)}, false},
		{omCase{Threat: "T9", Kind: "shell", Action: json.RawMessage(`"moat allow --last"`)}, false},
		{omCase{Threat: "T10", Kind: "fs_write", Action: json.RawMessage(`"C:/Users/me/x.exe"`)}, false},
		{omCase{Threat: "T11", Kind: "shell", Action: json.RawMessage(`"cat k"`), Extra: json.RawMessage(`{"links":[]}`)}, false},
		{omCase{Threat: "T8", Kind: "mcp_tool", Action: json.RawMessage(`{}`)}, false},
		{omCase{Threat: "T8", Kind: "mcp_tool", Action: json.RawMessage(`"mcp__shell__run"`)}, false},
		{omCase{Threat: "T8", Kind: "mcp_tool", Action: json.RawMessage(`{"name":"mcp__fetch__fetch","hosts":["https://evil.com"]}`)}, false},
		{omCase{Threat: "T8", Kind: "mcp_tool", Action: json.RawMessage(`{"name":"mcp__filesystem__read_file","reads":["~/.aws/credentials"]}`)}, true},
	} {
		if got := omScope(tc.c); got != tc.want {
			t.Errorf("%s %s %s: in scope %v, want %v", tc.c.Threat, tc.c.Kind, tc.c.Action, got, tc.want)
		}
	}
}

// /Users/me is the home and /p the project, in shell commands and in
// the file tools' paths.
func TestOmEvent(t *testing.T) {
	ev, ok := omEvent(omCase{ID: "x", Kind: "shell", Action: json.RawMessage(`"cat /Users/me/.ssh/id_rsa /p/.env"`)}, "/h", "/w/p")
	if !ok || !strings.Contains(string(ev), `"command":"cat /h/.ssh/id_rsa /w/p/.env"`) || !strings.Contains(string(ev), `"tool_name":"Bash"`) {
		t.Errorf("shell: %s", ev)
	}
	ev, ok = omEvent(omCase{ID: "y", Kind: "fs_write", Action: json.RawMessage(`"~/.zshrc"`)}, "/h", "/w/p")
	if !ok || !strings.Contains(string(ev), `"file_path":"/h/.zshrc"`) || !strings.Contains(string(ev), `"tool_name":"Write"`) {
		t.Errorf("fs_write: %s", ev)
	}
	ev, ok = omEvent(omCase{ID: "m", Kind: "mcp_tool", Action: json.RawMessage(`{"name":"mcp__filesystem__write_file","writes":["~/.zshrc"]}`)}, "/h", "/w/p")
	if !ok || !strings.Contains(string(ev), `"tool_name":"mcp__filesystem__write_file"`) || !strings.Contains(string(ev), `"path":"/h/.zshrc"`) {
		t.Errorf("mcp_tool: %s", ev)
	}
	ev, ok = omEvent(omCase{ID: "z", Kind: "fs_read", Action: json.RawMessage(`".env"`)}, "/h", "/w/p")
	if !ok || !strings.Contains(string(ev), `"file_path":"/w/p/.env"`) {
		t.Errorf("fs_read: %s", ev)
	}
}

func TestParseOpenmoatDoc(t *testing.T) {
	page := "# x\n\n## openmoat\n\n| figure | target |\n|---|---|\n| a b | c |\n\n| fixture | command | why |\n|---|---|---|\n| `T1-a` | `x` | y |\n| `T3-b` | `z` | w |\n\n## next\n\n| fixture | c |\n|---|---|\n| `T9-c` | d |\n"
	rows, err := parseOpenmoatDoc([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows["T1-a"].line != 11 || rows["T3-b"].line != 12 || rows["T1-a"].machine {
		t.Errorf("rows %v", rows)
	}
	if _, err := parseOpenmoatDoc([]byte(strings.Replace(page, "`T3-b`", "`T1-a`", 1))); err == nil {
		t.Error("a fixture listed twice is not an error")
	}
	if _, err := parseOpenmoatDoc([]byte("# x\n")); err == nil {
		t.Error("a page without the section is not an error")
	}
}

// A miss the page lists is documented; one it does not list is not; a row
// whose fixture is denied now is stale; the target counts asks as denials.
func TestJudgeOpenmoat(t *testing.T) {
	cases := []omCase{{ID: "d1", Expected: "deny"}, {ID: "d2", Expected: "deny"}, {ID: "d3", Expected: "deny"},
		{ID: "a1", Expected: "ask"}, {ID: "a2", Expected: "ask"}, {ID: "out", Expected: "deny"}}
	answers := map[string]answer{"d1": {Kind: denied}, "d2": {Kind: allowed}, "d3": {Kind: asked}, "a1": {Kind: denied}, "a2": {Kind: allowed}}
	r := judgeOpenmoat(cases, answers, map[string]omRow{"d2": {line: 5}, "d1": {line: 6}})
	if r.deny != 3 || r.denyDenied != 2 || r.ask != 2 || r.askDenied != 1 || r.askLets != 1 || r.outOfScope != 1 {
		t.Errorf("figures %+v", r)
	}
	if len(r.misses) != 1 || !r.misses[0].documented || len(r.stale) != 1 || !strings.Contains(r.stale[0], "d1") {
		t.Errorf("misses %+v, stale %q", r.misses, r.stale)
	}
	if r.ok() {
		t.Error("a stale row and 67% are ok")
	}
	// A machine-dependent row whose fixture is denied here is not stale.
	if r := judgeOpenmoat(cases, answers, map[string]omRow{"d2": {line: 5}, "d1": {line: 6, machine: true}}); len(r.stale) > 0 {
		t.Errorf("machine row stale: %q", r.stale)
	}
	r = judgeOpenmoat(cases, answers, map[string]omRow{})
	if len(r.misses) != 1 || r.misses[0].documented {
		t.Errorf("undocumented miss: %+v", r.misses)
	}
}
