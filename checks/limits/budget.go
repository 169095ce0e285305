package limits

import (
	"context"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/match"
)

// budget caps the calls a session makes to costly tools (seed 003 §2):
//
//	options:
//	  limits:
//	    "WebSearch|WebFetch": 20
//	    "mcp__firecrawl__*": 50
//
// Each limit counts the calls its matcher lets through in one session, in
// the rule's scope: a global rule counts the whole session (subagents
// included, since they share it), an agent's own rule that agent's calls.
// The first call over a limit is denied, and so is every later one. A
// denied call is not counted, whichever rule denied it (see Revert), so
// the count is exactly the calls let through.
type budget struct {
	limits []budgetLimit
}

type budgetLimit struct {
	pattern string
	matcher match.Matcher
	max     int
}

type budgetOptions struct {
	Limits map[string]int `yaml:"limits"`
}

func NewBudget(options *yaml.Node) (engine.Builtin, error) {
	var o budgetOptions
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	if len(o.Limits) == 0 {
		return nil, fmt.Errorf("limits: give at least one, e.g. limits: {\"WebSearch|WebFetch\": 20}")
	}
	b := &budget{}
	for _, pattern := range hookenv.SortedKeys(o.Limits) {
		m, err := match.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("limits.%s: %v", pattern, err)
		}
		if o.Limits[pattern] < 0 {
			return nil, fmt.Errorf("limits.%s: a limit is a number of calls, 0 or more", pattern)
		}
		b.limits = append(b.limits, budgetLimit{pattern, m, o.Limits[pattern]})
	}
	return b, nil
}

// budgetRecord is a session's counts, by scope and pattern.
type budgetRecord struct {
	Counts map[string]int `json:"counts"`
}

// applied are the limits that count a call of tool.
func (b *budget) applied(tool string) []budgetLimit {
	var out []budgetLimit
	for _, l := range b.limits {
		if l.matcher.Match(tool) {
			out = append(out, l)
		}
	}
	return out
}

func (b *budget) Check(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	applied := b.applied(call.Event.ToolName)
	if len(applied) == 0 {
		return engine.Verdict{}, nil
	}
	var rec budgetRecord
	var over *budgetLimit
	err := call.State.UpdateSession(call.Event.SessionID, "budget", &rec, func() (bool, error) {
		if rec.Counts == nil {
			rec.Counts = map[string]int{}
		}
		for i, l := range applied {
			if rec.Counts[call.Scope+" "+l.pattern] >= l.max {
				over = &applied[i]
				return false, nil
			}
		}
		for _, l := range applied {
			rec.Counts[call.Scope+" "+l.pattern]++
		}
		return true, nil
	})
	if err != nil {
		return engine.Verdict{}, err
	}
	if over == nil {
		return engine.Verdict{}, nil
	}
	return engine.Verdict{Decision: engine.Deny,
		Reason:        fmt.Sprintf("budget exhausted: proceed with the best information you have. (%s: all %d calls allowed this session are used; do not call these tools again.)", over.pattern, over.max),
		SystemMessage: fmt.Sprintf("massgen-hook: tool budget %q (%d calls) exhausted for this session.", over.pattern, over.max)}, nil
}

// Revert takes back the count of a call a later rule denied. It runs only
// for a call this rule let through, so each of its limits counted it.
func (b *budget) Revert(_ context.Context, call *engine.Call) error {
	applied := b.applied(call.Event.ToolName)
	if len(applied) == 0 {
		return nil
	}
	var rec budgetRecord
	return call.State.UpdateSession(call.Event.SessionID, "budget", &rec, func() (bool, error) {
		for _, l := range applied {
			if k := call.Scope + " " + l.pattern; rec.Counts[k] > 0 {
				rec.Counts[k]--
			}
		}
		return true, nil
	})
}
