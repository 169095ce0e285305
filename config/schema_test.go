package config

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v3"
)

// TestSchemaPublished holds the published schema equal to the one the
// types give (regenerate: make schema).
func TestSchemaPublished(t *testing.T) {
	published, err := os.ReadFile("../docs/config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(published, Schema()) {
		t.Fatal("docs/config.schema.json is not the schema of the config types: run make schema")
	}
}

func resolvedSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// instance is the YAML text as the JSON value a language server checks.
func instance(t *testing.T, text string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSchemaAcceptsWhatParseAccepts: every valid config, the starter first,
// passes the schema, so an editor never flags a config the hook reads.
func TestSchemaAcceptsWhatParseAccepts(t *testing.T) {
	rs := resolvedSchema(t)
	for name, text := range map[string]string{
		"starter": Starter,
		"empty":   "{}\n",
		"massgen": massgenConfig,
		"rules": `hooks:
  PreToolUse:
    - matcher: "Write|Edit"
      handler: ./hooks/check.sh
      args: [--strict]
      timeout: 2.5
      fail_closed: true
    - matcher: "*"
      type: builtin
      handler: protected_paths
      enabled: false
      options: {outside_project: allow}
  PostToolUse:
    - shell: "echo ok"
      name: echo
agents:
  - id: reviewer
    hooks:
      PreToolUse: {override: true, hooks: [{handler: ./r.sh}]}
  - id: writer
    backend:
      hooks:
        PostToolUseFailure: []
`,
		"record on":  "record: true\n",
		"record map": "record: {dir: corpus, events: [PreToolUse, Stop]}\n",
		"durations":  "scratchpad:\n  session_start: {timeout: 2.5s}\n",
		"nulls":      "scratchpad:\nhooks:\n  PreToolUse:\n",
	} {
		if _, err := Parse("cfg.yaml", []byte(text)); err != nil {
			t.Errorf("%s: Parse: %v", name, err)
			continue
		}
		if err := rs.Validate(instance(t, text)); err != nil {
			t.Errorf("%s: the schema rejects a config Parse accepts: %v", name, err)
		}
	}
}

// TestSchemaRejectsWhatParseRejects: the mistakes a schema can see (keys
// and types) are flagged by both.
func TestSchemaRejectsWhatParseRejects(t *testing.T) {
	rs := resolvedSchema(t)
	for name, text := range map[string]string{
		"typo'd key":          "fail_closd: true\n",
		"nested typo":         "scratchpad:\n  block_capp: 3\n",
		"string for bool":     "default_guards: yes please\n",
		"string for int":      "scratchpad:\n  block_cap: three\n",
		"bad duration":        "scratchpad:\n  session_start: {timeout: 10 parsecs}\n",
		"unknown event":       "hooks:\n  PreToolUs: []\n",
		"hook key typo":       "hooks:\n  PreToolUse:\n    - handlr: x\n",
		"hook type":           "hooks:\n  PreToolUse:\n    - {handler: x, type: weird}\n",
		"timeout too long":    "hooks:\n  PreToolUse:\n    - {handler: x, timeout: 301}\n",
		"override typo":       "agents:\n  - id: a\n    hooks:\n      PreToolUse: {overide: true, hooks: []}\n",
		"record event":        "record: {events: [Nope]}\n",
		"hooks not a mapping": "hooks: [x]\n",
		"list for string":     "scratchpad:\n  root: [a]\n",
	} {
		if _, err := Parse("cfg.yaml", []byte(text)); err == nil {
			t.Errorf("%s: Parse accepts it", name)
		}
		if err := rs.Validate(instance(t, text)); err == nil {
			t.Errorf("%s: the schema accepts a config Parse rejects", name)
		}
	}
}

// TestSchemaProtectedPathsOptions: the options of protected_paths are
// described, env_secrets among them: a value it takes passes, a mistyped
// key or value is flagged; another check's options are left open.
func TestSchemaProtectedPathsOptions(t *testing.T) {
	rs := resolvedSchema(t)
	rule := func(handler, options string) string {
		return "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: " + handler + "\n      options: " + options + "\n"
	}
	for _, ok := range []string{
		rule("protected_paths", "{env_secrets: allow}"),
		rule("protected_paths", "{env_secrets: deny, unparsable: allow, add: {read: [secrets/**]}}"),
		rule("dangerous_commands", "{env_secrets: maybe}"),
	} {
		if err := rs.Validate(instance(t, ok)); err != nil {
			t.Errorf("%s: rejected: %v", ok, err)
		}
	}
	for _, bad := range []string{
		rule("protected_paths", "{env_secrets: ask}"),
		rule("protected_paths", "{env_secret: allow}"),
	} {
		if err := rs.Validate(instance(t, bad)); err == nil {
			t.Errorf("%s: accepted, want it flagged", bad)
		}
	}
}
