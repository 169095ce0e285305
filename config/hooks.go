package config

import (
	"fmt"
	"math"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/internal/match"
)

// Hook types.
const (
	TypeCommand = "command"
	TypeBuiltin = "builtin"
)

// Hook events a rule can be written for.
var hookEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure"}

// DefaultHookTimeout and MaxHookTimeout bound one handler's run. A hook runs
// on every matching tool call, so the default is short; the maximum stays
// under Claude Code's own 600 s limit for the whole hook.
const (
	DefaultHookTimeout = 10 * time.Second
	MaxHookTimeout     = 300 * time.Second
)

// Hooks are the rules of one scope, the global one or one agent's, by event.
type Hooks struct {
	PreToolUse         EventHooks `yaml:"PreToolUse"`
	PostToolUse        EventHooks `yaml:"PostToolUse"`
	PostToolUseFailure EventHooks `yaml:"PostToolUseFailure"`
}

// For returns the rules for event ("PreToolUse", "PostToolUse",
// "PostToolUseFailure").
func (h *Hooks) For(event string) *EventHooks {
	switch event {
	case "PreToolUse":
		return &h.PreToolUse
	case "PostToolUse":
		return &h.PostToolUse
	case "PostToolUseFailure":
		return &h.PostToolUseFailure
	}
	return nil
}

// Empty reports whether h holds no rule for any event.
func (h *Hooks) Empty() bool {
	for _, e := range hookEvents {
		if len(h.For(e).Hooks) > 0 || h.For(e).Override {
			return false
		}
	}
	return true
}

// HasRules reports whether c declares rules of its own, global or per
// agent: the rules whose compilation can fail (the built-in defaults
// always compile).
func (c *Config) HasRules() bool { return !c.Hooks.Empty() || len(c.Agents) > 0 }

// EventHooks are one scope's rules for one event, in order. In an agent's
// scope, Override drops the global rules for this event for that agent.
type EventHooks struct {
	Override bool
	Hooks    []Hook
	line     int
}

// Hook is one rule: which tools it matches and what runs.
type Hook struct {
	// Name identifies the rule in audit records and explain output; it
	// defaults to the handler.
	Name    string
	Matcher match.Matcher
	// Type is TypeCommand or TypeBuiltin.
	Type string
	// Handler is the program (exec form) or the built-in check's name.
	Handler string
	Args    []string
	// Shell is a command line run by /bin/sh -c instead of Handler.
	Shell      string
	Timeout    time.Duration
	FailClosed bool
	// Disabled rules are checked but never run: enabled: false, the way to
	// switch off a default guard or park a rule.
	Disabled bool
	// Options configure a built-in check; it decodes them itself.
	Options yaml.Node
	// File, Line and Key (the dotted path, hooks.PreToolUse[0]) are where
	// the rule is written, for messages that tell the user what to fix.
	File string
	Line int
	Key  string

	raw   rawHook
	lines map[string]int
}

// Where is "file:line" of the rule.
func (h *Hook) Where() string {
	if h.File == "" {
		return "built-in default"
	}
	return fmt.Sprintf("%s:%d", h.File, h.Line)
}

// rawHook is a hook as written, before defaults and validation.
type rawHook struct {
	Name       string    `yaml:"name"`
	Matcher    string    `yaml:"matcher"`
	Type       string    `yaml:"type"`
	Handler    string    `yaml:"handler"`
	Args       []string  `yaml:"args"`
	Shell      string    `yaml:"shell"`
	Timeout    yaml.Node `yaml:"timeout"`
	FailClosed bool      `yaml:"fail_closed"`
	Enabled    *bool     `yaml:"enabled"`
	Options    yaml.Node `yaml:"options"`
}

var hookKeys = []string{"name", "matcher", "type", "handler", "args", "shell", "timeout", "fail_closed", "enabled", "options"}

// Agent is one agent's own rules. MassGen nests them under backend:, which
// is accepted too; in a MassGen config, the agent's other keys are
// MassGen's (see massgen.go).
type Agent struct {
	ID      string  `yaml:"id"`
	Hooks   Hooks   `yaml:"hooks"`
	Backend Backend `yaml:"backend"`
	// Workspace is the folder of the agent's files and of MassGen's
	// injection files for it, relative to the project unless absolute;
	// by default, where MassGen puts backend.cwd (see WorkspaceDir).
	Workspace string `yaml:"workspace"`
	// Other holds the keys that are not massgen-hook's, judged by
	// checkOtherKeys.
	Other map[string]yaml.Node `yaml:",inline"`
}

