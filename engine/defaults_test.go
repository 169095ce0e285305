package engine

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/protocol"
)

// defaultsLog records which test checks ran, as
// "check/tag@event scope".
type defaultsLog struct {
	mu  sync.Mutex
	ran []string
}

func (l *defaultsLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ran = append(l.ran, s)
}

func (l *defaultsLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.ran
	l.ran = nil
	return out
}

// defaultsCheck is a test check that logs its runs. Its options are
// {tag: x} (the tag it logs, "default" without) and {bad: true} (refused).
func defaultsCheck(log *defaultsLog, name string) Factory {
	return func(options *yaml.Node) (Builtin, error) {
		var o struct {
			Tag string `yaml:"tag"`
			Bad bool   `yaml:"bad"`
		}
		if options != nil {
			if err := options.Decode(&o); err != nil {
				return nil, err
			}
		}
		if o.Bad {
			return nil, errors.New("bad option")
		}
		if o.Tag == "" {
			o.Tag = "default"
		}
		return BuiltinFunc(func(_ context.Context, call *Call) (Verdict, error) {
			log.add(name + "/" + o.Tag + "@" + call.HookType + " " + call.Scope)
			return Verdict{}, nil
		}), nil
	}
}

var (
	preOnly    = []string{protocol.PreToolUse}
	preAndPost = []string{protocol.PreToolUse, protocol.PostToolUse}
)

// defaultsRegistry is a registry of test checks:
//
//	guard_a    default, PreToolUse
//	guard_b    default, PreToolUse and PostToolUse
//	plain      not default, PreToolUse
//	free       not default, no events (runs where declared)
//	no_events  default without events: never added by default
//	feature    default but not a guard, PostToolUseFailure (like the
//	           inbox): default_guards: false leaves it on
func defaultsRegistry(log *defaultsLog) Registry {
	return Registry{
		{Name: "guard_a", New: defaultsCheck(log, "guard_a"), Events: preOnly, Default: true, Guard: true},
		{Name: "guard_b", New: defaultsCheck(log, "guard_b"), Events: preAndPost, Default: true, Guard: true},
		{Name: "plain", New: defaultsCheck(log, "plain"), Events: preOnly},
		{Name: "free", New: defaultsCheck(log, "free")},
		{Name: "no_events", New: defaultsCheck(log, "no_events"), Default: true, Guard: true},
		{Name: "feature", New: defaultsCheck(log, "feature"), Events: []string{protocol.PostToolUseFailure}, Default: true},
	}
}

type candidateView struct {
	name, scope                 string
	matches, overridden, applys bool
}

func viewCandidates(cs []Candidate) []candidateView {
	var out []candidateView
	for _, c := range cs {
		out = append(out, candidateView{c.Rule.Name, c.Rule.Scope, c.Matches, c.Overridden, c.Applies()})
	}
	return out
}

// runLogged runs e for a call and returns what ran.
func runLogged(t *testing.T, e *Engine, log *defaultsLog, event, agent, tool string) []string {
	t.Helper()
	response := ""
	if event == protocol.PostToolUse {
		response = `"ok"`
	}
	log.take()
	e.Run(context.Background(), newCall(t, event, agent, tool, `{}`, response))
	return log.take()
}

