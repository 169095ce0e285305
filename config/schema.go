package config

import (
	"encoding/json"
	"reflect"
	"strings"
)

// SchemaID names the JSON Schema of the config file ($id); where the
// repository is published, the schema is there too.
const SchemaID = "https://raw.githubusercontent.com/massgen/massgen-hook/main/docs/config.schema.json"

// SchemaFile is where init writes the schema beside the config, and the
// starter config points editors at it, relative to the config file's
// folder: .claude/massgen-hook.schema.json, committed with the config so
// every editor in the team finds it without a network.
const SchemaFile = "massgen-hook.schema.json"

// Schema returns the JSON Schema (draft 2020-12) of the config file,
// generated from the Go types and their yaml tags, so that an editor with a
// YAML language server flags a mistyped key or a wrong type while the file
// is written. The types that decode themselves (a rule, a list of rules,
// record:) are described by hand beside their decoders' rules; a test holds
// the schema to what Parse accepts and rejects.
func Schema() []byte {
	root := schemaOf(reflect.TypeOf(Config{}))
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaID
	root["title"] = "massgen-hook configuration (.claude/massgen-hook.yaml)"
	root["$defs"] = map[string]any{"hook": hookSchema(), "eventHooks": eventHooksSchema()}
	out, err := json.MarshalIndent(root, "", "  ")
	if err != nil {
		panic(err) // the schema is built from maps of plain values
	}
	return append(out, '\n')
}

// schemaOf describes a config type by its yaml tags.
func schemaOf(t reflect.Type) map[string]any {
	switch t {
	case reflect.TypeFor[Duration]():
		return map[string]any{"type": "string", "pattern": `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`,
			"description": "a duration such as 10s or 1m30s"}
	case reflect.TypeOf(EventHooks{}):
		return map[string]any{"$ref": "#/$defs/eventHooks"}
	case reflect.TypeOf(Record{}):
		return recordSchema()
	case reflect.TypeOf(Confine{}):
		return confineSchema()
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice:
		return map[string]any{"type": []string{"array", "null"}, "items": schemaOf(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if opts == "inline" && f.Type.Kind() == reflect.Struct {
				for k, v := range schemaOf(f.Type)["properties"].(map[string]any) {
					props[k] = v
				}
				continue
			}
			if name == "" || name == "-" {
				continue
			}
			props[name] = schemaOf(f.Type)
		}
		// A MassGen config's own keys pass (see massgen.go); a backend's
		// are open, as MassGen passes them on to the model's API.
		var theirs []string
		switch t {
		case reflect.TypeOf(Config{}):
			theirs = massgenTopKeys
		case reflect.TypeOf(Agent{}):
			theirs = massgenAgentKeys
		case reflect.TypeOf(Backend{}):
			return map[string]any{"type": []string{"object", "null"}, "properties": props, "additionalProperties": true}
		}
		for _, k := range theirs {
			if props[k] == nil {
				props[k] = map[string]any{"description": "MassGen's key, read by MassGen only"}
			}
		}
		return map[string]any{"type": []string{"object", "null"}, "properties": props, "additionalProperties": false}
	}
	panic("config schema: no JSON Schema for " + t.String()) // a test builds the schema of every type
}

// hookSchema is one rule, as Hook.decode and validateHooks read it.
func hookSchema() map[string]any {
	str := map[string]any{"type": "string"}
	// MassGen bounds a Python hook's timeout only below.
	return map[string]any{
		"type": "object", "additionalProperties": false,
		"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"const": TypePython}}, "required": []string{"type"}},
		"then": map[string]any{"properties": map[string]any{"timeout": map[string]any{"exclusiveMinimum": 0}}},
		"else": map[string]any{"properties": map[string]any{"timeout": map[string]any{"minimum": 0.001, "maximum": MaxHookTimeout.Seconds()}}},
		"properties": map[string]any{
			"name":    str,
			"matcher": map[string]any{"type": "string", "description": `tool names: "*", "Write|Edit", a glob, or re:<regular expression>`},
			"type": map[string]any{"enum": []string{TypeCommand, TypeBuiltin, TypePython},
				"description": "command (the default) or builtin; python is MassGen's own hook, skipped in a MassGen config"},
			"handler":     map[string]any{"type": "string", "description": "the program to run (type: command) or the built-in check's name (type: builtin)"},
			"args":        map[string]any{"type": "array", "items": str},
			"shell":       map[string]any{"type": "string", "description": "a command line run by /bin/sh -c instead of handler"},
			"timeout":     map[string]any{"type": "number", "description": "seconds (default " + DefaultHookTimeout.String() + ")"},
			"fail_closed": map[string]any{"type": "boolean"},
			"enabled":     map[string]any{"type": "boolean"},
			"options":     map[string]any{"type": []string{"object", "null"}, "description": "options of a built-in check"},
		},
		"allOf": []any{map[string]any{
			"if":   map[string]any{"properties": map[string]any{"handler": map[string]any{"const": "protected_paths"}}, "required": []string{"handler"}},
			"then": map[string]any{"properties": map[string]any{"options": protectedPathsOptionsSchema()}},
		}},
	}
}

// protectedPathsOptionsSchema is the options of the protected_paths check,
// as it decodes them (checks/guard, NewProtectedPaths; unknown keys are
// mistakes there too).
func protectedPathsOptionsSchema() map[string]any {
	list := map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "doublestar globs; ~/ is the home"}
	denyAllow := func(what string) map[string]any {
		return map[string]any{"enum": []string{"deny", "allow"}, "description": what + " (default deny)"}
	}
	return map[string]any{
		"type": []string{"object", "null"}, "additionalProperties": false,
		"properties": map[string]any{
			"read": list, "write": list, "except": list, "outside_allowed": list,
			"add": map[string]any{"type": "object", "additionalProperties": false, "description": "entries added to the default lists",
				"properties": map[string]any{"read": list, "write": list, "except": list, "outside_allowed": list}},
			"outside_project": denyAllow("writes outside the project"),
			"unparsable":      denyAllow("a Bash command the parser cannot read"),
			"env_secrets":     denyAllow("printing a secret environment variable (or every variable), or sending one as a request's whole body"),
		},
	}
}

// eventHooksSchema is one event's rules: a list, or override: and hooks:.
func eventHooksSchema() map[string]any {
	list := map[string]any{"type": []string{"array", "null"}, "items": map[string]any{"$ref": "#/$defs/hook"}}
	return map[string]any{"oneOf": []any{
		list,
		map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"override": map[string]any{"type": "boolean"}, "hooks": list}},
	}}
}

// recordSchema is record: true, false, or {dir, events}.
func recordSchema() map[string]any {
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "boolean"},
		map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
			"dir":    map[string]any{"type": "string"},
			"events": map[string]any{"type": "array", "items": map[string]any{"enum": RecordEvents}},
		}},
	}}
}

// confineSchema is confine: on, off (or a boolean), or {enabled, writable}.
func confineSchema() map[string]any {
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "boolean"},
		map[string]any{"enum": []string{"on", "off"}},
		map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
			"enabled": map[string]any{"type": "boolean"},
			"writable": map[string]any{"type": "array", "items": map[string]any{"type": "string", "pattern": "^(/|~/)",
				"description": "a folder commands may write, absolute or under ~/"}},
		}},
	}, "description": "the sandbox of agents' shell commands (docs/confine.md)"}
}
