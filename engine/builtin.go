package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/config"
)

// Builtin is a built-in check that a rule names with type: builtin. It
// answers like a command handler, without a process start.
type Builtin interface {
	Check(ctx context.Context, call *Call) (Verdict, error)
}

// BuiltinFunc adapts a function to Builtin.
type BuiltinFunc func(ctx context.Context, call *Call) (Verdict, error)

// Check calls f.
func (f BuiltinFunc) Check(ctx context.Context, call *Call) (Verdict, error) { return f(ctx, call) }

// Factory makes a built-in check from its rule's options: nil when the rule
// has none. A bad option is an error saying which and why.
type Factory func(options *yaml.Node) (Builtin, error)

// Registry maps a built-in check's name to its factory.
type Registry map[string]Factory

// Names lists the registered checks, sorted.
func (reg Registry) Names() []string {
	names := make([]string, 0, len(reg))
	for n := range reg {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (reg Registry) make(h config.Hook) (Builtin, error) {
	f, ok := reg[h.Handler]
	if !ok {
		known := "none"
		if len(reg) > 0 {
			known = strings.Join(reg.Names(), ", ")
		}
		return nil, &config.Error{Path: h.File, Line: h.LineOf("handler"),
			Msg: fmt.Sprintf("%s.handler: unknown built-in check %q (known: %s)", h.Key, h.Handler, known)}
	}
	var opts *yaml.Node
	if h.Options.Kind != 0 {
		opts = &h.Options
	}
	b, err := f(opts)
	if err != nil {
		return nil, &config.Error{Path: h.File, Line: h.LineOf("options"),
			Msg: fmt.Sprintf("%s.options: built-in check %q: %v", h.Key, h.Handler, err)}
	}
	return b, nil
}
