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

// Reverter is a built-in check that counts the calls it lets through (a
// budget). When a later rule of the same PreToolUse chain denies the call,
// the engine calls Revert, so the count covers only calls that went ahead.
type Reverter interface {
	Revert(ctx context.Context, call *Call) error
}

// BuiltinFunc adapts a function to Builtin.
type BuiltinFunc func(ctx context.Context, call *Call) (Verdict, error)

// Check calls f.
func (f BuiltinFunc) Check(ctx context.Context, call *Call) (Verdict, error) { return f(ctx, call) }

// Factory makes a built-in check from its rule's options: nil when the rule
// has none. A bad option is an error saying which and why.
type Factory func(options *yaml.Node) (Builtin, error)

// Check describes one built-in check.
type Check struct {
	Name string
	New  Factory
	// Events are the events the check runs on. It is declared under the
	// first; a check that also needs later events (the round clock warns
	// after a call, smart retry counts failures) is written once and runs
	// on each. None: it runs wherever it is declared.
	Events []string
	// Default checks guard every tool call of every project: each is a
	// global rule of its first event, first in the chain, until the
	// configuration names it (to set options, move it, or switch it off
	// with enabled: false). A default check is made without options, on
	// its first run, so its factory must accept none.
	Default bool
	// Guard marks the default checks that default_guards: false switches
	// off; a default that is a feature (the inbox) stays on.
	Guard bool
}

// Registry lists the built-in checks; default checks run in its order.
type Registry []Check

// Names lists the registered checks, sorted.
func (reg Registry) Names() []string {
	names := make([]string, 0, len(reg))
	for _, c := range reg {
		names = append(names, c.Name)
	}
	sort.Strings(names)
	return names
}

func (reg Registry) lookup(name string) (Check, bool) {
	for _, c := range reg {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// make compiles the check a rule declared for event names.
func (reg Registry) make(h *config.Hook, event string) (Builtin, []string, error) {
	c, ok := reg.lookup(h.Handler)
	if !ok {
		known := "none"
		if len(reg) > 0 {
			known = strings.Join(reg.Names(), ", ")
		}
		return nil, nil, &config.Error{Path: h.File, Line: h.LineOf("handler"),
			Msg: fmt.Sprintf("%s.handler: unknown built-in check %q (known: %s)", h.Key, h.Handler, known)}
	}
	if len(c.Events) > 0 && event != c.Events[0] {
		return nil, nil, &config.Error{Path: h.File, Line: h.LineOf("handler"),
			Msg: fmt.Sprintf("%s.handler: declare built-in check %q under %s%s", h.Key, h.Handler, c.Events[0], alsoText(c.Events[1:]))}
	}
	var opts *yaml.Node
	if h.Options.Kind != 0 {
		opts = &h.Options
	}
	b, err := c.New(opts)
	if err != nil {
		return nil, nil, &config.Error{Path: h.File, Line: h.LineOf("options"),
			Msg: fmt.Sprintf("%s.options: built-in check %q: %v", h.Key, h.Handler, err)}
	}
	if len(c.Events) == 0 {
		return b, nil, nil
	}
	return b, c.Events[1:], nil
}

func alsoText(also []string) string {
	if len(also) == 0 {
		return ""
	}
	return " (it runs on " + strings.Join(also, " and ") + " by itself)"
}
