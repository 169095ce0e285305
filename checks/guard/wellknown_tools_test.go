package guard

import (
	"context"
	"strings"
	"testing"

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
		{`{"servers":[{"name":"a","tools":{"t":{"args":{"p":"read"},"defaults":{"q":1}}}}]}`, "a.t: a default for q, which has no role"},
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
		{"search_code", `{"path":"src"}`, "search src (content, no dot files)"},
		{"search_code", `{"path":"src","includeHidden":true,"filePattern":"*.ts| *.js"}`, "search src (content, dot files, globs *.ts *.js)"},
		{"search_code", `{"path":"src","includeHidden":"false"}`, "search src (content, dot files)"},
		{"start_search", `{"path":"src"}`, "search src (names)"},
		{"start_search", `{"path":"src","searchType":"content","filePattern":["!.env"]}`, "search src (content, no dot files, globs !.env)"},
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
			how := "content"
			if a.search.names {
				how = "names"
			} else if a.search.hiddenRole && a.search.hidden {
				how += ", dot files"
			} else if a.search.hiddenRole {
				how += ", no dot files"
			}
			if len(a.search.globs) > 0 {
				how += ", globs " + strings.Join(a.search.globs, " ")
			}
			got = append(got, "search "+s+" ("+how+")")
		}
		if g := strings.Join(got, "\n"); g != tc.want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.tool, tc.input, g, tc.want)
		}
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
