package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/engine"
)

// TestWellKnownTableReads: the embedded table reads, every argument has a
// role the guards know, every runs template names arguments of its row,
// and the reference filesystem server's tools are all there.
func TestWellKnownTableReads(t *testing.T) {
	rows, err := parseToolTable(wellKnownJSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"read_file", "read_text_file", "read_media_file", "read_multiple_files", "write_file",
		"edit_file", "create_directory", "move_file", "list_directory", "directory_tree", "search_files", "get_file_info",
		"execute_command", "start_process", "git_add", "delete_file", "copy_file"} {
		if _, ok := rows[name]; !ok {
			t.Errorf("%s is not in the table", name)
		}
	}
	for name, row := range rows {
		if strings.ToLower(name) != name || name[0] < 'a' || name[0] > 'z' {
			t.Errorf("%s: lookupTool finds only names that start with a-z and are lower case", name)
		}
		for _, w := range row.Runs {
			if arg, ok := strings.CutPrefix(w, "{"); ok {
				if _, known := row.Args[strings.TrimSuffix(arg, "}")]; !known {
					t.Errorf("%s: runs names %s, which is not one of its arguments", name, w)
				}
			}
		}
	}
}

// TestWellKnownTableRefusesMistakes: a role the guards do not know, or a
// tool given twice, is an error, not a tool left unjudged.
func TestWellKnownTableRefusesMistakes(t *testing.T) {
	for _, tc := range []struct{ table, want string }{
		{`{"servers":[{"name":"a","tools":{"t":{"args":{"p":"reads"}}}}]}`, `a.t: argument p has no role "reads"`},
		{`{"servers":[{"name":"a","tools":{"t":{"args":{}}}},{"name":"b","tools":{"t":{"args":{}}}}]}`, "b.t: the tool is in the table twice"},
		{`{"servers":`, "the table is not valid JSON"},
	} {
		if _, err := parseToolTable([]byte(tc.table)); err == nil || err.Error() != tc.want {
			t.Errorf("parseToolTable(%s) = %v, want %s", tc.table, err, tc.want)
		}
	}
}