// Backend is MassGen's per-agent backend block. Its hooks are read; its
// type says which agent CLI or API runs the agent (codex, claude_code,
// gemini_cli, ...), and cwd where MassGen keeps its workspace.
type Backend struct {
	Type  string `yaml:"type"`
	Cwd   string `yaml:"cwd"`
	Hooks Hooks  `yaml:"hooks"`
	// Other holds MassGen's other backend keys (model, provider
	// parameters), read by MassGen only.
	Other map[string]yaml.Node `yaml:",inline"`
}

// UnmarshalYAML reads either a list of hooks (extending the global ones) or
// {override: bool, hooks: [...]}. The YAML library does not carry strict
// key checking into custom decoders, so keys are checked here by hand.
func (e *EventHooks) UnmarshalYAML(n *yaml.Node) error {
	e.line = n.Line
	switch n.Kind {
	case yaml.SequenceNode:
		return e.decodeList(n)
	case yaml.MappingNode:
		if err := checkKeys(n, "EventHooks", "override", "hooks"); err != nil {
			return err
		}
		var errs []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var err error
			switch k.Value {
			case "override":
				err = v.Decode(&e.Override)
			case "hooks":
				if v.Kind == yaml.SequenceNode || isNull(v) {
					err = e.decodeList(v)
				} else {
					err = typeError(v.Line, "`hooks` must be a list of hooks")
				}
			}
			errs = appendTypeErrors(errs, err)
		}
		return joinTypeErrors(errs)
	}
	if isNull(n) {
		return nil
	}
	return typeError(n.Line, "expected a list of hooks, or override: and hooks:")
}

func (e *EventHooks) decodeList(n *yaml.Node) error {
	var errs []string
	for _, item := range n.Content {
		var h Hook
		errs = appendTypeErrors(errs, h.decode(item))
		e.Hooks = append(e.Hooks, h)
	}
	return joinTypeErrors(errs)
}

func (h *Hook) decode(n *yaml.Node) error {
	h.Line = n.Line
	if n.Kind != yaml.MappingNode {
		return typeError(n.Line, "a hook must be a mapping with handler:, matcher:, type: ...")
	}
	if err := checkKeys(n, "Hook", hookKeys...); err != nil {
		return err
	}
	h.lines = make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		h.lines[n.Content[i].Value] = n.Content[i].Line
	}
	return n.Decode(&h.raw)
}

// LineOf returns the line of the rule's field (handler, options, ...), or
// of the rule itself when the field is not written.
func (h *Hook) LineOf(key string) int {
	if l := h.lines[key]; l > 0 {
		return l
	}
	return h.Line
}

// checkKeys rejects keys of mapping n that are not in allowed, in the
// decoder's own words so the message names the dotted key like every other
// unknown key.
func checkKeys(n *yaml.Node, typeName string, allowed ...string) error {
	var errs []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ok := false
		for _, a := range allowed {
			ok = ok || k.Value == a
		}
		if !ok {
			errs = append(errs, fmt.Sprintf("line %d: field %s not found in type config.%s", k.Line, k.Value, typeName))
		}
	}
	return joinTypeErrors(errs)
}

func typeError(line int, msg string) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s", line, msg)}}
}

func appendTypeErrors(errs []string, err error) []string {
	if te, ok := err.(*yaml.TypeError); ok {
		return append(errs, te.Errors...)
	}
	if err != nil {
		return append(errs, err.Error())
	}
	return errs
}

