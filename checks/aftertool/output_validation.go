package aftertool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/checks/limits"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/internal/redact"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// outputValidation looks at what a tool gave back (seed 003 §1) and, when
// it looks wrong, tells the agent how to retry, as a system reminder:
//
//   - empty: the response holds nothing (missing, null, "", {}, [], or
//     every field that carries a result is empty);
//   - truncated_json: a text result that starts as JSON and ends in the
//     middle of a value;
//   - repeated_error: the tool failed with the same error as the agent's
//     previous failure (whitespace and numbers aside).
//
// Each detector watches the tools of its own matcher, so a Bash command
// with no output (mkdir) is not "empty" unless asked for. It never
// denies: the tool already ran, and a hint is all that helps.
type outputValidation struct {
	empty, truncated, repeated outputDetector
}

// outputDetector is one detector's switch and the tools it watches.
type outputDetector struct {
	on    bool
	tools match.Matcher
}

func (d outputDetector) watches(tool string) bool { return d.on && d.tools.Match(tool) }

type validationOptions struct {
	Empty         outputDetectorOptions `yaml:"empty"`
	TruncatedJSON outputDetectorOptions `yaml:"truncated_json"`
	RepeatedError outputDetectorOptions `yaml:"repeated_error"`
}

type outputDetectorOptions struct {
	Enabled bool   `yaml:"enabled"`
	Tools   string `yaml:"tools"`
}

// The default tools. An empty result is suspicious where a result is the
// point of the call (a read, a fetch, a search, an MCP query), not for
// tools that legitimately print nothing (Bash, Write, Glob). Truncated JSON
// is looked for where JSON arrives from elsewhere; Bash is left out because
// `head -c` on JSON is usually on purpose.
const (
	defaultEmptyTools     = "Read|WebFetch|WebSearch|mcp__*"
	defaultTruncatedTools = "WebFetch|WebSearch|mcp__*"
	defaultRepeatedTools  = "*"
)

func NewOutputValidation(options *yaml.Node) (engine.Builtin, error) {
	o := validationOptions{
		Empty:         outputDetectorOptions{Enabled: true, Tools: defaultEmptyTools},
		TruncatedJSON: outputDetectorOptions{Enabled: true, Tools: defaultTruncatedTools},
		RepeatedError: outputDetectorOptions{Enabled: true, Tools: defaultRepeatedTools},
	}
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	v := &outputValidation{}
	for _, d := range []struct {
		key string
		in  outputDetectorOptions
		out *outputDetector
	}{
		{"empty", o.Empty, &v.empty},
		{"truncated_json", o.TruncatedJSON, &v.truncated},
		{"repeated_error", o.RepeatedError, &v.repeated},
	} {
		m, err := match.Compile(d.in.Tools)
		if err != nil {
			return nil, fmt.Errorf("%s.tools: %v", d.key, err)
		}
		*d.out = outputDetector{on: d.in.Enabled, tools: m}
	}
	return v, nil
}

func (v *outputValidation) Check(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	tool := call.Event.ToolName
	if call.HookType == protocol.PostToolUseFailure {
		if call.Event.Get("is_interrupt").Bool() {
			// The user stopped the tool: not an error to learn from.
			return engine.Verdict{}, nil
		}
		return v.failed(call, call.Event.Error)
	}
	out := protocol.View(call.ToolOutput)
	if msg, failed := limits.OutputError(out); failed {
		return v.failed(call, msg)
	}
	if err := v.succeeded(call); err != nil {
		return engine.Verdict{}, err
	}
	if v.empty.watches(tool) && contentOf(out.Raw) == emptyOutput {
		return validationHint(emptyHint(tool)), nil
	}
	if v.truncated.watches(tool) {
		if at, cut := truncatedJSON(out); cut {
			return validationHint(fmt.Sprintf("The output of %s looks cut off (invalid JSON: it stops in the middle of a value at byte %d). Do not rely on the partial data; ask for less: paginate, use offset/limit, or narrow the query.", tool, at)), nil
		}
	}
	return engine.Verdict{}, nil
}

func validationHint(text string) engine.Verdict {
	return engine.Verdict{Injections: []engine.Injection{{Content: text, Strategy: engine.UserMessage}}}
}

// validationRecord is an agent's last failure, for repeated_error.
type validationRecord struct {
	Tool  string `json:"tool,omitempty"`
	Error string `json:"error,omitempty"` // errorKey of the error
	Count int    `json:"count,omitempty"` // failures in a row with it
}

func validationRecordName(agent string) string { return limits.AgentRecord("validation", agent) }

