package guard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/hookfs"
	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/protocol"
)

// toolSchemaOptions are tool_schema's options:
//
//	options:
//	  schemas:
//	    - matcher: "mcp__github__create_issue"
//	      schema: {type: object, required: [owner, repo, title]}
//	    - matcher: "mcp__db__*"
//	      file: schemas/db.json
//	  builtin_tools: true
type toolSchemaOptions struct {
	Schemas []toolSchemaEntry `yaml:"schemas"`
	// BuiltinTools turns Claude Code's own tools' schemas on (the default)
	// or off.
	BuiltinTools *bool `yaml:"builtin_tools"`
}

// toolSchemaEntry is one user schema: for the tools its matcher selects,
// either inline (YAML, JSON, or a string of JSON) or in a JSON file
// relative to the project root.
type toolSchemaEntry struct {
	Matcher string `yaml:"matcher"`
	Schema  any    `yaml:"schema"`
	File    string `yaml:"file"`
}

// toolSchema is the tool_schema check.
type toolSchema struct {
	builtin bool
	user    []userToolSchema
}

// userToolSchema is a checked user schema entry.
type userToolSchema struct {
	label   string // schemas[i], as the options name it
	matcher match.Matcher
	// inline is the resolved inline schema; nil for a file one.
	inline *jsonschema.Resolved
	// file is the schema file, relative to the project root.
	file string
}

// NewToolSchema is the factory of tool_schema: it denies a tool call whose
// input does not match the tool's schema, naming every missing field and
// every wrong type at once so the agent can fix them in one retry. Claude
// Code's own tools (Bash, Read, Write, Edit, MultiEdit, NotebookEdit, Glob,
// Grep, WebFetch, WebSearch, Task/Agent, TodoWrite) have built-in schemas;
// other tools (MCP) get theirs from the options. Every matching user schema
// applies, then the built-in one.
func NewToolSchema(options *yaml.Node) (engine.Builtin, error) {
	var opts toolSchemaOptions
	if err := hookenv.DecodeOptions(options, &opts); err != nil {
		return nil, err
	}
	c := &toolSchema{builtin: opts.BuiltinTools == nil || *opts.BuiltinTools}
	for i, e := range opts.Schemas {
		u, err := newUserToolSchema(options, i, e)
		if err != nil {
			return nil, err
		}
		c.user = append(c.user, u)
	}
	return c, nil
}

