package checks

import (
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/engine"
)

// TestBuiltinsTakeNoOptions: a check without options refuses some.
func TestBuiltinsTakeNoOptions(t *testing.T) {
	for _, c := range Builtins() {
		if c.Name != "high_priority_task_reminder" && c.Name != "malformed_tool_call" {
			continue
		}
		for _, text := range []string{"", "~"} {
			if _, err := c.New(checktest.OptionsNode(t, text)); err != nil {
				t.Errorf("%s with %q: %v", c.Name, text, err)
			}
		}
		if _, err := c.New(checktest.OptionsNode(t, "x: 1")); err == nil || err.Error() != "this check takes no options" {
			t.Errorf("%s with options: err %v", c.Name, err)
		}
	}
}

// TestBuiltinOptionsThroughAlias: a configuration that gives two rules
// the same options through a YAML anchor compiles.
func TestBuiltinOptionsThroughAlias(t *testing.T) {
	text := `hooks:
  PreToolUse:
    - type: builtin
      handler: budget
      options: &limits {limits: {WebSearch: 5}}
agents:
  - id: researcher
    hooks:
      PreToolUse:
        - {type: builtin, handler: budget, options: *limits}
`
	cfg, err := config.Parse("cfg.yaml", []byte(text))
	if err != nil {
		t.Fatalf("config.Parse: %v", err)
	}
	if _, err := engine.Compile(&cfg, Builtins()); err != nil {
		t.Fatalf("Compile: %v", err)
	}
}

// TestDefaultChecksNeedNoOptions: the engine makes a default check the
// configuration does not name on its first run, without options, where a
// failure could no longer be a configuration error found up front; so
// every default check must be made from no options.
func TestDefaultChecksNeedNoOptions(t *testing.T) {
	for _, c := range Builtins() {
		if !c.Default {
			continue
		}
		if b, err := c.New(nil); b == nil || err != nil {
			t.Errorf("default check %s without options: %v, %v", c.Name, b, err)
		}
	}
}
