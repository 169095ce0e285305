package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/protocol"
)

// script is what the test built-in "script" does, read from its rule's
// options, so each test's config says what every rule answers.
type script struct {
	ID         string `yaml:"id"`
	Decision   string `yaml:"decision"`
	Reason     string `yaml:"reason"`
	Input      any    `yaml:"input"`  // updated input, as YAML
	Output     any    `yaml:"output"` // updated tool output, as YAML
	Inject     string `yaml:"inject"`
	Strategy   string `yaml:"strategy"`
	System     string `yaml:"system"`
	Stop       bool   `yaml:"stop"`
	StopReason string `yaml:"stop_reason"`
	Err        string `yaml:"error"`
	Panic      string `yaml:"panic"`
	Note       string `yaml:"note"`
}

// seen is what one built-in saw when it ran.
type seen struct {
	ID          string
	Input       string
	Output      string
	HasDeadline bool
	Deadline    time.Duration // from the call's start, roughly
}

// recorder collects what the test built-ins saw, in order.
type recorder struct {
	mu    sync.Mutex
	calls []seen
}

func (r *recorder) add(s seen) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, s)
}

func (r *recorder) ids() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for _, c := range r.calls {
		ids = append(ids, c.ID)
	}
	return ids
}

func (r *recorder) get(id string) (seen, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		if c.ID == id {
			return c, true
		}
	}
	return seen{}, false
}