func joinTypeErrors(errs []string) error {
	if len(errs) == 0 {
		return nil
	}
	return &yaml.TypeError{Errors: errs}
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// validateHooks checks every rule, fills in defaults and compiles matchers.
func (c *Config) validateHooks(bad func(line int, key, format string, args ...any)) {
	c.checkScope(&c.Hooks, "hooks", false, bad)
	seen := map[string]int{}
	for i := range c.Agents {
		a := &c.Agents[i]
		key := fmt.Sprintf("agents[%d]", i)
		if a.ID == "" {
			bad(0, key+".id", "every agent needs an id (the name given by --agent or MASSGEN_AGENT_ID, or its agent_type)")
		} else if j, dup := seen[a.ID]; dup {
			bad(0, key+".id", "agent %q is already defined as agents[%d]", a.ID, j)
		} else {
			seen[a.ID] = i
		}
		switch {
		case !a.Hooks.Empty() && !a.Backend.Hooks.Empty():
			bad(0, key, "give the agent's hooks once, under hooks: or under backend.hooks:, not both")
		case a.Hooks.Empty():
			a.Hooks = a.Backend.Hooks
			a.Backend.Hooks = Hooks{}
			c.checkScope(&a.Hooks, key+".backend.hooks", true, bad)
		default:
			c.checkScope(&a.Hooks, key+".hooks", true, bad)
		}
	}
}

func (c *Config) checkScope(h *Hooks, key string, agent bool, bad func(line int, key, format string, args ...any)) {
	for _, event := range hookEvents {
		e := h.For(event)
		ek := key + "." + event
		if e.Override && !agent {
			bad(e.line, ek+".override", "override only makes sense in an agent's hooks (it drops the global ones)")
		}
		listKey := ek
		if e.Override {
			listKey = ek + ".hooks"
		}
		kept := e.Hooks[:0]
		for i := range e.Hooks {
			h, hk := &e.Hooks[i], fmt.Sprintf("%s[%d]", listKey, i)
			if c.MassGen && (h.raw.Type == "" || h.raw.Type == TypePython) {
				c.notePython(h, hk)
				continue
			}
			c.checkHook(h, hk, bad)
			if c.MassGen && (h.Type == TypeCommand || h.Type == TypeBuiltin) {
				c.note(h.LineOf("type"), hk+".type", "massgen-hook runs this %s rule, but MassGen's config validator refuses type: %s "+
					"(MassGen runs only Python hooks): start MassGen with --skip-validation, "+
					"or keep this rule in a massgen-hook config of its own", h.Type, h.Type)
			}
			kept = append(kept, *h)
		}
		e.Hooks = kept
	}
}

// notePython says that a MassGen Python hook is skipped: MassGen runs it.
func (c *Config) notePython(h *Hook, key string) {
	c.note(h.Line, key, "%s is a MassGen Python hook (type: python): it runs inside MassGen, not here; skipped", orNone(h.raw.Handler))
}

func orNone(handler string) string {
	if handler == "" {
		return "a rule without handler"
	}
	return "handler " + handler
}

// note records a notice: something the user should know that does not
// stop the config from being used.
func (c *Config) note(line int, key, format string, args ...any) {
	c.Notices = append(c.Notices, &Error{Path: c.Path, Line: line, Msg: key + ": " + fmt.Sprintf(format, args...)})
}

func (c *Config) checkHook(h *Hook, key string, bad func(line int, key, format string, args ...any)) {
	r := &h.raw
	fail := func(field, format string, args ...any) {
		bad(h.LineOf(field), key+"."+field, format, args...)
	}
	h.File, h.Key = c.Path, key
	h.Name, h.Handler, h.Args, h.Shell, h.FailClosed, h.Options = r.Name, r.Handler, r.Args, r.Shell, r.FailClosed, r.Options
	h.Disabled = r.Enabled != nil && !*r.Enabled
	m, err := match.Compile(r.Matcher)
	if err != nil {
		fail("matcher", "%v", err)
	}
	h.Matcher = m
	h.Type = r.Type
	switch {
	case h.Type == "" && c.MassGen:
		h.Type = TypePython // MassGen's default
	case h.Type == "":
		h.Type = TypeCommand
	}
	switch h.Type {
	case TypeCommand:
		switch {
		case r.Handler == "" && r.Shell == "":
			fail("handler", "a command hook needs handler: (a program, run without a shell) or shell: (a command line for /bin/sh -c)")
		case r.Handler != "" && r.Shell != "":
			fail("shell", "give handler: (exec form) or shell: (shell form), not both")
		case r.Shell != "" && len(r.Args) > 0:
			fail("args", "args: go with handler:; a shell: command line carries its own arguments")
		}
		if r.Options.Kind != 0 {
			fail("options", "options: configure built-in checks (type: builtin); a command reads its own configuration")
		}
	case TypeBuiltin:
		switch {
		case r.Handler == "":
			fail("handler", "a builtin hook names its check in handler:")
		case r.Shell != "":
			fail("shell", "a builtin hook takes options:, not shell:")
		case len(r.Args) > 0:
			fail("args", "a builtin hook takes options:, not args:")
		}
	case TypePython:
		if !c.MassGen {
			fail("type", "type \"python\" is MassGen's in-process Python hook; massgen-hook runs programs: use type: command with the script as handler")
		}
	default:
		fail("type", "unknown type %q (use command or builtin)", h.Type)
	}
	if h.Name == "" {
		h.Name = h.Handler
		if h.Name == "" {
			h.Name = "shell: " + truncateName(r.Shell)
		}
	}
	h.Timeout = DefaultHookTimeout
	if r.Timeout.Kind != 0 && !isNull(&r.Timeout) {
		var secs float64
		if err := r.Timeout.Decode(&secs); err != nil || math.IsNaN(secs) || secs < 0.001 || secs > MaxHookTimeout.Seconds() {
			fail("timeout", "must be a number of seconds from 0.001 to %d, got %s", int(MaxHookTimeout.Seconds()), nodeText(&r.Timeout))
		} else {
			h.Timeout = time.Duration(secs * float64(time.Second))
		}
	}
}

// nodeText shows a YAML value in a message: a scalar quoted, else its kind.
func nodeText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return "nothing"
}

func truncateName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
