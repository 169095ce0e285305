package guard

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/massgen/massgen-hook/internal/testrace"
)

// builtinToolNames are the tools builtinToolSchema has a schema for.
var builtinToolNames = []string{
	"Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep",
	"WebFetch", "WebSearch", "Task", "Agent", "TodoWrite",
}

// walkedKeywords are the schema fields schemaReport.walk reads. A built-in
// schema is judged by walk alone (no library), so it may use no other.
var walkedKeywords = []string{"Type", "Enum", "Required", "Properties", "Items"}

// TestToolSchemaBuiltinKeywords: every built-in schema, at every depth,
// sets only fields walk reads, and the library resolves it (it is valid).
func TestToolSchemaBuiltinKeywords(t *testing.T) {
	var visit func(tool, at string, s *jsonschema.Schema)
	visit = func(tool, at string, s *jsonschema.Schema) {
		v := reflect.ValueOf(*s)
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if !v.Field(i).IsZero() && !slices.Contains(walkedKeywords, name) {
				t.Errorf("%s%s sets %s, which schemaReport.walk does not check", tool, at, name)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			visit(tool, at+"/properties/"+k, s.Properties[k])
		}
		if s.Items != nil {
			visit(tool, at+"/items", s.Items)
		}
	}
	for _, tool := range builtinToolNames {
		s := builtinToolSchema(tool)
		if s == nil {
			t.Fatalf("%s has no built-in schema", tool)
		}
		visit(tool, "", s)
		if _, err := s.Resolve(nil); err != nil {
			t.Errorf("%s: the library rejects the built-in schema: %v", tool, err)
		}
	}
}

// TestToolSchemaBuiltinWalkAgrees: on every built-in schema, walk finds a
// fault exactly when the library's validation fails, over the conformance
// events' tool inputs (real and hand-made) and inputs generated from each
// schema: each field dropped, given every JSON type and each enum value,
// nested inside arrays and objects.
//
// It starts no goroutine (the walk and the library's validation are plain
// calls): the race detector has nothing to find here and made it ten times
// slower (19 s against 2). It skips itself under -race; `make test` runs it
// without.
func TestToolSchemaBuiltinWalkAgrees(t *testing.T) {
	testrace.Skip(t)
	inputs := conformanceToolInputs(t)
	for _, tc := range validBuiltinInputs {
		var v any
		if err := json.Unmarshal([]byte(tc.input), &v); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, v)
	}
	checked, faulty := 0, 0
	for _, tool := range builtinToolNames {
		for _, v := range append(slices.Clone(inputs), schemaVariants(builtinToolSchema(tool))...) {
			if walkAgrees(t, tool, v) {
				faulty++
			}
			checked++
		}
	}
	// Both answers must be well represented, or agreement proves little.
	if faulty < 1000 || checked-faulty < 300 {
		t.Fatalf("%d inputs checked, %d faulty: the corpus is too small or one-sided", checked, faulty)
	}
}

// FuzzToolSchemaBuiltinWalk: any JSON value, on every built-in schema.
func FuzzToolSchemaBuiltinWalk(f *testing.F) {
	for _, tc := range validBuiltinInputs {
		f.Add(tc.input)
	}
	f.Add(`{"todos":[{"content":"a","status":"pending","activeForm":"A"},{"status":"x"}]}`)
	f.Add(`{"edits":[{"old_string":"a","new_string":"b"},[]],"file_path":null}`)
	f.Fuzz(func(t *testing.T, input string) {
		var v any
		if json.Unmarshal([]byte(input), &v) != nil {
			return
		}
		for _, tool := range builtinToolNames {
			walkAgrees(t, tool, v)
		}
	})
}

// walkAgrees checks walk against the library on v for tool's schema, and
// reports whether v is faulty.
func walkAgrees(t testing.TB, tool string, v any) bool {
	t.Helper()
	rs, err := builtinToolSchema(tool).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	libErr := rs.Validate(v)
	var r schemaReport
	r.walk(builtinToolSchema(tool), v, "")
	if (libErr != nil) != (r.found > 0) {
		b, _ := json.Marshal(v)
		t.Errorf("%s %s: library says %v, walk found %v", tool, b, libErr, r.issues)
	}
	return libErr != nil
}

// conformanceToolInputs are the tool_input objects of ../shared's
// conformance events (none when it is absent).
func conformanceToolInputs(t *testing.T) []any {
	root := filepath.Join("..", "..", "..", "shared", "conformance")
	var inputs []any
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var ev struct {
			ToolInput any `json:"tool_input"`
		}
		if json.Unmarshal(data, &ev) == nil && ev.ToolInput != nil {
			inputs = append(inputs, ev.ToolInput)
		}
		return nil
	})
	if len(inputs) == 0 {
		t.Log("no conformance events with a tool_input found: generated inputs only")
	}
	return inputs
}

// schemaVariants are inputs made from s: a valid one, then each property
// (at any depth) dropped, replaced by each of its own variants, and an
// unknown field added.
func schemaVariants(s *jsonschema.Schema) []any {
	kinds := []any{nil, true, false, 0.0, 3.0, 1.5, -2.0, "", "x", []any{}, []any{"x"}, []any{1.0}, map[string]any{}}
	out := slices.Clone(kinds)
	for _, e := range s.Enum {
		out = append(out, e)
	}
	switch s.Type {
	case "object":
		base := validValue(s).(map[string]any)
		out = append(out, base)
		with := func(k string, v any, keep bool) map[string]any {
			m := maps.Clone(base)
			if keep {
				m[k] = v
			} else {
				delete(m, k)
			}
			return m
		}
		out = append(out, with("unknown_field", "x", true))
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			out = append(out, with(k, nil, false))
			for _, v := range schemaVariants(s.Properties[k]) {
				out = append(out, with(k, v, true))
			}
		}
	case "array":
		ok := validValue(s.Items)
		for _, v := range schemaVariants(s.Items) {
			out = append(out, []any{v}, []any{ok, v})
		}
	}
	return out
}

// validValue is a value s accepts.
func validValue(s *jsonschema.Schema) any {
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "string":
		return "x"
	case "number":
		return 1.0
	case "boolean":
		return true
	case "array":
		return []any{validValue(s.Items)}
	case "object":
		m := map[string]any{}
		for _, k := range s.Required {
			m[k] = validValue(s.Properties[k])
		}
		return m
	}
	panic("no valid value for type " + s.Type)
}
