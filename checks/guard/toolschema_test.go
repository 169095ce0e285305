package guard

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/testrace"
)

// newSchemaCheck makes tool_schema from YAML options ("" for none).
func newSchemaCheck(t testing.TB, options string) (engine.Builtin, error) {
	t.Helper()
	if options == "" {
		return NewToolSchema(nil)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(options), &doc); err != nil {
		t.Fatal(err)
	}
	return NewToolSchema(doc.Content[0])
}

func mustSchemaCheck(t testing.TB, options string) engine.Builtin {
	t.Helper()
	c, err := newSchemaCheck(t, options)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func checkSchema(t *testing.T, c engine.Builtin, project, tool, input string) engine.Verdict {
	t.Helper()
	call := guardCall(tool, input)
	call.Project = project
	v, err := c.Check(context.Background(), call)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, input, err)
	}
	return v
}

// Inputs shaped like real Claude Code events.
var validBuiltinInputs = []struct{ tool, input string }{
	{"Bash", `{"command":"go test ./...","description":"Run the tests","timeout":120000,"run_in_background":false}`},
	{"Bash", `{"command":"ls","dangerouslyDisableSandbox":true,"timeout":1.5}`},
	{"Read", `{"file_path":"/repo/main.go","offset":10,"limit":200}`},
	{"Read", `{"file_path":"/repo/a.pdf","pages":"1-5"}`},
	{"Write", `{"file_path":"/repo/a.txt","content":"hello\n"}`},
	{"Edit", `{"file_path":"/repo/a.go","old_string":"a","new_string":"b","replace_all":true}`},
	{"MultiEdit", `{"file_path":"/repo/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":false}]}`},
	{"MultiEdit", `{"file_path":"/repo/a.go","edits":[]}`},
	{"NotebookEdit", `{"notebook_path":"/repo/n.ipynb","new_source":"print(1)","cell_id":"c1","cell_type":"code","edit_mode":"insert"}`},
	{"Glob", `{"pattern":"**/*.go"}`},
	{"Glob", `{"pattern":"*.md","path":"/repo/docs"}`},
	{"Grep", `{"pattern":"func main","output_mode":"content","-n":true,"-C":2,"head_limit":50}`},
	{"Grep", `{"pattern":"x","output_mode":"files_with_matches","glob":"*.go","-i":true,"type":"go","multiline":false}`},
	{"Grep", `{"pattern":"x","output_mode":"count"}`},
	{"WebFetch", `{"url":"https://example.com","prompt":"Summarise the page"}`},
	{"WebSearch", `{"query":"go 1.26 release notes","allowed_domains":["go.dev"],"blocked_domains":[]}`},
	{"Task", `{"description":"Review the parser","prompt":"Review parser.go","subagent_type":"general-purpose","model":"sonnet"}`},
	{"Task", `{"description":"d","prompt":"p","model":"some-future-model","effort":"ultra","mode":"newmode"}`},
	{"Agent", `{"description":"Review","prompt":"Review it","run_in_background":true,"name":"rev","isolation":"worktree"}`},
	{"TodoWrite", `{"todos":[{"content":"Write tests","status":"in_progress","activeForm":"Writing tests"},{"content":"Ship","status":"pending","activeForm":"Shipping"},{"content":"Plan","status":"completed","activeForm":"Planning"}]}`},
	{"TodoWrite", `{"todos":[]}`},
	// Fields the schemas do not know are allowed: new releases add them.
	{"Bash", `{"command":"ls","sandbox_profile":"strict","new_field":{"x":[1]}}`},
	{"Grep", `{"pattern":"x","-n":true,"-P":true}`},
	{"TodoWrite", `{"todos":[{"content":"a","status":"pending","activeForm":"A","id":"1","priority":"high"}]}`},
}

func TestToolSchemaBuiltinValid(t *testing.T) {
	c := mustSchemaCheck(t, "")
	for _, tc := range validBuiltinInputs {
		if v := checkSchema(t, c, "", tc.tool, tc.input); v.Decision != "" {
			t.Errorf("%s %s: got %+v, want no opinion", tc.tool, tc.input, v)
		}
	}
}

