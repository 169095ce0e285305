// Package engine is massgen-hook's hook engine: it picks the configured
// rules that match a tool call (global ones, then the agent's own), runs
// them in order (external commands and built-in checks), and combines their
// answers by fixed rules into one Claude Code hook output.
//
// The rules are MassGen's (seeds 000-002): for PreToolUse the first deny
// wins and stops the chain, updated input chains from hook to hook, and ask
// survives unless a deny follows; for PostToolUse every injection is kept in
// order, HookResult injections combined in the last one's strategy as
// MassGen's execute_hooks does. Failures follow seed 000's decision 6: a
// timeout or runtime error is no opinion unless the rule is fail_closed; a
// rule that cannot run at all (its handler is missing) denies.
package engine

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/internal/match"
	"github.com/massgen/massgen-hook/protocol"
)

// Engine holds the compiled rules of one configuration.
type Engine struct {
	global map[string][]*Rule
	agents map[string]map[string]agentRules
	// Path is the config file the rules came from, for messages.
	Path string
}

type agentRules struct {
	override bool
	rules    []*Rule
}

// Rule is one configured hook, ready to run.
type Rule struct {
	config.Hook
	// Scope is "global" or "agent <id>", for explain and the audit trail.
	Scope   string
	builtin Builtin
	// lazy makes builtin on the rule's first run, for a default check the
	// configuration does not name: it has no options, so nothing about it
	// can be wrong, and a hook process runs the checks of one event only,
	// so the others' are never made (see makeLazily).
	lazy Factory
	once sync.Once
	// lazyErr is what lazy returned instead of a check.
	lazyErr error
}

// isBuiltin reports whether the rule runs a built-in check, made or not.
// lazy is asked first: another call's first run may be writing builtin.
func (r *Rule) isBuiltin() bool { return r.lazy != nil || r.builtin != nil }

// check is the rule's built-in check, made now if it was left for its
// first run. A check that cannot be made is a configuration error: the
// rule denies (see runRule).
func (r *Rule) check() (Builtin, error) {
	if r.lazy != nil {
		r.once.Do(r.makeLazily)
	}
	return r.builtin, r.lazyErr
}

func (r *Rule) makeLazily() {
	defer func() {
		// A guard that cannot be made must deny, not fail open as a
		// check that panics while it runs does.
		if p := recover(); p != nil {
			r.lazyErr = &configError{msg: fmt.Sprintf("built-in check %q cannot be made: it panicked: %v", r.Handler, p)}
		}
	}()
	b, err := r.lazy(nil)
	if err == nil && b == nil {
		err = errors.New("it made no check")
	}
	if err != nil {
		r.lazyErr = &configError{msg: fmt.Sprintf("built-in check %q cannot be made: %v", r.Handler, err)}
		return
	}
	r.builtin = b
}

