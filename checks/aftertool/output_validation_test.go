package aftertool

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/checks/limits"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/redact"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

func newOV(t *testing.T, options string) engine.Builtin {
	t.Helper()
	b, err := NewOutputValidation(checktest.OptionsNode(t, options))
	if err != nil {
		t.Fatalf("newOutputValidation(%q): %v", options, err)
	}
	return b
}

// runValidation runs the check on one call and returns its hint ("" for none).
func runValidation(t *testing.T, g *checktest.GuardEnv, v engine.Builtin, s checktest.CallSpec) string {
	t.Helper()
	if s.Hook == "" {
		s.Hook = protocol.PostToolUse
	}
	if s.Input == "" {
		s.Input = `{}`
	}
	verdict, err := v.Check(context.Background(), g.MakeCall(t, s))
	if err != nil {
		t.Fatalf("%+v: %v", s, err)
	}
	if verdict.Decision != "" || verdict.Reason != "" || verdict.SystemMessage != "" {
		t.Errorf("%+v: verdict %+v, want injections only", s, verdict)
	}
	switch len(verdict.Injections) {
	case 0:
		return ""
	case 1:
		if in := verdict.Injections[0]; in.Strategy != engine.UserMessage {
			t.Errorf("%+v: strategy %q, want user_message", s, in.Strategy)
		}
		return verdict.Injections[0].Content
	}
	t.Fatalf("%+v: %d injections, want at most one", s, len(verdict.Injections))
	return ""
}