func TestToolSchemaBuiltinInvalid(t *testing.T) {
	c := mustSchemaCheck(t, "")
	for _, tc := range []struct {
		tool, input string
		want        []string // each in the reason
		missing     string   // the system message's list; "" when nothing is missing
	}{
		{"Bash", `{}`, []string{`missing required field "command"`}, "command"},
		{"Bash", `{"command":["ls"]}`, []string{`field "command": got array, want string`}, ""},
		{"Bash", `{"command":"ls","timeout":"120000"}`, []string{`field "timeout": got string, want number`}, ""},
		{"Bash", `{"command":"ls","run_in_background":"true"}`, []string{`field "run_in_background": got string, want boolean`}, ""},
		// Everything at once: the agent fixes it all in one retry.
		{"Bash", `{"description":"List","timeout":"5"}`, []string{`missing required field "command"`, `field "timeout": got string, want number`}, "command"},
		{"Read", `{"offset":1}`, []string{`missing required field "file_path"`}, "file_path"},
		{"Read", `{"file_path":"/a","limit":"100"}`, []string{`field "limit": got string, want number`}, ""},
		{"Write", `{"file_path":"/a"}`, []string{`missing required field "content"`}, "content"},
		{"Write", `{"content":"x"}`, []string{`missing required field "file_path"`}, "file_path"},
		{"Write", `{"file_path":"/a","content":null}`, []string{`field "content": got null, want string`}, ""},
		{"Edit", `{"file_path":"/a","new_string":"b"}`, []string{`missing required field "old_string"`}, "old_string"},
		{"Edit", `{"file_path":"/a","old_string":"a","new_string":"b","replace_all":"yes"}`, []string{`field "replace_all": got string, want boolean`}, ""},
		{"Edit", `{}`, []string{`"file_path"`, `"old_string"`, `"new_string"`}, "file_path, old_string, new_string"},
		{"MultiEdit", `{"file_path":"/a"}`, []string{`missing required field "edits"`}, "edits"},
		{"MultiEdit", `{"file_path":"/a","edits":"a->b"}`, []string{`field "edits": got string, want array`}, ""},
		{"MultiEdit", `{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"},{"old_string":"a"}]}`, []string{`missing required field "edits[1].new_string"`}, "edits[1].new_string"},
		{"MultiEdit", `{"file_path":"/a","edits":[{"old_string":1,"new_string":"b"}]}`, []string{`field "edits[0].old_string": got number, want string`}, ""},
		{"NotebookEdit", `{"notebook_path":"/n.ipynb"}`, []string{`missing required field "new_source"`}, "new_source"},
		{"NotebookEdit", `{"notebook_path":"/n.ipynb","new_source":"x","cell_type":"raw"}`, []string{`field "cell_type": got "raw", want one of "code", "markdown"`, "allowed value"}, ""},
		{"NotebookEdit", `{"notebook_path":"/n.ipynb","new_source":"x","edit_mode":"append"}`, []string{`field "edit_mode": got "append", want one of "replace", "insert", "delete"`}, ""},
		{"Glob", `{"path":"/repo"}`, []string{`missing required field "pattern"`}, "pattern"},
		{"Glob", `{"pattern":["*.go"]}`, []string{`field "pattern": got array, want string`}, ""},
		{"Grep", `{"output_mode":"content"}`, []string{`missing required field "pattern"`}, "pattern"},
		{"Grep", `{"pattern":"x","output_mode":"lines"}`, []string{`field "output_mode": got "lines", want one of "content", "files_with_matches", "count"`}, ""},
		{"Grep", `{"pattern":"x","-n":"yes","-C":"2"}`, []string{`field "-n": got string, want boolean`, `field "-C": got string, want number`}, ""},
		{"WebFetch", `{"url":"https://example.com"}`, []string{`missing required field "prompt"`}, "prompt"},
		{"WebFetch", `{"url":5,"prompt":"p"}`, []string{`field "url": got number, want string`}, ""},
		{"WebSearch", `{}`, []string{`missing required field "query"`}, "query"},
		{"WebSearch", `{"query":"q","allowed_domains":"go.dev"}`, []string{`field "allowed_domains": got string, want array`}, ""},
		{"WebSearch", `{"query":"q","blocked_domains":["a.com",7]}`, []string{`field "blocked_domains[1]": got number, want string`}, ""},
		{"Task", `{"description":"d","subagent_type":"x"}`, []string{`missing required field "prompt"`}, "prompt"},
		{"Task", `{"description":"d","prompt":"p","run_in_background":"true"}`, []string{`field "run_in_background": got string, want boolean`}, ""},
		{"Agent", `{"prompt":"p"}`, []string{`missing required field "description"`}, "description"},
		{"TodoWrite", `{}`, []string{`missing required field "todos"`}, "todos"},
		{"TodoWrite", `{"todos":{"content":"a"}}`, []string{`field "todos": got object, want array`}, ""},
		{"TodoWrite", `{"todos":[{"content":"a","status":"done","activeForm":"A"}]}`, []string{`field "todos[0].status": got "done", want one of "pending", "in_progress", "completed"`}, ""},
		{"TodoWrite", `{"todos":[{"content":"a","status":"pending"},{"status":"pending","activeForm":"B"}]}`,
			[]string{`missing required field "todos[0].activeForm"`, `missing required field "todos[1].content"`}, "todos[0].activeForm, todos[1].content"},
	} {
		t.Run(tc.tool+" "+tc.input, func(t *testing.T) {
			v := checkSchema(t, c, "", tc.tool, tc.input)
			if v.Decision != engine.Deny {
				t.Fatalf("got %+v, want deny", v)
			}
			prefix := "⚠️ BLOCKED: " + tc.tool + " tool input does not match its schema: "
			if !strings.HasPrefix(v.Reason, prefix) || !strings.Contains(v.Reason, "Call "+tc.tool+" again with every required field") {
				t.Errorf("reason %q: want it to start %q and say what to do", v.Reason, prefix)
			}
			for _, s := range tc.want {
				if !strings.Contains(v.Reason, s) {
					t.Errorf("reason %q lacks %q", v.Reason, s)
				}
			}
			want := "⚠️ BLOCKED: " + tc.tool + " tool input does not match its schema."
			if tc.missing != "" {
				want = "⚠️ BLOCKED: Missing required fields: [" + tc.missing + "]"
			}
			if v.SystemMessage != want {
				t.Errorf("system message %q, want %q", v.SystemMessage, want)
			}
		})
	}
}