func toJSON(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// testRegistry is a Registry of built-ins implemented here, so no process
// is ever started:
//
//	script  answers what its options say (see script)
//	noop    no opinion; takes no options
//	picky   rejects any options
func testRegistry(rec *recorder) Registry {
	return Registry{
		{Name: "script", New: func(options *yaml.Node) (Builtin, error) {
			var s script
			if options != nil {
				if err := options.Decode(&s); err != nil {
					return nil, err
				}
			}
			return BuiltinFunc(func(ctx context.Context, call *Call) (Verdict, error) {
				dl, ok := ctx.Deadline()
				rec.add(seen{ID: s.ID, Input: string(call.ToolInput), Output: string(call.ToolOutput),
					HasDeadline: ok, Deadline: time.Until(dl)})
				if s.Panic != "" {
					panic(s.Panic)
				}
				if s.Err != "" {
					return Verdict{Decision: Deny, Reason: "must be ignored"}, errors.New(s.Err)
				}
				v := Verdict{Decision: s.Decision, Reason: s.Reason, UpdatedInput: toJSON(s.Input),
					UpdatedToolOutput: toJSON(s.Output), SystemMessage: s.System, Stop: s.Stop, StopReason: s.StopReason}
				if s.Inject != "" {
					v.Injections = []Injection{{Content: s.Inject, Strategy: s.Strategy}}
				}
				if s.Note != "" {
					v.Notes = []string{s.Note}
				}
				return v, nil
			}), nil
		}},
		{Name: "noop", New: func(options *yaml.Node) (Builtin, error) {
			if options != nil {
				return nil, errors.New("noop takes no options")
			}
			return BuiltinFunc(func(context.Context, *Call) (Verdict, error) { return Verdict{}, nil }), nil
		}},
		{Name: "picky", New: func(options *yaml.Node) (Builtin, error) {
			if options == nil {
				return nil, errors.New("picky needs options")
			}
			var m map[string]any
			if err := options.Decode(&m); err != nil {
				return nil, err
			}
			if _, ok := m["level"]; !ok {
				return nil, fmt.Errorf("missing level (got %d keys)", len(m))
			}
			return BuiltinFunc(func(context.Context, *Call) (Verdict, error) { return Verdict{}, nil }), nil
		}},
	}
}

// compileYAML parses text as cfg.yaml and compiles it with reg.
func compileYAML(t *testing.T, text string, reg Registry) *Engine {
	t.Helper()
	cfg, err := config.Parse("cfg.yaml", []byte(text))
	if err != nil {
		t.Fatalf("config.Parse: %v\n%s", err, text)
	}
	e, err := Compile(&cfg, reg)
	if err != nil {
		t.Fatalf("Compile: %v\n%s", err, text)
	}
	return e
}

func ruleNames(rules []*Rule) []string {
	var names []string
	for _, r := range rules {
		names = append(names, r.Name)
	}
	return names
}

const selectConfig = `
hooks:
  PreToolUse:
    - {name: g-all, type: builtin, handler: noop}
    - {name: g-bash, type: builtin, handler: noop, matcher: Bash}
  PostToolUse:
    - {name: g-post, type: builtin, handler: noop}
agents:
  - id: extender
    hooks:
      PreToolUse:
        - {name: ext-write, type: builtin, handler: noop, matcher: "Bash|Write"}
        - {name: ext-all, type: builtin, handler: noop}
  - id: overrider
    hooks:
      PreToolUse:
        override: true
        hooks:
          - {name: ovr-pre, type: builtin, handler: noop}
      PostToolUse:
        - {name: ovr-post, type: builtin, handler: noop, matcher: "mcp__*"}
  - id: nested
    backend:
      hooks:
        PreToolUse:
          override: true
          hooks:
            - {name: nested-pre, type: builtin, handler: noop}
  - id: silent
    hooks:
      PostToolUse:
        override: true
`

func TestSelect(t *testing.T) {
	e := compileYAML(t, selectConfig, testRegistry(&recorder{}))
	tests := []struct {
		event, agent, tool string
		want               []string
	}{
		// Global first, then the agent's own, each in written order.
		{"PreToolUse", "extender", "Bash", []string{"g-all", "g-bash", "ext-write", "ext-all"}},
		{"PreToolUse", "extender", "Write", []string{"g-all", "ext-write", "ext-all"}},
		{"PreToolUse", "extender", "Read", []string{"g-all", "ext-all"}},
		{"PostToolUse", "extender", "Bash", []string{"g-post"}},
		// Override drops the global rules of that event only.
		{"PreToolUse", "overrider", "Bash", []string{"ovr-pre"}},
		{"PostToolUse", "overrider", "Bash", []string{"g-post"}},
		{"PostToolUse", "overrider", "mcp__x__y", []string{"g-post", "ovr-post"}},
		// MassGen's backend.hooks nesting works the same.
		{"PreToolUse", "nested", "Bash", []string{"nested-pre"}},
		{"PostToolUse", "nested", "Bash", []string{"g-post"}},
		// Override with no rules of its own: nothing runs for that event.
		{"PostToolUse", "silent", "Bash", nil},
		{"PreToolUse", "silent", "Bash", []string{"g-all", "g-bash"}},
		// An unknown agent and the main thread get the global rules only.
		{"PreToolUse", "stranger", "Bash", []string{"g-all", "g-bash"}},
		{"PreToolUse", "", "Bash", []string{"g-all", "g-bash"}},
		{"PostToolUse", "", "Read", []string{"g-post"}},
		// Other events have no rules.
		{"Stop", "extender", "Bash", nil},
		{"SessionStart", "", "", nil},
	}
	for _, tt := range tests {
		got := ruleNames(e.Select(tt.event, tt.agent, tt.tool))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Select(%s, %q, %s) = %q, want %q", tt.event, tt.agent, tt.tool, got, tt.want)
		}
	}
}

func TestCandidates(t *testing.T) {
	e := compileYAML(t, selectConfig, testRegistry(&recorder{}))
	type cand struct {
		name                string
		matches, overridden bool
	}
	list := func(cs []Candidate) []cand {
		var out []cand
		for _, c := range cs {
			out = append(out, cand{c.Rule.Name, c.Matches, c.Overridden})
			if c.Applies() != (c.Matches && !c.Overridden) {
				t.Errorf("%s: Applies() = %v", c.Rule.Name, c.Applies())
			}
		}
		return out
	}
	tests := []struct {
		event, agent, tool string
		want               []cand
	}{
		{"PreToolUse", "overrider", "Read", []cand{{"g-all", true, true}, {"g-bash", false, true}, {"ovr-pre", true, false}}},
		{"PreToolUse", "extender", "Read", []cand{{"g-all", true, false}, {"g-bash", false, false}, {"ext-write", false, false}, {"ext-all", true, false}}},
		{"PreToolUse", "", "Bash", []cand{{"g-all", true, false}, {"g-bash", true, false}}},
		{"PreToolUse", "stranger", "Read", []cand{{"g-all", true, false}, {"g-bash", false, false}}},
		{"PostToolUse", "overrider", "Read", []cand{{"g-post", true, false}, {"ovr-post", false, false}}},
	}
	for _, tt := range tests {
		got := list(e.Candidates(tt.event, tt.agent, tt.tool))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Candidates(%s, %q, %s) =\n%+v\nwant\n%+v", tt.event, tt.agent, tt.tool, got, tt.want)
		}
	}
}