// failed counts a failure against the agent's previous one and, from the
// second identical failure in a row, says what to do instead.
func (v *outputValidation) failed(call *engine.Call, msg string) (engine.Verdict, error) {
	tool := call.Event.ToolName
	if !v.repeated.watches(tool) || strings.TrimSpace(msg) == "" {
		return engine.Verdict{}, nil
	}
	masked := redact.String(msg)
	key := errorKey(tool, strings.Join(strings.Fields(masked), " "))
	quoted := hookenv.OneLine(masked, limits.MaxErrorText)
	var rec validationRecord
	err := call.State.UpdateSession(call.Event.SessionID, validationRecordName(call.Agent), &rec, func() (bool, error) {
		if rec.Tool == tool && rec.Error == key {
			rec.Count++
		} else {
			rec = validationRecord{Tool: tool, Error: key, Count: 1}
		}
		return true, nil
	})
	if err != nil || rec.Count < 2 {
		return engine.Verdict{}, err
	}
	return validationHint(fmt.Sprintf("%s failed %d times in a row with the same error: %q. Do not retry it unchanged: %s", tool, rec.Count, quoted, errorStrategy(quoted))), nil
}

// succeeded ends the agent's run of failures: it did something that
// worked, so the next failure starts afresh. A call with no run reads one
// small file and writes nothing.
func (v *outputValidation) succeeded(call *engine.Call) error {
	if !v.repeated.on {
		return nil
	}
	name := validationRecordName(call.Agent)
	var rec validationRecord
	if ok, err := call.State.ReadJSON(state.SessionRecord(call.Event.SessionID, name), &rec); err != nil || !ok || rec.Count == 0 {
		return err
	}
	return call.State.UpdateSession(call.Event.SessionID, name, &rec, func() (bool, error) {
		changed := rec.Count != 0
		rec = validationRecord{}
		return changed, nil
	})
}

// errorKey is what two errors must share to be "the same": the tool and
// the text (secrets masked, whitespace collapsed) with its numbers masked
// (exit codes, line numbers, durations, ids differ between attempts that
// fail for one reason), hashed to keep the record small.
func errorKey(tool, msg string) string {
	var b strings.Builder
	digits := false
	for _, r := range msg {
		isDigit := r >= '0' && r <= '9'
		if isDigit && !digits {
			b.WriteByte('#')
		}
		if !isDigit {
			b.WriteRune(r)
		}
		digits = isDigit
	}
	return limits.CallKey(tool, json.RawMessage(b.String()))
}

// errorStrategies map the shape of an error (lower-case fragments, tried in
// order, the most specific first) to what to do instead.
var errorStrategies = []struct {
	fragments []string
	advice    string
}{
	{[]string{"string to replace not found", "old_string"},
		"Read the file again and copy the exact text to replace, whitespace and indentation included, or pick a shorter, unique old_string."},
	{[]string{"has not been read yet", "read it first"},
		"Read the file first, then change it."},
	{[]string{"modified since read", "has been modified", "unexpectedly modified"},
		"Read the file again to see what it holds now, and make the change against that."},
	{[]string{"command not found", "executable file not found", "is not recognized as", "no module named", "cannot find module"},
		"the program or module is not installed or not on PATH: check with `command -v` or the project's own scripts, install it, or use another tool."},
	{[]string{"eisdir", "is a directory"},
		"that path is a directory: list it with LS or Glob and pick a file inside it."},
	{[]string{"enoent", "no such file", "does not exist", "not found", "cannot find", "404"},
		"check that what you named exists before trying again: find a file with Glob (or list its directory with LS) and use the exact path shown; look up an id, name or URL instead of guessing it."},
	{[]string{"permission denied", "eacces", "eperm", "operation not permitted", "forbidden", "403"},
		"you have no access there, and retrying will not grant it: use a path or resource you can access (inside the project), or ask the user."},
	{[]string{"unauthorized", "unauthenticated", "authentication", "auth failed", "invalid api key", "401"},
		"the credentials are missing or rejected: do not retry; tell the user, or use another source."},
	{[]string{"rate limit", "rate-limit", "too many requests", "quota", "429"},
		"the service is rate-limiting you: do not call it again right away; work with what you have, or use another source."},
	{[]string{"timed out", "timeout", "etimedout", "deadline exceeded"},
		"the step is too big or the service too slow: split it into smaller steps (fewer files, a narrower query, a smaller page), or run a long command in the background."},
	{[]string{"econnrefused", "connection refused", "econnreset", "enotfound", "could not resolve", "unreachable", "network"},
		"the host cannot be reached: check the URL or host name and whether the service is running; otherwise use another source."},
	{[]string{"too large", "too long", "too big", "exceeds", "maximum", "token limit", "too many tokens"},
		"the request or its result is too big: ask for less (offset/limit, one page at a time, a narrower query)."},
	{[]string{"invalid json", "unexpected token", "parse error", "syntax error", "invalid input", "invalid argument", "validation error", "validationerror", "invalid_type"},
		"the input is malformed: check each argument against the tool's schema (names, types, quoting) before calling it again."},
}

