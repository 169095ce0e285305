package checks

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/engine"
)

// Builtins are the checks a rule can name with type: builtin.
func Builtins() engine.Registry {
	return engine.Registry{
		"high_priority_task_reminder": noOptions(engine.BuiltinFunc(taskReminder)),
	}
}

// noOptions is the factory of a check that takes no options: giving it some
// is a configuration error, not silently ignored.
func noOptions(b engine.Builtin) engine.Factory {
	return func(options *yaml.Node) (engine.Builtin, error) {
		if options != nil && !(options.Kind == yaml.ScalarNode && options.Tag == "!!null") {
			return nil, fmt.Errorf("this check takes no options")
		}
		return b, nil
	}
}