func TestBareToolName(t *testing.T) {
	for in, want := range map[string]string{
		"mcp__filesystem__read_file":             "read_file",
		"mcp__plugin_p_fs__write_file":           "write_file",
		"filesystem__read_file":                  "read_file",
		"execute_command":                        "execute_command",
		"mcp__x__":                               "mcp__x__",
		"mcp__command_line__execute_command":     "execute_command",
		"mcp__workspace_tools__copy_files_batch": "copy_files_batch",
	} {
		if got := bareToolName(in); got != want {
			t.Errorf("bareToolName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLookupToolNames: a table tool is found under every CLI's form of an
// MCP tool's name; a CLI's own tool, and an unknown one, are not.
func TestLookupToolNames(t *testing.T) {
	for name, want := range map[string]string{
		"read_text_file":                     "filesystem",
		"mcp__filesystem__read_text_file":    "filesystem",
		"mcp_filesystem_read_text_file":      "filesystem",
		"mcp_my_fs_read_text_file":           "filesystem",
		"mcp_command_line_execute_command":   "massgen",
		"mcp__command_line__execute_command": "massgen",
		"mcp_git_git_add":                    "git",
		"mcp_notes_lookup":                   "",
		"mcp_read":                           "",
		"Read":                               "",
		"WebFetch":                           "",
	} {
		row, ok, err := lookupTool(name)
		if err != nil || ok != (want != "") || row.Server != want {
			t.Errorf("lookupTool(%q) = %s %v %v, want %q", name, row.Server, ok, err, want)
		}
	}
	for name, want := range map[string]bool{"mcp__a__b": true, "a__b": true, "mcp_a_b": true, "execute_command": false, "Read": false} {
		if isMCPName(name) != want {
			t.Errorf("isMCPName(%q) = %v", name, !want)
		}
	}
}

// TestActionsOf: what each kind of row stands for, in the guards' terms.
func TestActionsOf(t *testing.T) {
	rows := wellKnown.Get().rows
	for _, tc := range []struct {
		tool, input string
		want        string
	}{
		{"execute_command", `{"command":"ls -la","work_dir":"/w"}`, "cmd cd -- /w || exit\nls -la"},
		{"shell_execute", `{"command":["rm","-rf","a b","~"]}`, "cmd rm -rf 'a b' '~'"},
		{"delete_file", `{"path":"~/x y"}`, "cmd rm -r -- ~/'x y' as"},
		{"move_file", `{"source":"a","destination":"b"}`, "cmd mv -- a b as"},
		{"copy_files_batch", `{"source_base_path":"src"}`, "cmd cp -r -- src . as"},
		{"git_add", `{"repo_path":"/r","files":[".env","it's"]}`, "cmd cd -- /r || exit\ngit add -- .env 'it'\\''s' as"},
		{"git_status", `{}`, "cmd git status as"},
		{"read_multiple_files", `{"paths":["a",".env",3]}`, "read a\nread .env"},
		{"list_directory", `{"path":"d"}`, "list d"},
		{"compare_directories", `{"dir1":"a","dir2":"b"}`, "read_tree a\nread_tree b"},
		{"search_code", `{"path":"src"}`, "search src"},
		{"fetch", `{"url":"file:///etc/shadow"}`, "read /etc/shadow"},
		{"fetch", `{"url":"https://example.com"}`, ""},
		{"execute_command", `{"command":{"not":"a line"}}`, ""},
	} {
		a := actionsOf(tc.tool, rows[tc.tool], []byte(tc.input))
		var got []string
		for _, c := range a.commands {
			s := "cmd " + c.line
			if c.as != "" {
				s += " as"
			}
			got = append(got, s)
		}
		for _, p := range a.paths {
			got = append(got, p.role+" "+p.path)
		}
		for _, s := range a.searches {
			got = append(got, "search "+s)
		}
		if g := strings.Join(got, "\n"); g != tc.want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.tool, tc.input, g, tc.want)
		}
	}
}

// TestWalkStringArgs: the walk of an unknown tool's arguments stops at its
// bounds, and says that it did.
func TestWalkStringArgs(t *testing.T) {
	deep := `"x"`
	for range walkDepth + 1 {
		deep = "[" + deep + "]"
	}
	strs, past := walkStringArgs(gjson.Parse(deep))
	if len(strs) != 0 || !past {
		t.Errorf("a string in %d lists: got %q past %v, want none, past", walkDepth+1, strs, past)
	}
	strs, past = walkStringArgs(gjson.Parse(deep[1 : len(deep)-1]))
	if len(strs) != 1 || past {
		t.Errorf("a string in %d lists: got %q past %v, want it", walkDepth, strs, past)
	}
	many := make([]string, walkStrings+1)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	data, _ := json.Marshal(map[string]any{"a": many})
	if strs, past = walkStringArgs(gjson.ParseBytes(data)); len(strs) != walkStrings || !past {
		t.Errorf("%d strings: got %d past %v", len(many), len(strs), past)
	}
	data, _ = json.Marshal(map[string]any{"long": strings.Repeat("a", walkLongest+1), "url": "https://x/.env", "file": "file:///p/.env", "lines": "a\n.env"})
	if strs, past = walkStringArgs(gjson.ParseBytes(data)); strings.Join(strs, ",") != "file:///p/.env" || !past {
		t.Errorf("got %q past %v", strs, past)
	}
}

// TestUnknownMCPTool: an MCP tool the table does not know is denied a
// protected path anywhere in its arguments, as a write when its name says
// it writes; a string outside the project is no write there.
func TestUnknownMCPTool(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	if err := os.WriteFile(filepath.Join(g.Project, ".env"), []byte("K=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newProtected(t, "")
	for _, tc := range []struct{ tool, input, want string }{
		{"mcp__x__lookup", `{"q":{"files":["notes", ".env"]}}`, protectedDenial(false, ".env", "**/.env")},
		{"mcp__x__get_note", `{"from":".claude/settings.json"}`, ""},
		{"mcp__x__save_note", `{"to":".claude/settings.json"}`, protectedDenial(true, ".claude/settings.json", ".claude/settings.json")},
		{"mcp__x__write_note", `{"to":".claude/settings.json"}`, protectedDenial(true, ".claude/settings.json", ".claude/settings.json")},
		{"mcp__x__write_note", `{"to":"/etc/x"}`, ""},
		{"mcp__x__lookup", `{"q":"README.md"}`, ""},
		// A search term or a pattern that names no file here is no read.
		{"mcp__x__search", `{"q":"id_rsa","glob":"*.pem"}`, ""},
		// Another server's tool with a table tool's name, none of whose
		// arguments the row names: walked as an unknown tool.
		{"mcp__github__search_code", `{"q":"x","files":[".env"]}`, protectedDenial(false, ".env", "**/.env")},
		{"mcp__github__search_code", `{"q":"id_rsa"}`, ""},
		// Not an MCP tool: the CLIs' own tools are judged by name only.
		{"TodoWrite", `{"todos":[{"content":".env"}]}`, ""},
	} {
		call := g.MakeCall(t, checktest.CallSpec{Tool: tc.tool, Input: tc.input})
		checkVerdict(t, p, call, tc.want)
	}
	deep := `".env"`
	for range walkDepth {
		deep = "[" + deep + "]"
	}
	v, _ := p.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "mcp__x__lookup", Input: `{"a":` + deep + `}`}))
	if v.Decision != "" || len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "went unchecked") {
		t.Errorf("past the walk: got %+v, want a note", v)
	}
}

// TestDeleteToolJudgedAsRm: a delete tool's path goes through the
// dangerous-command rules as rm -r, and the denial says so.
func TestDeleteToolJudgedAsRm(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	d := newDanger(t, "")
	v, err := d.Check(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "mcp__workspace_tools__delete_file", Input: `{"path":"~"}`}))
	if err != nil || v.Decision != engine.Deny || !strings.HasSuffix(v.Reason, "(mcp__workspace_tools__delete_file is judged as the command rm -r -- ~.)") {
		t.Errorf("got %+v %v", v, err)
	}
	checkVerdict(t, d, g.MakeCall(t, checktest.CallSpec{Tool: "mcp__workspace_tools__delete_file", Input: `{"path":"build"}`}), "")
}

// BenchmarkParseToolTable: what the first call of a tool that is no CLI's
// own pays, once per hook process, to read the table.
func BenchmarkParseToolTable(b *testing.B) {
	for b.Loop() {
		if _, err := parseToolTable(wellKnownJSON); err != nil {
			b.Fatal(err)
		}
	}
}