// TestToolSchemaReason pins the whole text the agent and the user read.
func TestToolSchemaReason(t *testing.T) {
	v := checkSchema(t, mustSchemaCheck(t, ""), "", "Bash", `{"timeout":"120000","description":"List files"}`)
	want := `⚠️ BLOCKED: Bash tool input does not match its schema: missing required field "command"; field "timeout": got string, want number. Call Bash again with every required field, each of the right type.`
	if v.Reason != want {
		t.Errorf("reason\n%s\nwant\n%s", v.Reason, want)
	}
	if v.SystemMessage != "⚠️ BLOCKED: Missing required fields: [command]" {
		t.Errorf("system message %q", v.SystemMessage)
	}
}

// TestToolSchemaIssueCap: a huge bad input gives a bounded reason.
func TestToolSchemaIssueCap(t *testing.T) {
	items := strings.Repeat(`{"content":1,"status":"x","activeForm":2},`, 100)
	v := checkSchema(t, mustSchemaCheck(t, ""), "", "TodoWrite", `{"todos":[`+strings.TrimSuffix(items, ",")+`]}`)
	if v.Decision != engine.Deny || !strings.Contains(v.Reason, "; and 280 more.") || strings.Count(v.Reason, "; ") != maxSchemaIssues {
		t.Fatalf("got %q", v.Reason)
	}
}

func TestToolSchemaNoOpinion(t *testing.T) {
	c := mustSchemaCheck(t, "")
	for _, tc := range []struct{ tool, input string }{
		{"mcp__github__create_issue", `{}`},   // no schema for it
		{"mcp__github__create_issue", ``},     // no schema, no input
		{"Bash", `["ls"]`},                    // not an object: malformed_tool_call's business
		{"Bash", `"ls"`},                      // idem
		{"bash", `{}`},                        // names are case-sensitive
		{"ExitPlanMode", `{"plan":5}`},        // not a tool we have a schema for
		{"Write</invoke>", `{"content":"x"}`}, // malformed_tool_call's business
	} {
		if v := checkSchema(t, c, "", tc.tool, tc.input); v.Decision != "" {
			t.Errorf("%s %s: got %+v, want no opinion", tc.tool, tc.input, v)
		}
	}
	off := mustSchemaCheck(t, "builtin_tools: false\n")
	if v := checkSchema(t, off, "", "Bash", `{}`); v.Decision != "" {
		t.Errorf("builtin_tools: false: got %+v, want no opinion", v)
	}
	on := mustSchemaCheck(t, "builtin_tools: true\n")
	if v := checkSchema(t, on, "", "Bash", `{}`); v.Decision != engine.Deny {
		t.Errorf("builtin_tools: true: got %+v, want deny", v)
	}
}