func TestDefaultsComeFirst(t *testing.T) {
	log := &defaultsLog{}
	e := compileYAML(t, hooksYAML("PreToolUse", "{name: mine, type: builtin, handler: plain}"), defaultsRegistry(log))
	for _, tc := range []struct {
		event, agent, tool string
		want               []string
	}{
		{protocol.PreToolUse, "", "Bash", []string{"guard_a", "guard_b", "mine"}},
		{protocol.PreToolUse, "", "mcp__x__y", []string{"guard_a", "guard_b", "mine"}},
		{protocol.PreToolUse, "someone", "Read", []string{"guard_a", "guard_b", "mine"}},
		{protocol.PostToolUse, "", "Bash", []string{"guard_b"}},
		{protocol.PostToolUseFailure, "", "Bash", []string{"feature"}},
	} {
		if got := ruleNames(e.Select(tc.event, tc.agent, tc.tool)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Select(%s, %q, %s) = %q, want %q", tc.event, tc.agent, tc.tool, got, tc.want)
		}
	}
	pre := e.Select(protocol.PreToolUse, "", "Bash")
	for _, r := range pre[:2] {
		if r.Scope != "default" || r.Where() != "built-in default" || r.Key != "default "+r.Name || r.Handler != r.Name ||
			r.Type != config.TypeBuiltin || r.Timeout != config.DefaultHookTimeout || !r.Matcher.MatchesAll() || r.Disabled || r.FailClosed {
			t.Errorf("default rule %+v", r)
		}
	}
	if pre[2].Scope != "global" {
		t.Errorf("configured rule scope %q", pre[2].Scope)
	}
	// guard_b on PostToolUse is the very rule declared under PreToolUse.
	if post := e.Select(protocol.PostToolUse, "", "Bash"); len(post) != 1 || post[0] != pre[1] {
		t.Errorf("PostToolUse rule %p is not the PreToolUse rule %p", post[0], pre[1])
	}
	// They run in that order, each seeing its own scope.
	if got, want := runLogged(t, e, log, protocol.PreToolUse, "", "Bash"),
		[]string{"guard_a/default@PreToolUse default", "guard_b/default@PreToolUse default", "plain/default@PreToolUse global"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
	if got, want := runLogged(t, e, log, protocol.PostToolUse, "", "Bash"), []string{"guard_b/default@PostToolUse default"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
}

// TestDefaultsRegistryOrder: defaults run in the registry's order.
func TestDefaultsRegistryOrder(t *testing.T) {
	log := &defaultsLog{}
	reg := defaultsRegistry(log)
	reg[0], reg[1] = reg[1], reg[0]
	e := compileYAML(t, "", reg)
	if got, want := ruleNames(e.Select(protocol.PreToolUse, "", "Bash")), []string{"guard_b", "guard_a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Select = %q, want %q", got, want)
	}
}

// TestDefaultsNamed: naming a default check in the configuration replaces
// the default rule, where the configuration puts it and with its options.
func TestDefaultsNamed(t *testing.T) {
	log := &defaultsLog{}
	e := compileYAML(t, hooksYAML("PreToolUse",
		"{name: mine, type: builtin, handler: plain}",
		"{name: my-a, type: builtin, handler: guard_a, matcher: Bash, options: {tag: custom}}",
		"{name: my-b, type: builtin, handler: guard_b, options: {tag: b2}}",
	), defaultsRegistry(log))
	for _, tc := range []struct {
		event, tool string
		want        []string
	}{
		{protocol.PreToolUse, "Bash", []string{"mine", "my-a", "my-b"}},
		{protocol.PreToolUse, "Read", []string{"mine", "my-b"}}, // the default is gone, not just moved
		{protocol.PostToolUse, "Bash", []string{"my-b"}},
	} {
		if got := ruleNames(e.Select(tc.event, "", tc.tool)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Select(%s, %s) = %q, want %q", tc.event, tc.tool, got, tc.want)
		}
	}
	if got, want := runLogged(t, e, log, protocol.PreToolUse, "", "Bash"),
		[]string{"plain/default@PreToolUse global", "guard_a/custom@PreToolUse global", "guard_b/b2@PreToolUse global"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
	if got, want := runLogged(t, e, log, protocol.PostToolUse, "", "Bash"), []string{"guard_b/b2@PostToolUse global"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
	// A command rule of the same name is not the check.
	e = compileYAML(t, hooksYAML("PreToolUse", "{name: guard_a, handler: ./guard_a.sh}"), defaultsRegistry(log))
	if got, want := ruleNames(e.Select(protocol.PreToolUse, "", "Bash")), []string{"guard_a", "guard_b", "guard_a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with a command rule named guard_a: %q, want %q", got, want)
	}
}

func TestDefaultsSwitchedOff(t *testing.T) {
	log := &defaultsLog{}
	e := compileYAML(t, "default_guards: false\n"+hooksYAML("PreToolUse", "{name: mine, type: builtin, handler: plain}"), defaultsRegistry(log))
	if got := ruleNames(e.Select(protocol.PreToolUse, "", "Bash")); !reflect.DeepEqual(got, []string{"mine"}) {
		t.Errorf("Select(PreToolUse) = %q, want [mine]", got)
	}
	if got := e.Select(protocol.PostToolUse, "", "Bash"); got != nil {
		t.Errorf("Select(PostToolUse) = %q, want none", ruleNames(got))
	}
	if got := e.Candidates(protocol.PreToolUse, "", "Bash"); len(got) != 1 {
		t.Errorf("Candidates = %+v, want only mine", viewCandidates(got))
	}
	// A default that is not a guard stays on.
	if got := ruleNames(e.Select(protocol.PostToolUseFailure, "", "Bash")); !reflect.DeepEqual(got, []string{"feature"}) {
		t.Errorf("Select(PostToolUseFailure) with default_guards false = %q, want [feature]", got)
	}
	// Named explicitly, a default check still runs.
	e = compileYAML(t, "default_guards: false\n"+hooksYAML("PreToolUse", "{type: builtin, handler: guard_b}"), defaultsRegistry(log))
	if got := ruleNames(e.Select(protocol.PostToolUse, "", "Bash")); !reflect.DeepEqual(got, []string{"guard_b"}) {
		t.Errorf("named with default_guards false: %q", got)
	}
	// An empty configuration has them all.
	e = compileYAML(t, "", defaultsRegistry(log))
	if got := ruleNames(e.Select(protocol.PreToolUse, "", "Bash")); !reflect.DeepEqual(got, []string{"guard_a", "guard_b"}) {
		t.Errorf("empty config: %q", got)
	}
}

func TestDefaultsDeclaredUnderLaterEvent(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{hooksYAML("PostToolUse", "{type: builtin, handler: guard_b}"),
			`cfg.yaml:3: hooks.PostToolUse[0].handler: declare built-in check "guard_b" under PreToolUse (it runs on PostToolUse by itself)`},
		{hooksYAML("PostToolUseFailure", "{type: builtin, handler: guard_a}"),
			`cfg.yaml:3: hooks.PostToolUseFailure[0].handler: declare built-in check "guard_a" under PreToolUse`},
		{"agents:\n  - id: x\n    hooks:\n      PostToolUse:\n        - {type: builtin, handler: plain}\n",
			`cfg.yaml:5: agents[0].hooks.PostToolUse[0].handler: declare built-in check "plain" under PreToolUse`},
	} {
		cfg, err := config.Parse("cfg.yaml", []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		e, err := Compile(&cfg, defaultsRegistry(&defaultsLog{}))
		if e != nil || err == nil || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Compile(%q) = %v, want %q", tc.text, err, tc.want)
		}
		if err != nil && strings.Contains(tc.want, "guard_a") && strings.Contains(err.Error(), "by itself") {
			t.Errorf("a check of one event is said to run on others: %v", err)
		}
	}
	// A check without events runs wherever it is declared, and only there.
	e := compileYAML(t, hooksYAML("PostToolUse", "{type: builtin, handler: free}"), defaultsRegistry(&defaultsLog{}))
	if got := ruleNames(e.Select(protocol.PostToolUse, "", "Bash")); !reflect.DeepEqual(got, []string{"guard_b", "free"}) {
		t.Errorf("free under PostToolUse: %q", got)
	}
	if got := ruleNames(e.Select(protocol.PreToolUse, "", "Bash")); !reflect.DeepEqual(got, []string{"guard_a", "guard_b"}) {
		t.Errorf("free leaked into PreToolUse: %q", got)
	}
}

func TestDefaultsDisabled(t *testing.T) {
	log := &defaultsLog{}
	e := compileYAML(t, hooksYAML("PreToolUse",
		"{type: builtin, handler: guard_a, enabled: false}",
		"{type: builtin, handler: guard_b, enabled: false}",
		"{name: parked, type: builtin, handler: plain, enabled: false}",
		"{name: live, type: builtin, handler: plain}",
	), defaultsRegistry(log))
	want := []candidateView{
		{"guard_a", "global", true, false, false},
		{"guard_b", "global", true, false, false},
		{"parked", "global", true, false, false},
		{"live", "global", true, false, true},
	}
	if got := viewCandidates(e.Candidates(protocol.PreToolUse, "", "Bash")); !reflect.DeepEqual(got, want) {
		t.Errorf("Candidates =\n%+v\nwant\n%+v", got, want)
	}
	if got := viewCandidates(e.Candidates(protocol.PostToolUse, "", "Bash")); !reflect.DeepEqual(got, []candidateView{{"guard_b", "global", true, false, false}}) {
		t.Errorf("PostToolUse Candidates = %+v", got)
	}
	if got := ruleNames(e.Select(protocol.PreToolUse, "", "Bash")); !reflect.DeepEqual(got, []string{"live"}) {
		t.Errorf("Select = %q, want [live]", got)
	}
	if got := runLogged(t, e, log, protocol.PreToolUse, "", "Bash"); !reflect.DeepEqual(got, []string{"plain/default@PreToolUse global"}) {
		t.Errorf("ran %q", got)
	}
	if got := runLogged(t, e, log, protocol.PostToolUse, "", "Bash"); got != nil {
		t.Errorf("ran on PostToolUse %q", got)
	}
	// Disabled rules are still compiled: their options are checked.
	cfg, err := config.Parse("cfg.yaml", []byte(hooksYAML("PreToolUse", "{type: builtin, handler: guard_a, enabled: false, options: {bad: true}}")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(&cfg, defaultsRegistry(log)); err == nil || !strings.Contains(err.Error(), `built-in check "guard_a": bad option`) {
		t.Errorf("disabled rule with bad options: %v", err)
	}
}

func TestDefaultsAgentNames(t *testing.T) {
	log := &defaultsLog{}
	e := compileYAML(t, `
hooks:
  PreToolUse:
    - {name: g-plain, type: builtin, handler: plain}
agents:
  - id: special
    hooks:
      PreToolUse:
        - {name: special-a, type: builtin, handler: guard_a, options: {tag: agent}}
        - {name: special-b, type: builtin, handler: guard_b, options: {tag: agent}}
  - id: other
    hooks:
      PreToolUse:
        - {name: other-plain, type: builtin, handler: plain}
  - id: quiet
    hooks:
      PreToolUse:
        - {type: builtin, handler: guard_a, enabled: false}
  - id: own-global
    hooks:
      PreToolUse:
        - {name: own-plain, type: builtin, handler: plain}
  - id: alone
    hooks:
      PreToolUse:
        override: true
        hooks:
          - {name: alone-b, type: builtin, handler: guard_b}
`, defaultsRegistry(log))
	for _, tc := range []struct {
		event, agent string
		want         []candidateView
	}{
		{protocol.PreToolUse, "special", []candidateView{
			{"guard_a", "default", true, true, false},
			{"guard_b", "default", true, true, false},
			{"g-plain", "global", true, false, true},
			{"special-a", "agent special", true, false, true},
			{"special-b", "agent special", true, false, true},
		}},
		{protocol.PostToolUse, "special", []candidateView{
			{"guard_b", "default", true, true, false},
			{"special-b", "agent special", true, false, true},
		}},
		{protocol.PreToolUse, "other", []candidateView{
			{"guard_a", "default", true, false, true},
			{"guard_b", "default", true, false, true},
			{"g-plain", "global", true, false, true},
			{"other-plain", "agent other", true, false, true},
		}},
		{protocol.PreToolUse, "", []candidateView{
			{"guard_a", "default", true, false, true},
			{"guard_b", "default", true, false, true},
			{"g-plain", "global", true, false, true},
		}},
		// Switching a default off for one agent.
		{protocol.PreToolUse, "quiet", []candidateView{
			{"guard_a", "default", true, true, false},
			{"guard_b", "default", true, false, true},
			{"g-plain", "global", true, false, true},
			{"guard_a", "agent quiet", true, false, false},
		}},
		// Naming a non-default check drops nothing.
		{protocol.PreToolUse, "own-global", []candidateView{
			{"guard_a", "default", true, false, true},
			{"guard_b", "default", true, false, true},
			{"g-plain", "global", true, false, true},
			{"own-plain", "agent own-global", true, false, true},
		}},
		// override drops the defaults with the global rules.
		{protocol.PreToolUse, "alone", []candidateView{
			{"guard_a", "default", true, true, false},
			{"guard_b", "default", true, true, false},
			{"g-plain", "global", true, true, false},
			{"alone-b", "agent alone", true, false, true},
		}},
		{protocol.PostToolUse, "alone", []candidateView{
			{"guard_b", "default", true, true, false},
			{"alone-b", "agent alone", true, false, true},
		}},
	} {
		if got := viewCandidates(e.Candidates(tc.event, tc.agent, "Bash")); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Candidates(%s, %q) =\n%+v\nwant\n%+v", tc.event, tc.agent, got, tc.want)
		}
	}
	if got, want := runLogged(t, e, log, protocol.PreToolUse, "special", "Bash"),
		[]string{"plain/default@PreToolUse global", "guard_a/agent@PreToolUse agent special", "guard_b/agent@PreToolUse agent special"}; !reflect.DeepEqual(got, want) {
		t.Errorf("special ran %q, want %q", got, want)
	}
	if got, want := runLogged(t, e, log, protocol.PostToolUse, "special", "Bash"), []string{"guard_b/agent@PostToolUse agent special"}; !reflect.DeepEqual(got, want) {
		t.Errorf("special ran on PostToolUse %q, want %q", got, want)
	}
	if got, want := runLogged(t, e, log, protocol.PreToolUse, "other", "Bash"),
		[]string{"guard_a/default@PreToolUse default", "guard_b/default@PreToolUse default", "plain/default@PreToolUse global", "plain/default@PreToolUse agent other"}; !reflect.DeepEqual(got, want) {
		t.Errorf("other ran %q, want %q", got, want)
	}
}

// TestDefaultsGlobalNameKeepsAgentsOff: a global rule naming a default
// check is a global rule: an agent naming the check too does not drop it.
func TestDefaultsGlobalNameKeepsAgentsOff(t *testing.T) {
	e := compileYAML(t, `
hooks:
  PreToolUse:
    - {name: g-a, type: builtin, handler: guard_a}
agents:
  - id: x
    hooks:
      PreToolUse:
        - {name: x-a, type: builtin, handler: guard_a}
`, defaultsRegistry(&defaultsLog{}))
	if got, want := ruleNames(e.Select(protocol.PreToolUse, "x", "Bash")), []string{"guard_b", "g-a", "x-a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Select = %q, want %q", got, want)
	}
}