const defaultErrorStrategy = "read the error, then change the input or the approach (another tool, a smaller step), or fix the cause first."

// errorStrategy picks the advice for an error by its shape.
func errorStrategy(msg string) string {
	lower := strings.ToLower(msg)
	for _, s := range errorStrategies {
		for _, f := range s.fragments {
			if containsFragment(lower, f) {
				return s.advice
			}
		}
	}
	return defaultErrorStrategy
}

// containsFragment reports whether f occurs in s; a number (an HTTP
// status) must stand alone, so "404" is not found in "14041".
func containsFragment(s, f string) bool {
	if f[0] < '0' || f[0] > '9' {
		return strings.Contains(s, f)
	}
	for from := 0; ; {
		i := strings.Index(s[from:], f)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(f)
		if (i == 0 || !isAlnum(s[i-1])) && (end == len(s) || !isAlnum(s[end])) {
			return true
		}
		from = i + 1
	}
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// emptyHint names a way out of an empty result, by tool.
func emptyHint(tool string) string {
	var advice string
	switch tool {
	case "Read":
		advice = "Check the file path and the offset/limit (an offset past the end of the file reads nothing), then read again."
	case "WebFetch":
		advice = "Check the URL; the page may need JavaScript or a login, or the prompt asked for something it does not hold. Try a more specific prompt, a smaller page, or another source."
	case "WebSearch":
		advice = "Broaden or rephrase the query: fewer words, no quotes, no site: or domain filters."
	default:
		advice = "Check the arguments (path, id, query), or ask for less at a time (a smaller page or chunk of the content) and try again."
	}
	return fmt.Sprintf("Your last %s call returned nothing. %s", tool, advice)
}

// outputContent is what a tool response holds, as far as can be told.
type outputContent uint8

const (
	unknownOutput outputContent = iota // no field known to carry a result
	emptyOutput
	someOutput
)

// resultFields are the fields that carry a tool's result: MCP's content
// and structuredContent, Bash's stdout and stderr, Read's file, WebFetch's
// result, WebSearch's results, and common names of other tools.
var resultFields = [...]string{"content", "structuredContent", "text", "stdout", "stderr", "output", "result", "results", "data", "file"}

// contentOf tells whether a response, the JSON text out, holds a result.
// An array holds one when any item does; an item of unknown shape (an MCP
// resource block) counts as one. An object holds one when any result field
// does (a field holding an object of unknown shape counts); with no result
// field at all ({"ok": true}) it is unknown, not empty. A repeated key
// counts once, with its last value.
//
// It reads out once, token by token (see protocol.Tokens), so its cost is
// the response's size however deeply it nests; a response nested past
// protocol.MaxDepth is unknown: no hint is given about it.
func contentOf(out string) outputContent {
	tk := protocol.NewTokens(out)
	var stack []contentFrame
	result := emptyOutput // nothing at all is empty
	for {
		tok, err := tk.Next()
		if err == io.EOF && len(stack) == 0 {
			return result
		}
		if err != nil {
			return unknownOutput // too deep, or not JSON
		}
		var c outputContent
		switch tok.Kind {
		case protocol.BeginObject, protocol.BeginArray:
			stack = append(stack, contentFrame{object: tok.Kind == protocol.BeginObject, items: emptyOutput})
			continue
		case protocol.Key:
			if len(stack) > 0 {
				stack[len(stack)-1].setKey(tok.Str())
			}
			continue
		case protocol.EndObject, protocol.EndArray:
			if len(stack) == 0 {
				return unknownOutput
			}
			c = stack[len(stack)-1].content()
			stack = stack[:len(stack)-1]
		default:
			c = scalarContent(tok)
		}
		if len(stack) == 0 {
			result = c
			continue
		}
		stack[len(stack)-1].add(c, tok)
	}
}

// scalarContent is what a string, number, boolean or null holds.
func scalarContent(tok protocol.Token) outputContent {
	switch {
	case tok.Kind == protocol.String && strings.TrimSpace(tok.Str()) == "":
		return emptyOutput
	case tok.Kind == protocol.Literal && tok.Raw == "null":
		return emptyOutput
	}
	return someOutput // text, a number or a boolean is a result
}

// contentFrame is an array or object contentOf is inside. It holds no
// pointer and no string, so a response nested ten thousand deep costs a
// small slice and nothing for the garbage collector to scan.
type contentFrame struct {
	object bool
	// items is an array's content: empty until an item holds something.
	items outputContent
	// An object's: whether it has a value, which field the next value is
	// for (an index in resultFields, or noResultField, or totalLinesField),
	// and what each result field holds (present marks the ones it has).
	hasFields bool
	field     int8
	present   uint16
	holds     [len(resultFields)]outputContent
	// Read's answer for a file with no lines: "content" is "" and
	// "totalLines" is 0, a complete answer (an offset past the end gives
	// "" with totalLines > 0).
	emptyContent, noLines bool
}

// The field of a contentFrame that is not one of resultFields.
const (
	noResultField   int8 = -1
	totalLinesField int8 = -2
)

// setKey notes which field the next value is for.
func (f *contentFrame) setKey(key string) {
	f.field = noResultField
	if key == "totalLines" {
		f.field = totalLinesField
	}
	for i, name := range resultFields {
		if key == name {
			f.field = int8(i)
		}
	}
}

func (f *contentFrame) add(c outputContent, tok protocol.Token) {
	if !f.object {
		if c != emptyOutput {
			f.items = someOutput
		}
		return
	}
	f.hasFields = true
	switch {
	case f.field == totalLinesField:
		f.noLines = tok.Kind == protocol.Literal && isZero(tok.Raw)
	case f.field >= 0:
		f.holds[f.field], f.present = c, f.present|1<<f.field
		if resultFields[f.field] == "content" {
			f.emptyContent = tok.Kind == protocol.String && tok.Raw == `""`
		}
	}
}

// content is what the array or object holds, once it is closed.
func (f *contentFrame) content() outputContent {
	switch {
	case !f.object:
		return f.items
	case !f.hasFields:
		return emptyOutput
	case f.emptyContent && f.noLines:
		return someOutput
	}
	c := unknownOutput
	for i, holds := range f.holds {
		switch {
		case f.present&(1<<i) == 0:
		case holds == emptyOutput:
			c = emptyOutput
		default:
			// Structured data of its own shape ({"rows": []}) is an
			// answer, as the text "[]" is.
			return someOutput
		}
	}
	return c
}

// isZero reports whether a JSON number is zero (0, -0, 0.0, 0e5).
func isZero(num string) bool {
	n, err := strconv.ParseFloat(num, 64)
	return err == nil && n == 0
}

// truncatedJSON finds a text result that starts as JSON and stops in the
// middle of a value, and says at which byte it stops. It looks where tools
// put text: a string response, the text blocks of an MCP content array
// (bare or under "content"), and the text fields of an object.
func truncatedJSON(out gjson.Result) (int, bool) {
	for _, text := range resultTexts(out) {
		if cutJSON(text) {
			return len(text), true
		}
	}
	return 0, false
}

// resultTexts are the texts a response carries.
func resultTexts(out gjson.Result) []string {
	switch {
	case out.Type == gjson.String:
		return []string{out.Str}
	case out.IsArray():
		return textBlocks(out)
	case out.IsObject():
		var texts []string
		for _, name := range []string{"content", "text", "result", "output", "stdout"} {
			f := out.Get(name)
			switch {
			case f.Type == gjson.String:
				texts = append(texts, f.Str)
			case f.IsArray():
				texts = append(texts, textBlocks(f)...)
			}
		}
		return texts
	}
	return nil
}

// textBlocks are the texts of an MCP content array's text blocks.
func textBlocks(arr gjson.Result) []string {
	var texts []string
	arr.ForEach(func(_, block gjson.Result) bool {
		if text := block.Get("text"); block.Get("type").String() == "text" && text.Type == gjson.String {
			texts = append(texts, text.Str)
		}
		return true
	})
	return texts
}

// cutJSON reports whether text is JSON that ends mid-value: it opens an
// object or array, and everything up to its end reads as JSON. Text that
// only starts like JSON ("[1/3] Building", "[link](url)", "{{name}}")
// breaks the syntax before its end, and is not JSON at all; a stream of
// values (JSON lines) counts as cut when its last value is.
func cutJSON(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n")
	if t == "" || (t[0] != '{' && t[0] != '[') || protocol.Valid(t) {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return true
		case err != nil:
			return false
		}
	}
}