const issueSchemaOptions = `
schemas:
  - matcher: "mcp__github__create_issue"
    schema:
      type: object
      required: [owner, repo, title]
      properties:
        owner: {type: string}
        repo: {type: string}
        title: {type: string}
        labels: {type: array, items: {type: string}}
  - matcher: "mcp__db__*|mcp__sql__query"
    schema: '{"type":"object","required":["query"],"properties":{"query":{"type":"string","minLength":1}},"additionalProperties":false}'
  - matcher: "Bash"
    schema: {"type": "object", "required": ["description"]}
  - matcher: "Write"
    schema: {"type": "object", "required": ["file_path"], "properties": {"file_path": {"type": "string", "pattern": "^/"}}}
`

func TestToolSchemaUserInline(t *testing.T) {
	c := mustSchemaCheck(t, issueSchemaOptions)
	for _, tc := range []struct {
		tool, input string
		want        []string // in the reason; nil means no opinion
		missing     string
	}{
		{"mcp__github__create_issue", `{"owner":"o","repo":"r","title":"t","labels":["bug"],"body":"extra fields are fine"}`, nil, ""},
		{"mcp__github__create_issue", `{}`, []string{`"owner"`, `"repo"`, `"title"`}, "owner, repo, title"},
		{"mcp__github__create_issue", ``, nil, ""}, // no tool_input: a partial event, not a model's call
		{"mcp__github__create_issue", `{"owner":1,"repo":"r","labels":[1]}`,
			[]string{`missing required field "title"`, `field "owner": got number, want string`, `field "labels[0]": got number, want string`}, "title"},
		{"mcp__github__list_issues", `{}`, nil, ""}, // matches no schema
		{"mcp__db__query", `{"query":"select 1"}`, nil, ""},
		{"mcp__sql__query", `{}`, []string{`missing required field "query"`}, "query"},
		{"mcp__db__query", `{"query":"select 1","limit":5}`, []string{`unexpected field "limit" (allowed: query)`, "no fields the schema does not allow"}, ""},
		// A fault only the library names (minLength) comes in its words.
		{"mcp__db__query", `{"query":""}`, []string{`field "query": minLength: ""`}, ""},
		// A user schema for a built-in tool adds to the built-in one.
		{"Bash", `{"command":"ls"}`, []string{`missing required field "description"`}, "description"},
		{"Bash", `{}`, []string{`missing required field "description"`, `missing required field "command"`}, "description, command"},
		{"Bash", `{"command":"ls","description":"List"}`, nil, ""},
		// A fault two schemas find is named once, in the walk's words.
		{"Write", `{"content":"x"}`, []string{`schema: missing required field "file_path". Call Write`}, "file_path"},
		{"Write", `{"file_path":"a.txt","content":"x"}`, []string{`schema: field "file_path": pattern: "a.txt" does not match regular expression "^/". Call Write`}, ""},
		// Missing fields come first, whichever schema found them.
		{"Bash", `{"timeout":"5"}`, []string{`schema: missing required field "description"; missing required field "command"; field "timeout": got string, want number. Call Bash`}, "description, command"},
	} {
		t.Run(tc.tool+" "+tc.input, func(t *testing.T) {
			v := checkSchema(t, c, "", tc.tool, tc.input)
			if tc.want == nil {
				if v.Decision != "" {
					t.Fatalf("got %+v, want no opinion", v)
				}
				return
			}
			if v.Decision != engine.Deny {
				t.Fatalf("got %+v, want deny", v)
			}
			for _, s := range tc.want {
				if !strings.Contains(v.Reason, s) {
					t.Errorf("reason %q lacks %q", v.Reason, s)
				}
			}
			if tc.missing != "" && v.SystemMessage != "⚠️ BLOCKED: Missing required fields: ["+tc.missing+"]" {
				t.Errorf("system message %q, want the missing %s", v.SystemMessage, tc.missing)
			}
		})
	}
}