func newUserToolSchema(options *yaml.Node, i int, e toolSchemaEntry) (userToolSchema, error) {
	u := userToolSchema{label: fmt.Sprintf("schemas[%d]", i)}
	fail := func(key, format string, args ...any) error {
		name := u.label
		if key != "" {
			name += "." + key
		}
		msg := name + ": " + fmt.Sprintf(format, args...)
		if line := optionEntryLine(options, "schemas", i, key); line > 0 {
			msg = fmt.Sprintf("line %d: %s", line, msg)
		}
		return errors.New(msg)
	}
	if e.Matcher == "" {
		return u, fail("", "matcher is missing: give the tool name or a glob such as \"mcp__db__*\"")
	}
	m, err := match.Compile(e.Matcher)
	if err != nil {
		return u, fail("matcher", "%v", err)
	}
	u.matcher = m
	switch {
	case e.Schema != nil && e.File != "":
		return u, fail("", "give either schema (inline) or file, not both")
	case e.Schema == nil && e.File == "":
		return u, fail("", "give the tool's JSON Schema, inline as schema or in a JSON file as file")
	case e.File != "":
		f := filepath.FromSlash(e.File)
		if filepath.IsAbs(f) || strings.HasPrefix(e.File, "/") || strings.HasPrefix(e.File, `\`) || filepath.VolumeName(f) != "" {
			return u, fail("file", "%q is absolute; give a path relative to the project root", e.File)
		}
		for _, part := range strings.FieldsFunc(e.File, func(r rune) bool { return r == '/' || r == '\\' }) {
			if part == ".." {
				return u, fail("file", "%q leaves the project root (\"..\"); schema files must be inside the project", e.File)
			}
		}
		u.file = filepath.Clean(f)
	default:
		var data []byte
		if s, ok := e.Schema.(string); ok {
			data = []byte(s) // a schema written as a string of JSON
		} else if data, err = json.Marshal(e.Schema); err != nil {
			return u, fail("schema", "cannot be read as JSON: %v", err)
		}
		if u.inline, err = compileToolSchema(data); err != nil {
			return u, fail("schema", "%v", err)
		}
	}
	return u, nil
}

// optionEntryLine is the line of options[list][i][key], or of the entry
// when key is "" or absent; 0 when not found.
func optionEntryLine(options *yaml.Node, list string, i int, key string) int {
	if options == nil || options.Kind != yaml.MappingNode {
		return 0
	}
	for j := 0; j+1 < len(options.Content); j += 2 {
		seq := options.Content[j+1]
		if options.Content[j].Value != list || seq.Kind != yaml.SequenceNode || i >= len(seq.Content) {
			continue
		}
		item := seq.Content[i]
		if key != "" && item.Kind == yaml.MappingNode {
			for k := 0; k+1 < len(item.Content); k += 2 {
				if item.Content[k].Value == key {
					return item.Content[k].Line
				}
			}
		}
		return item.Line
	}
	return 0
}

// compileToolSchema reads a JSON Schema document and resolves it.
func compileToolSchema(data []byte) (*jsonschema.Resolved, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil, fmt.Errorf("a JSON Schema must be a JSON object, got %s", quoteCut(string(data), 40))
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	switch s.Schema {
	case "", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2020-12/schema":
	default:
		return nil, fmt.Errorf("$schema %q is not supported (use draft-07 or 2020-12, or leave $schema out)", s.Schema)
	}
	if err := checkToolSchemaTypes(&s, ""); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
}

// schemaJSONTypes are the names a schema's type may hold.
const schemaJSONTypes = "string, number, integer, boolean, object, array, null"

// checkToolSchemaTypes rejects a type name that is not a JSON type: the
// library takes "strng" and then rejects every input.
func checkToolSchemaTypes(s *jsonschema.Schema, at string) error {
	if s == nil {
		return nil
	}
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	for _, t := range types {
		if !slices.Contains(strings.Split(schemaJSONTypes, ", "), t) {
			where := "type"
			if at != "" {
				where = at + "/type"
			}
			return fmt.Errorf("%s: %q is not a JSON type (want one of %s)", where, t, schemaJSONTypes)
		}
	}
	for k, c := range map[string]*jsonschema.Schema{
		"items": s.Items, "additionalItems": s.AdditionalItems, "additionalProperties": s.AdditionalProperties,
		"contains": s.Contains, "not": s.Not, "if": s.If, "then": s.Then, "else": s.Else,
		"propertyNames": s.PropertyNames, "unevaluatedItems": s.UnevaluatedItems,
		"unevaluatedProperties": s.UnevaluatedProperties, "contentSchema": s.ContentSchema,
	} {
		if err := checkToolSchemaTypes(c, at+"/"+k); err != nil {
			return err
		}
	}
	for k, list := range map[string][]*jsonschema.Schema{
		"prefixItems": s.PrefixItems, "items": s.ItemsArray, "allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf,
	} {
		for i, c := range list {
			if err := checkToolSchemaTypes(c, fmt.Sprintf("%s/%s/%d", at, k, i)); err != nil {
				return err
			}
		}
	}
	for k, m := range map[string]map[string]*jsonschema.Schema{
		"properties": s.Properties, "patternProperties": s.PatternProperties, "$defs": s.Defs,
		"definitions": s.Definitions, "dependentSchemas": s.DependentSchemas, "dependencies": s.DependencySchemas,
	} {
		for name, c := range m {
			if err := checkToolSchemaTypes(c, at+"/"+k+"/"+name); err != nil {
				return err
			}
		}
	}
	return nil
}

// Check validates the tool input against every schema that applies.
func (c *toolSchema) Check(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	if call == nil || call.Event == nil {
		return engine.Verdict{}, nil
	}
	raw := bytes.TrimSpace(callToolInput(call))
	if len(raw) == 0 || raw[0] != '{' {
		// Not an object: malformed_tool_call's business. Absent: a
		// hand-written or partial event, not a model's call.
		return engine.Verdict{}, nil
	}
	name := call.Event.ToolName
	var schemas []*jsonschema.Resolved
	for i := range c.user {
		u := &c.user[i]
		if !u.matcher.Match(name) {
			continue
		}
		rs, err := u.resolved(call.Project)
		if err != nil {
			return engine.Verdict{}, err
		}
		schemas = append(schemas, rs)
	}
	var builtin *jsonschema.Schema
	if c.builtin {
		builtin = builtinToolSchema(name)
	}
	if len(schemas) == 0 && builtin == nil {
		return engine.Verdict{}, nil
	}
	instance, ok := toolInputValue(raw)
	if !ok {
		return engine.Verdict{}, nil // not JSON: malformed_tool_call's business
	}
	var r schemaReport
	for _, rs := range schemas {
		r.check(rs, instance)
	}
	if builtin != nil {
		// The built-in schemas use only the keywords walk reads (type,
		// enum, required, properties, items), so walk alone judges them:
		// resolving one with the library walks the whole Schema struct by
		// reflection, 400,000 instructions on the first Bash or Read call
		// of every hook process. A test holds walk's judgement equal to
		// the library's on every built-in schema.
		r.walk(builtin, instance, "")
	}
	return r.verdict(name), nil
}

// toolInputValue is the tool input as json.Unmarshal reads it into an
// any (objects as map[string]any, numbers as float64, a repeated key's
// last value), or false when it is not JSON, once the input is written as
// the agent reads it (protocol.AsTheAgentReads: the event's and a
// rewrite's inputs are already, so this costs a scan). It is read in one
// pass: gjson's Value re-scans a value once for each level above it, and
// an input nested deep and wide at once (8 MB, 9,000 levels) took longer
// than an agent waits for a hook, which lets the call through unjudged.
// Numbers are read as json.Number first, so that one too large for a
// float64 (1e400) is read as an infinity and judged, where Unmarshal
// refuses the whole input.
func toolInputValue(raw []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(protocol.AsTheAgentReads(raw)))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false // more after the value
	}
	return withFloats(v), true
}

// withFloats is v with each json.Number as the float64 Unmarshal would
// make of it, or an infinity past a float64's range.
func withFloats(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	case map[string]any:
		for k, e := range v {
			v[k] = withFloats(e)
		}
	case []any:
		for i, e := range v {
			v[i] = withFloats(e)
		}
	}
	return v
}

// maxSchemaBytes bounds a schema file: it is read on every call its
// matcher takes, and must be a regular file (a FIFO would hang the hook).
const maxSchemaBytes = 1 << 20

// resolved is u's schema: the inline one, or its file's, read now (the
// factory does not know the project root). The file must resolve, through
// any symbolic links, to a place inside the project.
func (u *userToolSchema) resolved(project string) (*jsonschema.Resolved, error) {
	if u.inline != nil {
		return u.inline, nil
	}
	where := fmt.Sprintf("tool_schema %s (matcher %q): schema file %s", u.label, u.matcher.String(), u.file)
	if project == "" {
		return nil, fmt.Errorf("%s: no project root to find it in", where)
	}
	root, err := filepath.EvalSymlinks(project)
	if err != nil {
		return nil, fmt.Errorf("%s: project root: %w", where, err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, u.file))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read it: %w", where, err)
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s: refusing to read it: it resolves to %s, outside the project root %s", where, real, root)
	}
	data, err := hookfs.ReadFile(real, maxSchemaBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read it: %w", where, err)
	}
	rs, err := compileToolSchema(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a usable JSON Schema: %w", where, err)
	}
	return rs, nil
}

// maxSchemaIssues caps the issues a reason lists.
const maxSchemaIssues = 20

// schemaReport collects what is wrong with a tool input, across schemas.
type schemaReport struct {
	issues  []string
	missing []string
	more    int
	enum    bool
	extra   bool
	seen    map[string]bool
	// found counts the faults found, repeats included.
	found int
}

func (r *schemaReport) add(issue string) {
	r.found++
	if r.seen[issue] {
		return
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[issue] = true
	if len(r.issues) == maxSchemaIssues {
		r.more++
		return
	}
	r.issues = append(r.issues, issue)
}

// addMissing adds a missing field, listed before the other faults.
func (r *schemaReport) addMissing(path string) {
	issue := fmt.Sprintf("missing required field %q", path)
	if r.seen[issue] {
		r.found++
		return
	}
	r.missing = append(r.missing, path)
	listed := len(r.issues)
	r.add(issue)
	if len(r.issues) > listed {
		// Move it up, after the missing fields already listed.
		i := min(len(r.missing), len(r.issues)) - 1
		copy(r.issues[i+1:], r.issues[i:listed])
		r.issues[i] = issue
	}
}

// check validates instance against rs. The library stops at the first
// error, so when it finds one the common keywords (type, enum, required,
// properties, items, additionalProperties: false) are walked here to name
// every fault at once; a fault only the library sees (pattern, oneOf, ...)
// is reported in its words.
func (r *schemaReport) check(rs *jsonschema.Resolved, instance any) {
	err := rs.Validate(instance)
	if err == nil {
		return
	}
	before := r.found
	r.walk(rs.Schema(), instance, "")
	if r.found == before {
		r.add(schemaLibraryIssue(err))
	}
}

func (r *schemaReport) walk(s *jsonschema.Schema, v any, path string) {
	if s == nil || s.Ref != "" || s.DynamicRef != "" {
		return
	}
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	if len(types) > 0 && !schemaHasType(types, v) {
		r.add(fmt.Sprintf("%s: got %s, want %s", schemaFieldName(path), schemaTypeOf(v), strings.Join(types, " or ")))
		return
	}
	if s.Enum != nil && !slices.ContainsFunc(s.Enum, func(e any) bool { return jsonschema.Equal(e, v) }) {
		want := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			want[i] = schemaValueText(e)
		}
		r.enum = true
		r.add(fmt.Sprintf("%s: got %s, want one of %s", schemaFieldName(path), schemaValueText(v), strings.Join(want, ", ")))
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range s.Required {
			if _, ok := v[k]; !ok {
				r.addMissing(schemaJoinField(path, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			if val, ok := v[k]; ok {
				r.walk(s.Properties[k], val, schemaJoinField(path, k))
			}
		}
		if a := s.AdditionalProperties; a != nil && a.Not != nil && schemaIsEmpty(a.Not) && len(s.PatternProperties) == 0 {
			allowed := strings.Join(slices.Sorted(maps.Keys(s.Properties)), ", ")
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if _, ok := s.Properties[k]; !ok {
					r.extra = true
					r.add(fmt.Sprintf("unexpected field %q (allowed: %s)", schemaJoinField(path, k), allowed))
				}
			}
		}
	case []any:
		if s.Items != nil {
			for i := len(s.PrefixItems); i < len(v); i++ {
				r.walk(s.Items, v[i], fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
}

// schemaIsEmpty reports whether s is {}, which additionalProperties: false
// is read as the negation of.
func schemaIsEmpty(s *jsonschema.Schema) bool {
	return reflect.ValueOf(*s).IsZero()
}

// verdict is the denial for tool, or no opinion when nothing is wrong.
func (r *schemaReport) verdict(tool string) engine.Verdict {
	if len(r.issues) == 0 {
		return engine.Verdict{}
	}
	if badToolName(tool) != "" {
		tool = quoteCut(tool, 80)
	}
	list := strings.Join(r.issues, "; ")
	if r.more > 0 {
		list += fmt.Sprintf("; and %d more", r.more)
	}
	advice := "Call " + tool + " again with every required field, each of the right type"
	if r.enum {
		advice += " and an allowed value"
	}
	if r.extra {
		advice += ", and no fields the schema does not allow"
	}
	v := engine.Verdict{
		Decision:      engine.Deny,
		Reason:        fmt.Sprintf("⚠️ BLOCKED: %s tool input does not match its schema: %s. %s.", tool, list, advice),
		SystemMessage: "⚠️ BLOCKED: " + tool + " tool input does not match its schema.",
	}
	if len(r.missing) > 0 {
		v.SystemMessage = "⚠️ BLOCKED: Missing required fields: [" + strings.Join(r.missing, ", ") + "]"
	}
	return v
}

// schemaLibraryIssue is a validation error from the library, without its
// chain of "validating <schema>:" prefixes but for the innermost.
func schemaLibraryIssue(err error) string {
	msg, at := err.Error(), ""
	for strings.HasPrefix(msg, "validating ") {
		i := strings.Index(msg, ": ")
		if i < 0 {
			break
		}
		at, msg = msg[len("validating "):i], msg[i+2:]
	}
	if at != "" && at != "root" {
		msg = schemaPathName(at) + ": " + msg
	}
	return msg
}

// schemaPathName names the field a schema path such as
// /properties/todos/items/properties/status checks (field "todos[].status"),
// or says the path when it goes through other keywords.
func schemaPathName(at string) string {
	field, rest := "", at
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "/properties/"):
			name := strings.TrimPrefix(rest, "/properties/")
			name, rest, _ = strings.Cut(name, "/")
			if rest != "" {
				rest = "/" + rest
			}
			name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
			field = schemaJoinField(field, name)
		case rest == "/items" || strings.HasPrefix(rest, "/items/"):
			field += "[]"
			rest = strings.TrimPrefix(rest, "/items")
		default:
			return "at " + at
		}
	}
	return schemaFieldName(field)
}

func schemaFieldName(path string) string {
	if path == "" {
		return "the input"
	}
	return fmt.Sprintf("field %q", path)
}

func schemaJoinField(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func schemaHasType(types []string, v any) bool {
	got := schemaTypeOf(v)
	for _, t := range types {
		switch {
		case t == got:
			return true
		case t == "integer" && got == "number":
			if f, ok := v.(float64); ok && f == math.Trunc(f) && !math.IsInf(f, 0) {
				return true
			}
		}
	}
	return false
}

// schemaTypeOf names the JSON type of a value json.Unmarshal made.
func schemaTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// schemaValueText is v as short JSON, for a message.
func schemaValueText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 60 {
		return quoteCut(string(b), 60)
	}
	return string(b)
}