func TestRuleScopeAndPlace(t *testing.T) {
	e := compileYAML(t, selectConfig, testRegistry(&recorder{}))
	rules := e.Select("PreToolUse", "extender", "Bash")
	want := []struct{ scope, where string }{
		{"global", "cfg.yaml:4"}, {"global", "cfg.yaml:5"}, {"agent extender", "cfg.yaml:12"}, {"agent extender", "cfg.yaml:13"},
	}
	if len(rules) != len(want) {
		t.Fatalf("%d rules", len(rules))
	}
	for i, r := range rules {
		if r.Scope != want[i].scope || r.Where() != want[i].where {
			t.Errorf("rule %s: scope %q at %s, want %q at %s", r.Name, r.Scope, r.Where(), want[i].scope, want[i].where)
		}
	}
	if n := e.Select("PreToolUse", "nested", "Bash"); len(n) != 1 || n[0].Scope != "agent nested" {
		t.Errorf("nested agent rule: %+v", n)
	}
}

func TestEngineKnowsAgent(t *testing.T) {
	e := compileYAML(t, selectConfig, testRegistry(&recorder{}))
	if got, want := e.Agents(), []string{"extender", "nested", "overrider", "silent"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Agents() = %q, want %q", got, want)
	}
	for _, id := range []string{"extender", "overrider", "nested", "silent"} {
		if !e.KnowsAgent(id) {
			t.Errorf("KnowsAgent(%q) = false", id)
		}
	}
	for _, id := range []string{"", "stranger", "Extender"} {
		if e.KnowsAgent(id) {
			t.Errorf("KnowsAgent(%q) = true", id)
		}
	}
	if e.Path != "cfg.yaml" {
		t.Errorf("Path = %q", e.Path)
	}
	empty := compileYAML(t, "", testRegistry(nil))
	if got := empty.Select("PreToolUse", "", "Bash"); got != nil {
		t.Errorf("empty Select = %v", got)
	}
	if empty.KnowsAgent("a") || len(empty.Agents()) != 0 {
		t.Error("the empty config knows an agent")
	}
}

func TestCompileUnknownBuiltin(t *testing.T) {
	text := "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: nope\n"
	cfg, err := config.Parse("cfg.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(&cfg, testRegistry(nil))
	want := `cfg.yaml:4: hooks.PreToolUse[0].handler: unknown built-in check "nope" (known: noop, picky, script)`
	if err == nil || err.Error() != want {
		t.Errorf("Compile = %v, want %q", err, want)
	}
	var ce *config.Error
	if !errors.As(err, &ce) || ce.Path != "cfg.yaml" || ce.Line != 4 {
		t.Errorf("error %v holds no *config.Error for cfg.yaml:4", err)
	}
	// With no built-ins at all.
	_, err = Compile(&cfg, Registry{})
	if want := `cfg.yaml:4: hooks.PreToolUse[0].handler: unknown built-in check "nope" (known: none)`; err == nil || err.Error() != want {
		t.Errorf("Compile with no built-ins = %v, want %q", err, want)
	}
	_, err = Compile(&cfg, nil)
	if want := `cfg.yaml:4: hooks.PreToolUse[0].handler: unknown built-in check "nope" (known: none)`; err == nil || err.Error() != want {
		t.Errorf("Compile with a nil Registry = %v, want %q", err, want)
	}
}

func TestCompileFactoryRejectsOptions(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"flow options", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: picky\n      options: {color: red}\n",
			`cfg.yaml:5: hooks.PreToolUse[0].options: built-in check "picky": missing level (got 1 keys)`},
		{"options on a check that takes none", "hooks:\n  PostToolUse:\n    - type: builtin\n      handler: noop\n      matcher: Bash\n      options: {a: 1}\n",
			`cfg.yaml:6: hooks.PostToolUse[0].options: built-in check "noop": noop takes no options`},
		{"no options where some are needed: the rule's line", "\nhooks:\n  PreToolUse:\n    - type: builtin\n      handler: picky\n",
			`cfg.yaml:4: hooks.PreToolUse[0].options: built-in check "picky": picky needs options`},
		{"in an agent's scope", "agents:\n  - id: a\n    backend:\n      hooks:\n        PreToolUse:\n          - {type: builtin, handler: picky, options: [1]}\n",
			`cfg.yaml:6: agents[0].backend.hooks.PreToolUse[0].options: built-in check "picky": `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Parse("cfg.yaml", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			e, err := Compile(&cfg, testRegistry(nil))
			if e != nil {
				t.Error("Compile returned an Engine with an error")
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Compile = %v, want %q", err, tt.want)
			}
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Errorf("error %v holds no *config.Error", err)
			}
		})
	}
}

