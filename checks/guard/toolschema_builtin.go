package guard

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// builtinToolSchema is the input schema of one of Claude Code's own tools,
// or nil when name is not one. Each call builds only the asked tool's
// schema, as Go values: unmarshalling schema documents costs a reflection
// warm-up of the big Schema struct, once per process, that a hook started
// for every tool call cannot afford.
//
// The shapes are those of the Claude Agent SDK's tool input types
// (sdk-tools.d.ts: BashInput, FileReadInput, ...), plus the older
// MultiEdit. Extra properties stay allowed: new Claude Code releases add
// fields, and real events carry ones the types lack. Only stable enums are
// kept; model, effort and mode values change release by release.
func builtinToolSchema(name string) *jsonschema.Schema {
	switch name {
	case "Bash":
		return jsObject(
			jsReq("command", jsString()),
			jsOpt("timeout", jsNumber()),
			jsOpt("description", jsString()),
			jsOpt("run_in_background", jsBool()),
			jsOpt("dangerouslyDisableSandbox", jsBool()),
		)
	case "Read":
		return jsObject(
			jsReq("file_path", jsString()),
			jsOpt("offset", jsNumber()),
			jsOpt("limit", jsNumber()),
			jsOpt("pages", jsString()),
			jsOpt("allow_large", jsBool()),
		)
	case "Write":
		return jsObject(
			jsReq("file_path", jsString()),
			jsReq("content", jsString()),
		)
	case "Edit":
		return jsObject(
			jsReq("file_path", jsString()),
			jsReq("old_string", jsString()),
			jsReq("new_string", jsString()),
			jsOpt("replace_all", jsBool()),
		)
	case "MultiEdit":
		return jsObject(
			jsReq("file_path", jsString()),
			jsReq("edits", jsArray(jsObject(
				jsReq("old_string", jsString()),
				jsReq("new_string", jsString()),
				jsOpt("replace_all", jsBool()),
			))),
		)
	case "NotebookEdit":
		return jsObject(
			jsReq("notebook_path", jsString()),
			jsReq("new_source", jsString()),
			jsOpt("cell_id", jsString()),
			jsOpt("cell_type", jsEnum("code", "markdown")),
			jsOpt("edit_mode", jsEnum("replace", "insert", "delete")),
		)
	case "Glob":
		return jsObject(
			jsReq("pattern", jsString()),
			jsOpt("path", jsString()),
		)
	case "Grep":
		return jsObject(
			jsReq("pattern", jsString()),
			jsOpt("path", jsString()),
			jsOpt("glob", jsString()),
			jsOpt("output_mode", jsEnum("content", "files_with_matches", "count")),
			jsOpt("-B", jsNumber()),
			jsOpt("-A", jsNumber()),
			jsOpt("-C", jsNumber()),
			jsOpt("context", jsNumber()),
			jsOpt("-n", jsBool()),
			jsOpt("-i", jsBool()),
			jsOpt("-o", jsBool()),
			jsOpt("type", jsString()),
			jsOpt("head_limit", jsNumber()),
			jsOpt("offset", jsNumber()),
			jsOpt("multiline", jsBool()),
		)
	case "WebFetch":
		return jsObject(
			jsReq("url", jsString()),
			jsReq("prompt", jsString()),
			jsOpt("offset", jsNumber()),
		)
	case "WebSearch":
		return jsObject(
			jsReq("query", jsString()),
			jsOpt("allowed_domains", jsArray(jsString())),
			jsOpt("blocked_domains", jsArray(jsString())),
		)
	case "Task", "Agent":
		return jsObject(
			jsReq("description", jsString()),
			jsReq("prompt", jsString()),
			jsOpt("subagent_type", jsString()),
			jsOpt("model", jsString()),
			jsOpt("effort", jsString()),
			jsOpt("run_in_background", jsBool()),
			jsOpt("name", jsString()),
			jsOpt("team_name", jsString()),
			jsOpt("mode", jsString()),
			jsOpt("isolation", jsString()),
		)
	case "TodoWrite":
		return jsObject(
			jsReq("todos", jsArray(jsObject(
				jsReq("content", jsString()),
				jsReq("status", jsEnum("pending", "in_progress", "completed")),
				jsReq("activeForm", jsString()),
			))),
		)
	}
	return nil
}

// jsField is one property of an object schema.
type jsField struct {
	name     string
	required bool
	schema   *jsonschema.Schema
}

func jsReq(name string, s *jsonschema.Schema) jsField { return jsField{name, true, s} }
func jsOpt(name string, s *jsonschema.Schema) jsField { return jsField{name, false, s} }

// jsObject is an object schema with fields; others are allowed.
func jsObject(fields ...jsField) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: make(map[string]*jsonschema.Schema, len(fields))}
	for _, f := range fields {
		s.Properties[f.name] = f.schema
		if f.required {
			s.Required = append(s.Required, f.name)
		}
	}
	return s
}

// Each helper returns a new schema: a resolved schema must be a tree, so
// no two places may share one.
func jsString() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }
func jsNumber() *jsonschema.Schema { return &jsonschema.Schema{Type: "number"} }
func jsBool() *jsonschema.Schema   { return &jsonschema.Schema{Type: "boolean"} }

func jsArray(items *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: items}
}

func jsEnum(values ...string) *jsonschema.Schema {
	e := make([]any, len(values))
	for i, v := range values {
		e[i] = v
	}
	return &jsonschema.Schema{Type: "string", Enum: e}
}