// TestToolSchemaEscapesJudgedAsTheToolReadsThem: an escape the tool
// decodes one way is judged that way: a lone surrogate before "rm -rf"
// does not hide the "r" from a user schema's pattern.
func TestToolSchemaEscapesJudgedAsTheToolReadsThem(t *testing.T) {
	c := mustSchemaCheck(t, `schemas:
  - matcher: "mcp__sh__run"
    schema: {"type": "object", "properties": {"cmd": {"type": "string", "not": {"pattern": "rm -rf"}}}}
`)
	for _, in := range []string{`{"cmd":"rm -rf /"}`, `{"cmd":"\ud800\u0072m -rf /"}`, `{"cmd":"\u0072m -rf /"}`} {
		if v := checkSchema(t, c, "", "mcp__sh__run", in); v.Decision != engine.Deny {
			t.Errorf("%s: got %+v, want deny", in, v)
		}
	}
	if v := checkSchema(t, c, "", "mcp__sh__run", `{"cmd":"\ud800\u0072m -r /"}`); v.Decision != "" {
		t.Errorf("a harmless command with a lone surrogate: got %+v, want no opinion", v)
	}
}

func writeSchemaFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestToolSchemaUserFile(t *testing.T) {
	project := t.TempDir()
	outside := t.TempDir()
	writeSchemaFile(t, filepath.Join(project, "schemas", "db.json"),
		`{"type":"object","required":["sql"],"properties":{"sql":{"type":"string"},"timeout":{"type":"integer"}}}`)
	writeSchemaFile(t, filepath.Join(project, "schemas", "bad.json"), `{"type":"object","required":`)
	writeSchemaFile(t, filepath.Join(project, "schemas", "typo.json"), `{"type":"obect"}`)
	writeSchemaFile(t, filepath.Join(outside, "secret.json"), `{"type":"object"}`)
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(project, "schemas", "escape.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("db.json", filepath.Join(project, "schemas", "alias.json")); err != nil {
		t.Fatal(err)
	}
	c := mustSchemaCheck(t, `
schemas:
  - matcher: "mcp__db__*"
    file: schemas/db.json
  - matcher: "mcp__alias__run"
    file: ./schemas/alias.json
  - matcher: "mcp__gone__*"
    file: schemas/missing.json
  - matcher: "mcp__bad__*"
    file: schemas/bad.json
  - matcher: "mcp__typo__*"
    file: schemas/typo.json
  - matcher: "mcp__escape__*"
    file: schemas/escape.json
`)
	ctx := context.Background()
	run := func(tool, input string) (engine.Verdict, error) {
		call := guardCall(tool, input)
		call.Project = project
		return c.Check(ctx, call)
	}
	for _, tc := range []struct {
		tool, input string
		deny        string // in the reason; "" means no opinion
	}{
		{"mcp__db__query", `{"sql":"select 1","timeout":30}`, ""},
		{"mcp__db__query", `{"timeout":1.5}`, `missing required field "sql"; field "timeout": got number, want integer`},
		{"mcp__alias__run", `{}`, `missing required field "sql"`},
		{"mcp__other__x", `{}`, ""}, // the broken entries below are never read for it
	} {
		v, err := run(tc.tool, tc.input)
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if (v.Decision == engine.Deny) != (tc.deny != "") || !strings.Contains(v.Reason, tc.deny) {
			t.Errorf("%s %s: got %+v, want deny %q", tc.tool, tc.input, v, tc.deny)
		}
	}
	for _, tc := range []struct{ tool, want string }{
		{"mcp__gone__x", "schemas[2]"},
		{"mcp__gone__x", "schemas/missing.json: cannot read it"},
		{"mcp__bad__x", "schemas/bad.json: not a usable JSON Schema"},
		{"mcp__typo__x", `"obect" is not a JSON type`},
		{"mcp__escape__x", "outside the project root"},
	} {
		v, err := run(tc.tool, `{}`)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: verdict %+v, error %v; want an error saying %q", tc.tool, v, err, tc.want)
		}
	}
	// Without a project root there is nothing to read the file from.
	call := guardCall("mcp__db__q", `{}`)
	if _, err := c.Check(ctx, call); err == nil || !strings.Contains(err.Error(), "no project root") {
		t.Errorf("no project: error %v", err)
	}
}

func TestToolSchemaOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		name, options string
		want          []string
	}{
		{"unknown option", "builtin_tool: false\n", []string{`unknown option "builtin_tool"`, "line 1"}},
		{"unknown entry key", "schemas:\n  - matcher: x\n    scheme: {type: object}\n", []string{`unknown option "schemas[0].scheme"`}},
		{"bad inline type", "schemas:\n  - matcher: x\n    schema: {type: strng}\n", []string{"schemas[0].schema", `"strng" is not a JSON type`, "line 3"}},
		{"bad nested type", "schemas:\n  - matcher: a\n    schema: {type: object}\n  - matcher: b\n    schema: {properties: {n: {type: int}}}\n",
			[]string{"line 5: schemas[1].schema", `/properties/n/type: "int"`}},
		{"required not a list", "schemas:\n  - matcher: a\n    schema: {required: owner}\n", []string{"schemas[0].schema"}},
		{"schema not an object", "schemas:\n  - matcher: a\n    schema: 5\n", []string{"schemas[0].schema", "must be a JSON object"}},
		{"schema bad JSON string", "schemas:\n  - matcher: a\n    schema: '{\"type\": '\n", []string{"schemas[0].schema"}},
		{"remote ref", "schemas:\n  - matcher: a\n    schema: {$ref: 'https://example.com/s.json'}\n", []string{"schemas[0].schema"}},
		{"old draft", "schemas:\n  - matcher: a\n    schema: {$schema: 'http://json-schema.org/draft-04/schema#'}\n", []string{"schemas[0].schema", "not supported"}},
		{"bad pattern", "schemas:\n  - matcher: a\n    schema: {properties: {x: {pattern: '(('}}}\n", []string{"schemas[0].schema", "pattern"}},
		{"absolute file", "schemas:\n  - matcher: a\n    file: /etc/schema.json\n", []string{"schemas[0].file", "absolute", "line 3"}},
		{"dotdot file", "schemas:\n  - matcher: a\n    file: ../other/schema.json\n", []string{"schemas[0].file", "leaves the project"}},
		{"inner dotdot file", "schemas:\n  - matcher: a\n    file: schemas/../../x.json\n", []string{"schemas[0].file", "leaves the project"}},
		{"both", "schemas:\n  - matcher: a\n    file: s.json\n    schema: {type: object}\n", []string{"schemas[0]", "not both"}},
		{"neither", "schemas:\n  - matcher: a\n", []string{"schemas[0]", "inline as schema or in a JSON file as file"}},
		{"no matcher", "schemas:\n  - schema: {type: object}\n", []string{"schemas[0]", "matcher is missing"}},
		{"bad matcher", "schemas:\n  - matcher: 'a|'\n    schema: {type: object}\n", []string{"schemas[0].matcher", "empty alternative"}},
		{"not a mapping", "- a\n", []string{"options must be a mapping"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newSchemaCheck(t, tc.options)
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func BenchmarkToolSchemaBash(b *testing.B) {
	c := mustSchemaCheck(b, "")
	call := guardCall("Bash", `{"command":"go test ./...","description":"Run the tests","timeout":120000,"run_in_background":false}`)
	ctx := context.Background()
	for b.Loop() {
		if v, err := c.Check(ctx, call); err != nil || v.Decision != "" {
			b.Fatal(v, err)
		}
	}
}

func BenchmarkToolSchemaBashMissing(b *testing.B) {
	c := mustSchemaCheck(b, "")
	call := guardCall("Bash", `{"description":"Run the tests","timeout":"120000"}`)
	ctx := context.Background()
	for b.Loop() {
		if v, _ := c.Check(ctx, call); v.Decision != engine.Deny {
			b.Fatal(v)
		}
	}
}

func BenchmarkToolSchemaUnknownTool(b *testing.B) {
	c := mustSchemaCheck(b, "")
	call := guardCall("mcp__github__get_pull_request_reviews", `{"owner":"a","repo":"b","pull_number":1}`)
	ctx := context.Background()
	for b.Loop() {
		if v, _ := c.Check(ctx, call); v.Decision != "" {
			b.Fatal(v)
		}
	}
}

func BenchmarkToolSchemaFactoryInline(b *testing.B) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(issueSchemaOptions), &doc); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := NewToolSchema(doc.Content[0]); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSchemaPathName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/properties/query", `field "query"`},
		{"/properties/todos/items/properties/status", `field "todos[].status"`},
		{"/properties/a~1b", `field "a/b"`},
		{"/items", `field "[]"`},
		{"/allOf/0/properties/x", "at /allOf/0/properties/x"},
	} {
		if got := schemaPathName(tc.in); got != tc.want {
			t.Errorf("schemaPathName(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestToolSchemaReadsInputAsJSONDoes: the tool input the schemas judge is
// what json.Unmarshal gives: the same Go types (map[string]any, []any,
// float64, string, bool, nil), escapes decoded, a repeated key's last
// value kept, at any depth; and what is not JSON is not judged.
func TestToolSchemaReadsInputAsJSONDoes(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`{"command":"ls -la","timeout":120000,"run_in_background":false,"x":null}`,
		`{"a":[1,2.5,-3e2,{"b":[]}],"c":{"d":{"e":"f"}}}`,
		`{"s":"tab\there \"quoted\" \u00e9 \ud83d\ude00 back\\slash \/"}`,
		`{"k":1,"k":"second"}`,
		`{"o":{"file_path":"ok.txt","file_path":".env"},"l":[{"a":1,"a":2}]}`,
		// A lone surrogate: gjson would swallow the escape after it.
		`{"cmd":"\ud800\u0072m -rf","k":"\udc00\ud800","\ud800\u0061":1,"\ud800\u0062":2}`,
		"{\"bad\":\"a\xffb\",\"\xff\":1,\"\xfe\":2}",
		`{"n":0.1,"m":12345678901234567890,"neg":-0}`,
		` { "spaced" : [ true , false , null ] } `,
	} {
		var want any
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got, ok := toolInputValue([]byte(in))
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n read %#v, %v\n json %#v", in, got, ok, want)
		}
	}
	// A number past a float64's range is read as an infinity and judged
	// (json.Unmarshal refuses the whole input).
	if v, ok := toolInputValue([]byte(`{"timeout":1e400}`)); !ok || !math.IsInf(v.(map[string]any)["timeout"].(float64), 1) {
		t.Errorf("1e400 read as %#v, %v; want +Inf", v, ok)
	}
	for _, in := range []string{`{"a":`, `{"a":1}}`, `{'a':1}`, `{"a":"\u12"}`} {
		if v, ok := toolInputValue([]byte(in)); ok {
			t.Errorf("%s: read as %#v; want it refused", in, v)
		}
	}
}

// An input nested deep and wide at once is read in one pass. Read level by
// level (gjson's Value re-scans each value once for every level above it),
// 8 MB nested 9,000 deep took about a minute: past an agent's hook timeout,
// where the call goes through unjudged. Read in one pass it takes a fraction
// of a second; the bound is two orders of magnitude above that, so only a
// reading that is not linear can miss it.
func TestToolSchemaDeepWideInputReadInOnePass(t *testing.T) {
	testrace.Skip(t) // one goroutine; the race detector would slow the read tenfold
	const depth, width = 9000, 400
	var b strings.Builder
	b.WriteString(`{"command":"ls","description":"x","timeout":"slow","pad":`)
	row := strings.Repeat("1,", width)
	for range depth {
		b.WriteString("[" + row)
	}
	b.WriteString("0")
	b.WriteString(strings.Repeat("]", depth))
	b.WriteString("}")
	c := mustSchemaCheck(t, "")
	done := make(chan engine.Verdict, 1)
	go func() {
		v, _ := c.Check(context.Background(), guardCall("Bash", b.String()))
		done <- v
	}()
	select {
	case v := <-done:
		if v.Decision != engine.Deny || !strings.Contains(v.Reason, `field "timeout": got string, want number`) {
			t.Errorf("deep input with a string timeout: %+v; want the timeout's type denied", v)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("a %d-byte input nested %d deep was not judged within 20 s", b.Len(), depth)
	}
}