func TestCompileReportsEveryError(t *testing.T) {
	text := `hooks:
  PreToolUse:
    - {type: builtin, handler: nope}
    - {type: builtin, handler: noop}
  PostToolUse:
    - {type: builtin, handler: picky}
agents:
  - id: a
    hooks:
      PreToolUse:
        - {type: builtin, handler: gone}
`
	cfg, err := config.Parse("cfg.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(&cfg, testRegistry(nil))
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`cfg.yaml:3: hooks.PreToolUse[0].handler: unknown built-in check "nope" (known: noop, picky, script)`,
		`cfg.yaml:6: hooks.PostToolUse[0].options: built-in check "picky": picky needs options`,
		`cfg.yaml:11: agents[0].hooks.PreToolUse[0].handler: unknown built-in check "gone" (known: noop, picky, script)`,
	}
	if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCompileGivesOptionsToFactory(t *testing.T) {
	var got []*yaml.Node
	reg := Registry{{Name: "opt", New: func(options *yaml.Node) (Builtin, error) {
		got = append(got, options)
		return BuiltinFunc(func(context.Context, *Call) (Verdict, error) { return Verdict{}, nil }), nil
	}}}
	text := "hooks:\n  PreToolUse:\n    - {type: builtin, handler: opt}\n    - type: builtin\n      handler: opt\n      options:\n        level: 3\n"
	compileYAML(t, text, reg)
	if len(got) != 2 {
		t.Fatalf("factory called %d times", len(got))
	}
	if got[0] != nil {
		t.Errorf("a rule without options gave the factory %+v, want nil", got[0])
	}
	var opts struct{ Level int }
	if got[1] == nil || got[1].Decode(&opts) != nil || opts.Level != 3 {
		t.Errorf("options = %+v", got[1])
	}
}

func TestCompileCommandRulesNeedNoRegistry(t *testing.T) {
	e := compileYAML(t, "hooks:\n  PreToolUse:\n    - handler: ./guard.sh\n      args: [--strict]\n    - shell: echo hi\n", nil)
	rules := e.Select("PreToolUse", "", "Bash")
	if len(rules) != 2 || rules[0].builtin != nil || rules[1].builtin != nil {
		t.Fatalf("rules %+v", rules)
	}
}

func TestRegistryNames(t *testing.T) {
	if got := testRegistry(nil).Names(); !reflect.DeepEqual(got, []string{"noop", "picky", "script"}) {
		t.Errorf("Names() = %q", got)
	}
	if got := (Registry{}).Names(); len(got) != 0 {
		t.Errorf("empty Names() = %q", got)
	}
}

func TestDescribe(t *testing.T) {
	text := `hooks:
  PreToolUse:
    - handler: ./guard.sh
      args: [--strict, -v]
      matcher: Bash
      timeout: 2.5
      fail_closed: true
    - shell: echo hi
    - name: reminder
      type: builtin
      handler: noop
agents:
  - id: a
    hooks:
      PreToolUse:
        - {type: builtin, handler: noop, matcher: "mcp__*"}
`
	e := compileYAML(t, text, testRegistry(nil))
	got := []string{}
	for _, r := range e.Select("PreToolUse", "a", "Bash") {
		got = append(got, r.Describe())
	}
	want := []string{
		`./guard.sh (command, ./guard.sh --strict -v; matcher Bash; timeout 2.5s; fail_closed; global; cfg.yaml:3)`,
		`shell: echo hi (command, shell "echo hi"; matcher every tool; timeout 10s; global; cfg.yaml:8)`,
		`reminder (builtin noop; matcher every tool; timeout 10s; global; cfg.yaml:9)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := e.Select("PreToolUse", "a", "mcp__x")[2].Describe(); d != `noop (builtin; matcher mcp__*; timeout 10s; agent a; cfg.yaml:16)` {
		t.Errorf("agent rule: %s", d)
	}
}

func TestCallStdin(t *testing.T) {
	raw := `{"hook_event_name": "PostToolUse", "session_id": "s1", "tool_name": "LS", "tool_input": {"path": "."}, "tool_response": "a\nb"}`
	ev, err := protocol.ParseEvent([]byte(raw), "PostToolUse")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)
	call := &Call{Event: ev, HookType: "PostToolUse", Orchestrator: "orch", Now: now,
		ToolInput: json.RawMessage(`{"path":"/abs"}`), ToolOutput: ev.ToolResponse}
	b, err := call.stdin()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	want := map[string]any{
		"hook_type": "PostToolUse", "session_id": "s1", "orchestrator_id": "orch", "agent_id": nil,
		"timestamp": "2026-01-02T03:04:05.0000006Z", "tool_name": "LS",
		"tool_input": map[string]any{"path": "/abs"}, "tool_output": "a\nb",
	}
	delete(got, "event")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stdin\n%v\nwant\n%v", got, want)
	}
	if !bytes.Contains(b, []byte(`"event":{"hook_event_name"`)) {
		t.Errorf("the original event is not under \"event\": %s", b)
	}

	// An object response is passed as its JSON text; an agent is named;
	// PreToolUse has no tool_output; a missing input is {}.
	call.ToolOutput = json.RawMessage(`{"ok":true}`)
	call.Agent = "worker"
	b, _ = call.stdin()
	got = nil
	_ = json.Unmarshal(b, &got)
	if got["tool_output"] != `{"ok":true}` || got["agent_id"] != "worker" {
		t.Errorf("stdin %s", b)
	}
	call.HookType, call.ToolInput = "PreToolUse", nil
	b, _ = call.stdin()
	got = nil
	_ = json.Unmarshal(b, &got)
	if _, ok := got["tool_output"]; ok {
		t.Errorf("PreToolUse stdin has tool_output: %s", b)
	}
	if !reflect.DeepEqual(got["tool_input"], map[string]any{}) {
		t.Errorf("missing input gave %v", got["tool_input"])
	}
}

func TestCallEnviron(t *testing.T) {
	ev, err := protocol.ParseEvent([]byte(`{"hook_event_name": "PreToolUse", "session_id": "s\u0000id", "tool_name": "Bash"}`), "PreToolUse")
	if err != nil {
		t.Fatal(err)
	}
	call := &Call{Event: ev, HookType: "PreToolUse", Agent: "a1", Orchestrator: "o1", Project: "/proj", Environ: []string{"PATH=/bin"}}
	env := call.environ()
	want := []string{"PATH=/bin", "MASSGEN_HOOK_TYPE=PreToolUse", "MASSGEN_TOOL_NAME=Bash", "MASSGEN_SESSION_ID=sid",
		"MASSGEN_AGENT_ID=a1", "MASSGEN_ORCHESTRATOR_ID=o1", "CLAUDE_PROJECT_DIR=/proj"}
	if !reflect.DeepEqual(env, want) {
		t.Errorf("environ\n%q\nwant\n%q", env, want)
	}
	if len(call.Environ) != 1 {
		t.Error("environ changed the call's Environ")
	}
}