func TestOutputValidationEmpty(t *testing.T) {
	const (
		readHint   = "Your last Read call returned nothing. Check the file path and the offset/limit (an offset past the end of the file reads nothing), then read again."
		fetchHint  = "Your last WebFetch call returned nothing. Check the URL; the page may need JavaScript or a login, or the prompt asked for something it does not hold. Try a more specific prompt, a smaller page, or another source."
		searchHint = "Your last WebSearch call returned nothing. Broaden or rephrase the query: fewer words, no quotes, no site: or domain filters."
		mcpHint    = "Your last mcp__db__query call returned nothing. Check the arguments (path, id, query), or ask for less at a time (a smaller page or chunk of the content) and try again."
	)
	for _, tc := range []struct {
		name, tool, output, want string
	}{
		// Hits.
		{"missing response", "mcp__db__query", "", mcpHint},
		{"null", "mcp__db__query", `null`, mcpHint},
		{"empty string", "mcp__db__query", `""`, mcpHint},
		{"blank string", "mcp__db__query", `"  \n\t"`, mcpHint},
		{"empty object", "mcp__db__query", `{}`, mcpHint},
		{"empty array", "mcp__db__query", `[]`, mcpHint},
		{"MCP empty text block", "mcp__db__query", `[{"type":"text","text":""}]`, mcpHint},
		{"MCP blank text blocks", "mcp__db__query", `[{"type":"text","text":" "},{"type":"text","text":"\n"}]`, mcpHint},
		{"MCP object, empty content", "mcp__db__query", `{"content":[],"isError":false}`, mcpHint},
		{"MCP object, empty text and structure", "mcp__db__query", `{"content":[{"type":"text","text":""}],"structuredContent":{}}`, mcpHint},
		{"Read past the end", "Read", `{"type":"text","file":{"filePath":"a.go","content":"","numLines":0,"startLine":900,"totalLines":120}}`, readHint},
		{"Read, no line counts", "Read", `{"type":"text","file":{"filePath":"a.go","content":""}}`, readHint},
		{"WebFetch empty result", "WebFetch", `{"bytes":0,"code":200,"codeText":"OK","result":"","durationMs":10,"url":"https://x.test"}`, fetchHint},
		{"WebSearch no results", "WebSearch", `{"query":"q","results":[],"durationSeconds":1}`, searchHint},
		{"WebSearch empty hits", "WebSearch", `{"query":"q","results":[{"tool_use_id":"t","content":[]},""],"durationSeconds":1}`, searchHint},
		// Not empty.
		{"MCP text", "mcp__db__query", `[{"type":"text","text":"0 rows"}]`, ""},
		{"MCP empty JSON list is an answer", "mcp__db__query", `[{"type":"text","text":"[]"}]`, ""},
		{"MCP image block", "mcp__db__query", `[{"type":"text","text":""},{"type":"image","data":"iVBOR","mimeType":"image/png"}]`, ""},
		{"MCP resource block", "mcp__db__query", `[{"type":"resource","resource":{"uri":"file:///a"}}]`, ""},
		{"MCP structured content", "mcp__db__query", `{"content":[],"structuredContent":{"rows":[]}}`, ""},
		{"a number", "mcp__db__query", `0`, ""},
		{"false", "mcp__db__query", `false`, ""},
		{"object with no result field", "mcp__db__query", `{"ok":true,"id":"x"}`, ""},
		{"Read of an empty file", "Read", `{"type":"text","file":{"filePath":"empty.txt","content":"","numLines":0,"startLine":1,"totalLines":0}}`, ""},
		{"Read, file unchanged", "Read", `{"type":"file_unchanged","file":{"filePath":"a.go"}}`, ""},
		{"Read of an image", "Read", `{"type":"image","file":{"base64":"iVBOR","type":"image/png","originalSize":5}}`, ""},
		{"Read with content", "Read", `{"type":"text","file":{"filePath":"a.go","content":"package a\n"}}`, ""},
		{"WebSearch hit", "WebSearch", `{"query":"q","results":[{"tool_use_id":"t","content":[{"title":"T","url":"https://x.test"}]}]}`, ""},
		{"WebSearch commentary", "WebSearch", `{"query":"q","results":["No exact match; closest:"]}`, ""},
		// Tools an empty result is normal for are not watched by default.
		{"Bash mkdir", "Bash", `{"stdout":"","stderr":"","interrupted":false,"isImage":false}`, ""},
		{"Write", "Write", `{}`, ""},
		{"Glob no match", "Glob", `{"filenames":[],"numFiles":0}`, ""},
		{"LS string", "LS", `""`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := checktest.NewGuardEnv(t)
			if got := runValidation(t, g, newOV(t, ""), checktest.CallSpec{Tool: tc.tool, Output: tc.output}); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestOutputValidationErrorIsNotEmpty: a response that reports an error
// is an error, counted by repeated_error, not an empty result.
func TestOutputValidationErrorIsNotEmpty(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	if got := runValidation(t, g, newOV(t, ""), checktest.CallSpec{Tool: "mcp__db__query", Output: `{"isError":true,"content":[]}`}); got != "" {
		t.Errorf("got %q", got)
	}
}

func TestOutputValidationContentOf(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want outputContent
	}{
		{``, emptyOutput},
		{`null`, emptyOutput},
		{`""`, emptyOutput},
		{`{}`, emptyOutput},
		{`[]`, emptyOutput},
		{`[[],{},"",null]`, emptyOutput},
		{`{"stdout":"","stderr":""}`, emptyOutput},
		{`{"stdout":"","stderr":"warning"}`, someOutput},
		{`{"output":null}`, emptyOutput},
		{`{"data":0}`, someOutput},
		{`{"result":"x"}`, someOutput},
		{`{"file":{"filePath":"a"}}`, someOutput},
		{`{"file":{"filePath":"a","content":""}}`, emptyOutput},
		{`{"id":1}`, unknownOutput},
		{`[{"id":1}]`, someOutput},
		{`"x"`, someOutput},
		{`true`, someOutput},
		{`{"content":"","totalLines":0}`, someOutput},
		{`{"content":"","totalLines":0.0e1}`, someOutput},
		{`{"content":"","totalLines":3}`, emptyOutput},
		{`{"content":"x","content":""}`, emptyOutput},
		{`{"content":"","content":"x"}`, someOutput},
		{`{"content":{"content":""},"totalLines":0}`, emptyOutput},
		{`[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]`, emptyOutput},
		{strings.Repeat("[", 5000) + `"x"` + strings.Repeat("]", 5000), someOutput},
		{strings.Repeat(`{"result":`, 5000) + `""` + strings.Repeat("}", 5000), emptyOutput},
	} {
		if got := contentOf(tc.out); got != tc.want {
			t.Errorf("contentOf(%s) = %d, want %d", tc.out, got, tc.want)
		}
	}
}

func TestOutputValidationTruncatedJSON(t *testing.T) {
	cut := `{"items":[{"id":1,"name":"a"},{"id":2,"na`
	hintAt := func(tool string, n int) string {
		return "The output of " + tool + " looks cut off (invalid JSON: it stops in the middle of a value at byte " + strconv.Itoa(n) + "). Do not rely on the partial data; ask for less: paginate, use offset/limit, or narrow the query."
	}
	for _, tc := range []struct {
		name, tool, output, want string
	}{
		{"MCP text block", "mcp__gh__list", `[{"type":"text","text":` + ovQuoteJSON(cut) + `}]`, hintAt("mcp__gh__list", len(cut))},
		{"second MCP text block", "mcp__gh__list", `[{"type":"text","text":"Page 1:"},{"type":"text","text":` + ovQuoteJSON(cut) + `}]`, hintAt("mcp__gh__list", len(cut))},
		{"MCP object content", "mcp__gh__list", `{"content":[{"type":"text","text":` + ovQuoteJSON(cut) + `}]}`, hintAt("mcp__gh__list", len(cut))},
		{"string response", "mcp__gh__list", ovQuoteJSON("  \n" + cut), hintAt("mcp__gh__list", len(cut)+3)},
		{"WebFetch result", "WebFetch", `{"code":200,"result":` + ovQuoteJSON(`[1,2,`) + `}`, hintAt("WebFetch", 5)},
		{"cut inside a string", "mcp__x", ovQuoteJSON(`{"a":"unterminated`), hintAt("mcp__x", 18)},
		{"last JSON line cut", "mcp__x", ovQuoteJSON("{\"a\":1}\n{\"b\":"), hintAt("mcp__x", 13)},
		{"a lone bracket", "mcp__x", ovQuoteJSON(`[`), hintAt("mcp__x", 1)},
		// Near misses.
		{"whole JSON", "mcp__gh__list", `[{"type":"text","text":"{\"items\":[]}"}]`, ""},
		{"JSON lines", "mcp__x", ovQuoteJSON("{\"a\":1}\n{\"b\":2}\n"), ""},
		{"build progress", "mcp__x", ovQuoteJSON(`[1/3] Building objects`), ""},
		{"log level", "mcp__x", ovQuoteJSON(`[INFO] done`), ""},
		{"markdown link", "mcp__x", ovQuoteJSON(`[docs](https://x.test) say {`), ""},
		{"template", "mcp__x", ovQuoteJSON(`{{ .Name }}`), ""},
		{"JSON then prose", "mcp__x", ovQuoteJSON(`{"a":1} and then {`), ""},
		{"prose", "mcp__x", ovQuoteJSON(`The object {"a": 1 is broken`), ""},
		{"cut JSON in an unwatched tool", "Bash", `{"stdout":` + ovQuoteJSON(cut) + `,"stderr":""}`, ""},
		{"Read of part of a JSON file", "Read", `{"type":"text","file":{"filePath":"a.json","content":` + ovQuoteJSON(cut) + `,"numLines":1,"totalLines":90}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := checktest.NewGuardEnv(t)
			if got := runValidation(t, g, newOV(t, ""), checktest.CallSpec{Tool: tc.tool, Output: tc.output}); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	// Bash is watched when asked for.
	g := checktest.NewGuardEnv(t)
	v := newOV(t, `truncated_json: {tools: "Bash|mcp__*"}`)
	if got := runValidation(t, g, v, checktest.CallSpec{Tool: "Bash", Output: `{"stdout":` + ovQuoteJSON(cut) + `,"stderr":""}`}); got != hintAt("Bash", len(cut)) {
		t.Errorf("Bash watched: got %q", got)
	}
}

func TestOutputValidationCutJSON(t *testing.T) {
	for _, tc := range []struct {
		text string
		cut  bool
	}{
		{`{`, true},
		{`{"a":`, true},
		{`{"a":[1,2`, true},
		{`["x\"`, true},
		{`{"a":tr`, true},
		{`{"a":1}`, false},
		{`{"a":1}   `, false},
		{`{"a":1,}`, false}, // broken, not cut
		{`{'a':1}`, false},
		{`{a}`, false},
		{`[1/3]`, false},
		{``, false},
		{`   `, false},
		{`plain text {`, false},
		{`"a string"`, false},
		{`42`, false},
	} {
		if got := cutJSON(tc.text); got != tc.cut {
			t.Errorf("cutJSON(%q) = %v, want %v", tc.text, got, tc.cut)
		}
	}
}

// ovStep is one call for the repeated-error detector.
type ovStep struct {
	hook, tool, agent, session string
	errText, output            string
	want                       string // the hint, "" for none
}

func ovFailed(tool, msg string) ovStep {
	return ovStep{hook: protocol.PostToolUseFailure, tool: tool, errText: msg}
}

func ovSucceeded(tool string) ovStep {
	return ovStep{hook: protocol.PostToolUse, tool: tool, output: `{"stdout":"ok","stderr":""}`}
}

func ovRepeatHint(tool string, n int, msg, strategy string) string {
	return tool + " failed " + strconv.Itoa(n) + " times in a row with the same error: " + strconv.Quote(msg) + ". Do not retry it unchanged: " + strategy
}

func (s ovStep) then(want string) ovStep { s.want = want; return s }

func runOVSteps(t *testing.T, g *checktest.GuardEnv, v engine.Builtin, steps []ovStep) {
	t.Helper()
	for i, s := range steps {
		got := runValidation(t, g, v, checktest.CallSpec{Hook: s.hook, Tool: s.tool, Agent: s.agent, Session: s.session, ErrText: s.errText, Output: s.output})
		if got != s.want {
			t.Errorf("step %d (%s %s %q): got  %q\nwant %q", i, s.hook, s.tool, s.errText, got, s.want)
		}
	}
}

const (
	ovNotFound    = "File does not exist."
	ovNotFoundFix = "check that what you named exists before trying again: find a file with Glob (or list its directory with LS) and use the exact path shown; look up an id, name or URL instead of guessing it."
)

func TestOutputValidationRepeatedError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []ovStep
	}{
		{"the same error twice, then again", []ovStep{
			ovFailed("Read", ovNotFound),
			ovFailed("Read", ovNotFound).then(ovRepeatHint("Read", 2, ovNotFound, ovNotFoundFix)),
			ovFailed("Read", ovNotFound).then(ovRepeatHint("Read", 3, ovNotFound, ovNotFoundFix)),
		}},
		{"whitespace and numbers do not make another error", []ovStep{
			ovFailed("Bash", "Exit code 1\nmake: *** [test] Error 1"),
			ovFailed("Bash", "Exit code 2   make: *** [test] Error 2").then(ovRepeatHint("Bash", 2, "Exit code 2 make: *** [test] Error 2", defaultErrorStrategy)),
		}},
		{"another error starts afresh", []ovStep{
			ovFailed("Read", ovNotFound),
			ovFailed("Read", "EISDIR: illegal operation on a directory, read"),
			ovFailed("Read", ovNotFound),
			ovFailed("Read", ovNotFound).then(ovRepeatHint("Read", 2, ovNotFound, ovNotFoundFix)),
		}},
		{"the same error from another tool starts afresh", []ovStep{
			ovFailed("Read", ovNotFound),
			ovFailed("Edit", ovNotFound),
			ovFailed("Read", ovNotFound),
		}},
		{"any success ends the run", []ovStep{
			ovFailed("Read", ovNotFound),
			ovSucceeded("Bash"),
			ovFailed("Read", ovNotFound),
			ovFailed("Read", ovNotFound).then(ovRepeatHint("Read", 2, ovNotFound, ovNotFoundFix)),
		}},
		{"an error in PostToolUse's response counts", []ovStep{
			{hook: protocol.PostToolUse, tool: "mcp__gh__get", output: `{"isError":true,"error":"HTTP 429 Too Many Requests"}`},
			{hook: protocol.PostToolUse, tool: "mcp__gh__get", output: `{"isError":true,"error":"HTTP 429 Too Many Requests"}`,
				want: ovRepeatHint("mcp__gh__get", 2, "HTTP 429 Too Many Requests", "the service is rate-limiting you: do not call it again right away; work with what you have, or use another source.")},
			ovFailed("mcp__gh__get", "HTTP 429 Too Many Requests").then(ovRepeatHint("mcp__gh__get", 3, "HTTP 429 Too Many Requests", "the service is rate-limiting you: do not call it again right away; work with what you have, or use another source.")),
		}},
		{"agents and sessions keep their own runs", []ovStep{
			ovFailed("Read", ovNotFound),
			{hook: protocol.PostToolUseFailure, tool: "Read", errText: ovNotFound, agent: "worker"},
			{hook: protocol.PostToolUseFailure, tool: "Read", errText: ovNotFound, session: "s2"},
			// The worker's success does not end the main thread's run.
			{hook: protocol.PostToolUse, tool: "Bash", output: `"ok"`, agent: "worker"},
			ovFailed("Read", ovNotFound).then(ovRepeatHint("Read", 2, ovNotFound, ovNotFoundFix)),
			{hook: protocol.PostToolUseFailure, tool: "Read", errText: ovNotFound, agent: "worker"},
			{hook: protocol.PostToolUseFailure, tool: "Read", errText: ovNotFound, session: "s2", want: ovRepeatHint("Read", 2, ovNotFound, ovNotFoundFix)},
		}},
		{"a difference past the quoted part is another error", []ovStep{
			ovFailed("Bash", strings.Repeat("x ", 200)+"A"),
			ovFailed("Bash", strings.Repeat("x ", 200)+"B"),
		}},
		{"an empty error is not counted", []ovStep{
			ovFailed("Read", ""),
			ovFailed("Read", "  "),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runOVSteps(t, checktest.NewGuardEnv(t), newOV(t, ""), tc.steps)
		})
	}
}

// TestOutputValidationInterrupt: a tool the user interrupted did not fail
// on its own; it neither counts nor ends a run.
func TestOutputValidationInterrupt(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	v := newOV(t, "")
	runValidation(t, g, v, checktest.CallSpec{Hook: protocol.PostToolUseFailure, Tool: "Bash", ErrText: "timed out"})
	call := g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUseFailure, Tool: "Bash", Input: `{}`, ErrText: "timed out"})
	call.Event.Raw = []byte(`{"hook_event_name":"PostToolUseFailure","is_interrupt":true}`)
	if verdict, err := v.Check(context.Background(), call); err != nil || len(verdict.Injections) != 0 {
		t.Fatalf("interrupt: %+v, %v", verdict, err)
	}
	want := ovRepeatHint("Bash", 2, "timed out", "the step is too big or the service too slow: split it into smaller steps (fewer files, a narrower query, a smaller page), or run a long command in the background.")
	if got := runValidation(t, g, v, checktest.CallSpec{Hook: protocol.PostToolUseFailure, Tool: "Bash", ErrText: "timed out"}); got != want {
		t.Errorf("got %q", got)
	}
}

// TestOutputValidationErrorText: the quoted error has its secrets masked,
// is on one line and cut; the record keeps only a hash of it.
func TestOutputValidationErrorText(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	v := newOV(t, "")
	secret := "ghp_" + strings.Repeat("a1B2", 10)
	msg := "auth failed\nfor token " + secret + " " + strings.Repeat("x", 400)
	runValidation(t, g, v, checktest.CallSpec{Hook: protocol.PostToolUseFailure, Tool: "Bash", ErrText: msg})
	got := runValidation(t, g, v, checktest.CallSpec{Hook: protocol.PostToolUseFailure, Tool: "Bash", ErrText: msg})
	quoted := hookenv.OneLine(redact.String(msg), limits.MaxErrorText)
	if want := ovRepeatHint("Bash", 2, quoted, "the credentials are missing or rejected: do not retry; tell the user, or use another source."); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if strings.Contains(got, secret) || strings.Contains(got, "\n") || !strings.HasSuffix(quoted, "…") {
		t.Errorf("hint leaks, spans lines or is not cut: %q", got)
	}
	data, err := os.ReadFile(filepath.Join(g.State.Path, filepath.FromSlash(state.SessionRecord("s1", "validation-main"))))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("auth")) || !bytes.Contains(data, []byte(`"count":2`)) {
		t.Errorf("record %s", data)
	}
}

// TestOutputValidationState: an absent record is no run, a corrupt one
// is set aside and started afresh, and successes with no run write
// nothing.
func TestOutputValidationState(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	v := newOV(t, "")
	runOVSteps(t, g, v, []ovStep{ovSucceeded("Bash"), ovSucceeded("Read")})
	if names, err := g.State.SessionRecords("s1"); err != nil || len(names) != 0 {
		t.Fatalf("records %q, %v; want none", names, err)
	}
	path := filepath.Join(g.State.Path, filepath.FromSlash(state.SessionRecord("s1", "validation-main")))
	for _, junk := range []string{"{not json", `{"count":"two"}`} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(junk), 0o600); err != nil {
			t.Fatal(err)
		}
		// A success reads the corrupt record as none.
		runOVSteps(t, g, v, []ovStep{ovSucceeded("Bash")})
		// A failure starts afresh: the first of its run.
		runOVSteps(t, g, v, []ovStep{
			ovFailed("Read", ovNotFound),
			ovFailed("Read", ovNotFound).then(ovRepeatHint("Read", 2, ovNotFound, ovNotFoundFix)),
		})
		if _, err := os.Stat(path + ".corrupt"); err != nil {
			t.Errorf("%q: not set aside: %v", junk, err)
		}
	}
	// A success after a run leaves an empty record.
	runOVSteps(t, g, v, []ovStep{ovSucceeded("Bash")})
	var rec validationRecord
	if ok, err := g.State.ReadJSON(state.SessionRecord("s1", "validation-main"), &rec); !ok || err != nil || rec != (validationRecord{}) {
		t.Errorf("after a success: %+v (%v, %v)", rec, ok, err)
	}
}

func TestOutputValidationErrorStrategy(t *testing.T) {
	for _, tc := range []struct{ msg, want string }{
		{"String to replace not found in file.\nString: foo", "Read the file again and copy"},
		{"File has not been read yet. Read it first before writing to it.", "Read the file first"},
		{"File has been modified since read, either by the user or by a linter.", "Read the file again to see"},
		{"Exit code 127\nbash: line 1: pytest: command not found", "not installed or not on PATH"},
		{"ModuleNotFoundError: No module named 'yaml'", "not installed or not on PATH"},
		{"EISDIR: illegal operation on a directory, read", "that path is a directory"},
		{"ENOENT: no such file or directory, open 'x'", "check that what you named exists"},
		{"Request failed with status code 404", "check that what you named exists"},
		{"EACCES: permission denied, open '/etc/shadow'", "you have no access there"},
		{"HTTP 403 Forbidden", "you have no access there"},
		{"401 Unauthorized", "the credentials are missing or rejected"},
		{"Rate limit exceeded", "rate-limiting you"},
		{"Command timed out after 2m 0.0s", "the step is too big"},
		{"connect ECONNREFUSED 127.0.0.1:5432", "the host cannot be reached"},
		{"File content (30000 tokens) exceeds maximum allowed tokens (25000).", "the request or its result is too big"},
		{"InputValidationError: Read failed due to the following issue: The parameter `limit` type is expected as `number`", "the input is malformed"},
		{"Exit code 1\nFAIL TestX", "read the error, then change"},
		// A status code stands alone.
		{"line 14041 failed", "read the error, then change"},
		{"took 4290ms", "read the error, then change"},
	} {
		if got := errorStrategy(tc.msg); !strings.Contains(got, tc.want) {
			t.Errorf("errorStrategy(%q) = %q, want %q…", tc.msg, got, tc.want)
		}
	}
}

func TestOutputValidationOptions(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	// Each detector can be switched off.
	v := newOV(t, "empty: {enabled: false}\ntruncated_json: {enabled: false}\nrepeated_error: {enabled: false}")
	runOVSteps(t, g, v, []ovStep{
		{hook: protocol.PostToolUse, tool: "mcp__x", output: `[]`},
		{hook: protocol.PostToolUse, tool: "mcp__x", output: `"{\"a\":"`},
		ovFailed("Read", ovNotFound),
		ovFailed("Read", ovNotFound),
	})
	if names, _ := g.State.SessionRecords("s1"); len(names) != 0 {
		t.Errorf("repeated_error off wrote %q", names)
	}
	// Tools replace the default; the other detectors keep theirs.
	v = newOV(t, `empty: {tools: "Bash"}`+"\n"+`repeated_error: {tools: "mcp__*"}`)
	runOVSteps(t, checktest.NewGuardEnv(t), v, []ovStep{
		{hook: protocol.PostToolUse, tool: "Bash", output: `{"stdout":"","stderr":""}`, want: "Your last Bash call returned nothing. Check the arguments (path, id, query), or ask for less at a time (a smaller page or chunk of the content) and try again."},
		{hook: protocol.PostToolUse, tool: "Read", output: `{"file":{"content":""}}`},
		{hook: protocol.PostToolUse, tool: "mcp__x", output: `"{\"a\":"`, want: "The output of mcp__x looks cut off (invalid JSON: it stops in the middle of a value at byte 5). Do not rely on the partial data; ask for less: paginate, use offset/limit, or narrow the query."},
		ovFailed("Read", ovNotFound),
		ovFailed("Read", ovNotFound),
		ovFailed("mcp__x", "boom"),
		ovFailed("mcp__x", "boom").then(ovRepeatHint("mcp__x", 2, "boom", defaultErrorStrategy)),
	})
	for _, ok := range []string{"", "~", "empty: {}", `empty: {tools: "re:mcp__.*"}`, `truncated_json: {enabled: true, tools: "*"}`} {
		if _, err := NewOutputValidation(checktest.OptionsNode(t, ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestOutputValidationOptionErrors(t *testing.T) {
	for _, tc := range []struct{ options, want string }{
		{`empty: {tool: Read}`, `line 1: unknown option "empty.tool" (known: enabled, tools)`},
		{`emptiness: {}`, `unknown option "emptiness" (known: empty, repeated_error, truncated_json)`},
		{`empty: {tools: "Read|"}`, `empty.tools: matcher "Read|": empty alternative`},
		{`truncated_json: {tools: "re:("}`, `truncated_json.tools: matcher "re:(": invalid regular expression`},
		{`repeated_error: {tools: "[ab"}`, `repeated_error.tools: matcher "[ab"`},
		{`repeated_error: {enabled: maybe}`, "cannot unmarshal !!str `maybe` into bool"},
		{`empty: false`, "cannot unmarshal !!bool `false` into aftertool.outputDetectorOptions"},
		{`[1]`, `options must be a mapping`},
	} {
		if _, err := NewOutputValidation(checktest.OptionsNode(t, tc.options)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.options, err, tc.want)
		}
	}
}

// ovQuoteJSON is s as a JSON string.
func ovQuoteJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// FuzzOutputValidation: any response is classified without a panic.
func FuzzOutputValidation(f *testing.F) {
	for _, seed := range []string{``, `null`, `[]`, `{}`, `"{\"a\":"`, `[{"type":"text","text":"["}]`, `{"file":{"content":"","totalLines":0}}`, `[[[[`, `{"content":{"content":{"content":""}}}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, out string) {
		r := gjson.Parse(out)
		got := contentOf(out)
		truncatedJSON(r)
		cutJSON(out)
		if protocol.Valid(out) && json.Valid([]byte(out)) {
			if want := recursiveContentOf(r); got != want {
				t.Fatalf("contentOf(%s) = %d, the recursive reading says %d", out, got, want)
			}
		}
	})
}

// recursiveContentOf is contentOf as a recursion over gjson results: easy
// to read, and the reference the fuzzer holds contentOf to, but quadratic
// in the nesting (each level scans its value again), so not for the hook.
func recursiveContentOf(v gjson.Result) outputContent {
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return emptyOutput
	case v.Type == gjson.String:
		if strings.TrimSpace(v.Str) == "" {
			return emptyOutput
		}
		return someOutput
	case v.IsArray():
		c := emptyOutput
		v.ForEach(func(_, item gjson.Result) bool {
			if recursiveContentOf(item) != emptyOutput {
				c = someOutput
			}
			return c == emptyOutput
		})
		return c
	case v.IsObject():
		fields := v.Map()
		if len(fields) == 0 {
			return emptyOutput
		}
		if c, total := fields["content"], fields["totalLines"]; c.Type == gjson.String && c.Str == "" && total.Type == gjson.Number && total.Num == 0 {
			return someOutput
		}
		c := unknownOutput
		for _, name := range resultFields {
			f, ok := fields[name]
			if !ok {
				continue
			}
			if recursiveContentOf(f) != emptyOutput {
				return someOutput
			}
			c = emptyOutput
		}
		return c
	}
	return someOutput
}

// A response nested 100k levels deep is read once, not once a level: past
// protocol.MaxDepth it counts as unknown (no hint, as documented), and to
// that depth an empty one is still found empty. (The hook refuses such an
// event before any check runs; a rule's rewritten output is not parsed
// again, so the checks hold on their own.)
func TestOutputValidationDeepOutput(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	v := newOV(t, "")
	hint := func(tool, output string) string {
		call := g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUse, Tool: tool, Input: `{}`, Output: `"x"`})
		call.ToolOutput = json.RawMessage(output)
		verdict, err := v.Check(context.Background(), call)
		if err != nil || len(verdict.Injections) > 1 {
			t.Fatalf("%s: %+v, %v", tool, verdict, err)
		}
		if len(verdict.Injections) == 0 {
			return ""
		}
		return verdict.Injections[0].Content
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	if got := hint("Read", deep); got != "" {
		t.Errorf("100k deep: hint %q, want none (too deep to tell)", got)
	}
	if got := contentOf(deep); got != unknownOutput {
		t.Errorf("contentOf(100k deep) = %d, want unknown", got)
	}
	deepMCP := `{"content":` + strings.Repeat(`[{"type":"text","text":"x"},`, 50000) + `[]` + strings.Repeat("]", 50000) + `}`
	if got := hint("mcp__x__y", deepMCP); got != "" {
		t.Errorf("deep MCP content: hint %q, want none", got)
	}
	empty := strings.Repeat("[", protocol.MaxDepth) + strings.Repeat("]", protocol.MaxDepth)
	if got := hint("Read", empty); !strings.HasPrefix(got, "Your last Read call returned nothing.") {
		t.Errorf("empty arrays nested to the limit: hint %q, want the empty hint", got)
	}
}

// BenchmarkContentOfDeep is contentOf on a response nested to the limit:
// linear in its size, like a flat one.
func BenchmarkContentOfDeep(b *testing.B) {
	deep := strings.Repeat("[", protocol.MaxDepth) + strings.Repeat("]", protocol.MaxDepth)
	b.SetBytes(int64(len(deep)))
	for b.Loop() {
		contentOf(deep)
	}
}