// Compile turns cfg's hooks into an Engine. Built-in checks are looked up
// in builtins and given their options now, so an unknown check or a bad
// option is a configuration error naming the file and line, found before
// any tool call. The default checks the configuration does not name come
// first in the global chain, unless default_guards is false; they take no
// options, so they are made on their first run, and a hook process makes
// only those of its event.
func Compile(cfg *config.Config, builtins Registry) (*Engine, error) {
	e := &Engine{global: map[string][]*Rule{}, agents: map[string]map[string]agentRules{}, Path: cfg.Path}
	var errs []error
	// add compiles h, declared under event, into list, and a check that
	// runs on later events too into theirs.
	add := func(lists map[string][]*Rule, h config.Hook, scope, event string) {
		r := &Rule{Hook: h, Scope: scope}
		var also []string
		if h.Type == config.TypeBuiltin {
			b, more, err := builtins.make(&r.Hook, event)
			if err != nil {
				errs = append(errs, err)
			}
			r.builtin, also = b, more
		}
		lists[event] = append(lists[event], r)
		for _, ev := range also {
			lists[ev] = append(lists[ev], r)
		}
	}
	for _, c := range builtins {
		if c.Default && (cfg.DefaultGuards || !c.Guard) && len(c.Events) > 0 && !names(cfg.Hooks.For(c.Events[0]).Hooks, c.Name) {
			addDefault(e.global, c)
		}
	}
	for _, event := range Events {
		for _, h := range cfg.Hooks.For(event).Hooks {
			add(e.global, h, "global", event)
		}
	}
	for _, a := range cfg.Agents {
		lists := map[string][]*Rule{}
		for _, event := range Events {
			for _, h := range a.Hooks.For(event).Hooks {
				add(lists, h, "agent "+a.ID, event)
			}
		}
		byEvent := map[string]agentRules{}
		for _, event := range Events {
			byEvent[event] = agentRules{override: a.Hooks.For(event).Override, rules: lists[event]}
		}
		e.agents[a.ID] = byEvent
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return e, nil
}

// addDefault adds default check c, which the configuration does not name,
// to the global lists of its events, to be made on its first run.
func addDefault(lists map[string][]*Rule, c Check) {
	r := &Rule{Hook: defaultHook(c), Scope: "default", lazy: c.New}
	for _, ev := range c.Events {
		lists[ev] = append(lists[ev], r)
	}
}

// names reports whether hooks has a rule for built-in check name.
func names(hooks []config.Hook, name string) bool {
	for _, h := range hooks {
		if h.Type == config.TypeBuiltin && h.Handler == name {
			return true
		}
	}
	return false
}

// defaultHook is the rule a default check runs as when the configuration
// does not name it: every tool, default timeout, default options.
func defaultHook(c Check) config.Hook {
	all, _ := match.Compile("")
	return config.Hook{Name: c.Name, Matcher: all, Type: config.TypeBuiltin, Handler: c.Name,
		Timeout: config.DefaultHookTimeout, Key: "default " + c.Name}
}

// Events are the hook events the engine runs rules for.
var Events = []string{protocol.PreToolUse, protocol.PostToolUse, protocol.PostToolUseFailure}

// Select returns the rules that apply to tool on event for agent, in the
// order they run.
func (e *Engine) Select(event, agent, tool string) []*Rule {
	var out []*Rule
	for _, c := range e.Candidates(event, agent, tool) {
		if c.Applies() {
			out = append(out, c.Rule)
		}
	}
	return out
}

// Candidate is a rule considered for a call, and whether it applies.
type Candidate struct {
	Rule    *Rule
	Matches bool
	// Overridden is a global rule the agent's override drops, or a default
	// check the agent names in its own rules.
	Overridden bool
}

// Applies reports whether the rule runs for the call.
func (c Candidate) Applies() bool { return c.Matches && !c.Overridden && !c.Rule.Disabled }

// Candidates lists every rule for event that could apply to agent ("" is
// the main thread, which has only the global rules): global rules first,
// then the agent's own, each marked with whether it matches tool.
func (e *Engine) Candidates(event, agent, tool string) []Candidate {
	var out []Candidate
	own, hasOwn := e.agents[agent][event], agent != ""
	for _, r := range e.global[event] {
		dropped := hasOwn && (own.override || r.Scope == "default" && ownNames(own.rules, r.Handler))
		out = append(out, Candidate{Rule: r, Matches: r.Matcher.Match(tool), Overridden: dropped})
	}
	if hasOwn {
		for _, r := range own.rules {
			out = append(out, Candidate{Rule: r, Matches: r.Matcher.Match(tool)})
		}
	}
	return out
}

func ownNames(rules []*Rule, check string) bool {
	for _, r := range rules {
		if r.Type == config.TypeBuiltin && r.Handler == check {
			return true
		}
	}
	return false
}

// Agents lists the agents that have rules of their own, sorted.
func (e *Engine) Agents() []string {
	ids := make([]string, 0, len(e.agents))
	for id := range e.agents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// KnowsAgent reports whether agent has rules of its own.
func (e *Engine) KnowsAgent(agent string) bool {
	_, ok := e.agents[agent]
	return ok
}

// Describe is a rule's one-line summary for explain.
func (r *Rule) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s", r.Name, r.Type)
	switch {
	case r.Type == config.TypeBuiltin:
		if r.Name != r.Handler {
			fmt.Fprintf(&b, " %s", r.Handler)
		}
	case r.Shell != "":
		fmt.Fprintf(&b, ", shell %q", r.Shell)
	default:
		fmt.Fprintf(&b, ", %s", strings.Join(append([]string{r.Handler}, r.Args...), " "))
	}
	m := r.Matcher.String()
	if r.Matcher.MatchesAll() {
		m = "every tool"
	}
	fmt.Fprintf(&b, "; matcher %s; timeout %s", m, r.Timeout)
	if r.FailClosed {
		b.WriteString("; fail_closed")
	}
	fmt.Fprintf(&b, "; %s; %s)", r.Scope, r.Where())
	return b.String()
}
