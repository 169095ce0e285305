package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// hookSummary is the part of a Hook a test compares.
type hookSummary struct {
	Name, Matcher, Type, Handler string
	Args                         []string
	Shell                        string
	Timeout                      time.Duration
	FailClosed                   bool
	Where                        string
}

func summarize(hs []Hook) []hookSummary {
	var out []hookSummary
	for i := range hs {
		h := &hs[i]
		out = append(out, hookSummary{h.Name, h.Matcher.String(), h.Type, h.Handler, h.Args, h.Shell, h.Timeout, h.FailClosed, h.Where()})
	}
	return out
}

func parseOK(t *testing.T, text string) Config {
	t.Helper()
	cfg, err := Parse(file, []byte(text))
	if err != nil {
		t.Fatalf("Parse:\n%s\n: %v", text, err)
	}
	return cfg
}

func wantHooks(t *testing.T, what string, got []Hook, want []hookSummary) {
	t.Helper()
	if g := summarize(got); !reflect.DeepEqual(g, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, g, want)
	}
}

func TestParseHooksListForm(t *testing.T) {
	text := `hooks:
  PreToolUse:
    - handler: ./guard.sh
      args: [--strict, "two words"]
      matcher: "Write|Edit"
      timeout: 2.5
      fail_closed: true
    - name: no-rm
      shell: grep -q 'rm -rf' && exit 2 || exit 0
    - type: builtin
      handler: task_reminder
      matcher: "*update_task_status"
      options:
        level: high
  PostToolUse:
    - handler: /usr/local/bin/inject
      timeout: 300
`
	cfg := parseOK(t, text)
	wantHooks(t, "PreToolUse", cfg.Hooks.PreToolUse.Hooks, []hookSummary{
		{"./guard.sh", "Write|Edit", "command", "./guard.sh", []string{"--strict", "two words"}, "", 2500 * time.Millisecond, true, "cfg.yaml:3"},
		{"no-rm", "", "command", "", nil, "grep -q 'rm -rf' && exit 2 || exit 0", 10 * time.Second, false, "cfg.yaml:8"},
		{"task_reminder", "*update_task_status", "builtin", "task_reminder", nil, "", 10 * time.Second, false, "cfg.yaml:10"},
	})
	wantHooks(t, "PostToolUse", cfg.Hooks.PostToolUse.Hooks, []hookSummary{
		{"/usr/local/bin/inject", "", "command", "/usr/local/bin/inject", nil, "", 300 * time.Second, false, "cfg.yaml:16"},
	})
	if cfg.Hooks.PreToolUse.Override || cfg.Hooks.PostToolUse.Override {
		t.Error("Override set")
	}
	// Options are kept for the built-in to decode.
	var opts struct{ Level string }
	o := cfg.Hooks.PreToolUse.Hooks[2].Options
	if err := o.Decode(&opts); err != nil || opts.Level != "high" {
		t.Errorf("options = %+v, %v", opts, err)
	}
	if o.Line != 14 {
		t.Errorf("options line %d, want 14", o.Line)
	}
	if cfg.Hooks.PreToolUse.Hooks[0].Options.Kind != 0 {
		t.Error("a rule without options has some")
	}
	// Matchers are compiled.
	if m := cfg.Hooks.PreToolUse.Hooks[0].Matcher; !m.Match("Edit") || m.Match("NotebookEdit") {
		t.Error("matcher Write|Edit not compiled as a glob list")
	}
	if m := cfg.Hooks.PreToolUse.Hooks[2].Matcher; !m.Match("mcp__tasks__update_task_status") {
		t.Error("matcher *update_task_status not compiled")
	}
	if cfg.Hooks.Empty() {
		t.Error("Empty() = true")
	}
}

func TestParseHooksDefaults(t *testing.T) {
	long := strings.Repeat("x", 50)
	cfg := parseOK(t, "hooks:\n  PreToolUse:\n    - handler: h\n    - shell: echo hi\n    - shell: "+long+"\n    - name: named\n      shell: true\n    - {handler: x, timeout: ~}\n")
	hs := cfg.Hooks.PreToolUse.Hooks
	wantHooks(t, "defaults", hs, []hookSummary{
		{"h", "", "command", "h", nil, "", DefaultHookTimeout, false, "cfg.yaml:3"},
		{"shell: echo hi", "", "command", "", nil, "echo hi", DefaultHookTimeout, false, "cfg.yaml:4"},
		{"shell: " + strings.Repeat("x", 40) + "…", "", "command", "", nil, long, DefaultHookTimeout, false, "cfg.yaml:5"},
		{"named", "", "command", "", nil, "true", DefaultHookTimeout, false, "cfg.yaml:6"},
		{"x", "", "command", "x", nil, "", DefaultHookTimeout, false, "cfg.yaml:8"},
	})
	if DefaultHookTimeout != 10*time.Second || MaxHookTimeout != 300*time.Second {
		t.Errorf("timeouts %v, %v", DefaultHookTimeout, MaxHookTimeout)
	}
	for _, h := range hs {
		if !h.Matcher.MatchesAll() {
			t.Errorf("%s: no matcher should match every tool", h.Name)
		}
		if h.File != file {
			t.Errorf("%s: File %q", h.Name, h.File)
		}
	}
}

func TestParseHooksTimeoutValues(t *testing.T) {
	tests := []struct {
		v    string
		want time.Duration
	}{
		{"1", time.Second},
		{"0.5", 500 * time.Millisecond},
		{"300", 300 * time.Second},
		{"299.999", 299999 * time.Millisecond},
		{"0.001", time.Millisecond},
	}
	for _, tt := range tests {
		cfg, err := Parse(file, []byte("hooks:\n  PreToolUse:\n    - handler: x\n      timeout: "+tt.v+"\n"))
		if err != nil {
			t.Errorf("timeout %s: %v", tt.v, err)
			continue
		}
		if got := cfg.Hooks.PreToolUse.Hooks[0].Timeout; got != tt.want {
			t.Errorf("timeout %s = %v, want %v", tt.v, got, tt.want)
		}
	}
}

// A timeout above zero that rounds down to no time at all must not pass:
// a zero Timeout means "no timeout" to the process runner.
func TestParseHooksTimeoutTooSmallToBeADuration(t *testing.T) {
	for _, v := range []string{"0.0000000001", "1e-10"} {
		cfg, err := Parse(file, []byte("hooks:\n  PreToolUse:\n    - handler: x\n      timeout: "+v+"\n"))
		if err == nil {
			if got := cfg.Hooks.PreToolUse.Hooks[0].Timeout; got <= 0 {
				t.Errorf("timeout: %s is accepted as %v; want an error (or a positive timeout): it passes the > 0 check but the handler gets no timeout at all", v, got)
			}
		}
	}
}

func TestParseHooksOverrideForm(t *testing.T) {
	text := `agents:
  - id: reviewer
    hooks:
      PreToolUse:
        override: true
        hooks:
          - handler: strict.sh
      PostToolUse:
        override: false
        hooks:
          - shell: echo post
`
	cfg := parseOK(t, text)
	if len(cfg.Agents) != 1 || cfg.Agents[0].ID != "reviewer" {
		t.Fatalf("agents %+v", cfg.Agents)
	}
	a := cfg.Agents[0]
	if !a.Hooks.PreToolUse.Override || a.Hooks.PostToolUse.Override {
		t.Errorf("override %v / %v", a.Hooks.PreToolUse.Override, a.Hooks.PostToolUse.Override)
	}
	wantHooks(t, "PreToolUse", a.Hooks.PreToolUse.Hooks, []hookSummary{
		{"strict.sh", "", "command", "strict.sh", nil, "", DefaultHookTimeout, false, "cfg.yaml:7"},
	})
	wantHooks(t, "PostToolUse", a.Hooks.PostToolUse.Hooks, []hookSummary{
		{"shell: echo post", "", "command", "", nil, "echo post", DefaultHookTimeout, false, "cfg.yaml:11"},
	})

	// The {override, hooks} form is accepted globally when override is false or absent.
	cfg = parseOK(t, "hooks:\n  PreToolUse:\n    hooks:\n      - handler: g\n")
	wantHooks(t, "global", cfg.Hooks.PreToolUse.Hooks, []hookSummary{
		{"g", "", "command", "g", nil, "", DefaultHookTimeout, false, "cfg.yaml:4"},
	})
	// Override alone, without rules: the agent runs none for that event.
	cfg = parseOK(t, "agents:\n  - id: quiet\n    hooks:\n      PreToolUse:\n        override: true\n")
	if a := cfg.Agents[0]; !a.Hooks.PreToolUse.Override || len(a.Hooks.PreToolUse.Hooks) != 0 || a.Hooks.Empty() {
		t.Errorf("override-only agent %+v", a.Hooks)
	}
	// hooks: null in the mapping form.
	cfg = parseOK(t, "agents:\n  - id: quiet\n    hooks:\n      PreToolUse:\n        override: true\n        hooks:\n")
	if a := cfg.Agents[0]; !a.Hooks.PreToolUse.Override || len(a.Hooks.PreToolUse.Hooks) != 0 {
		t.Errorf("override with null hooks %+v", a.Hooks)
	}
}

func TestParseHooksBackendNesting(t *testing.T) {
	text := `hooks:
  PreToolUse:
    - handler: global.sh
agents:
  - id: coder
    backend:
      hooks:
        PreToolUse:
          override: true
          hooks:
            - handler: coder.sh
              matcher: "mcp__*"
        PostToolUse:
          - type: builtin
            handler: reminder
  - id: plain
    hooks:
      PostToolUse:
        - handler: plain.sh
`
	cfg := parseOK(t, text)
	if len(cfg.Agents) != 2 {
		t.Fatalf("agents %+v", cfg.Agents)
	}
	coder := cfg.Agents[0]
	// backend.hooks are moved to Hooks, so the engine reads one place.
	if !coder.Backend.Hooks.Empty() {
		t.Error("backend.hooks left in place")
	}
	if !coder.Hooks.PreToolUse.Override {
		t.Error("override lost")
	}
	wantHooks(t, "coder PreToolUse", coder.Hooks.PreToolUse.Hooks, []hookSummary{
		{"coder.sh", "mcp__*", "command", "coder.sh", nil, "", DefaultHookTimeout, false, "cfg.yaml:11"},
	})
	wantHooks(t, "coder PostToolUse", coder.Hooks.PostToolUse.Hooks, []hookSummary{
		{"reminder", "", "builtin", "reminder", nil, "", DefaultHookTimeout, false, "cfg.yaml:14"},
	})
	plain := cfg.Agents[1]
	wantHooks(t, "plain PostToolUse", plain.Hooks.PostToolUse.Hooks, []hookSummary{
		{"plain.sh", "", "command", "plain.sh", nil, "", DefaultHookTimeout, false, "cfg.yaml:19"},
	})
	if plain.Hooks.PreToolUse.Override || len(plain.Hooks.PreToolUse.Hooks) != 0 {
		t.Errorf("plain PreToolUse %+v", plain.Hooks.PreToolUse)
	}
	wantHooks(t, "global", cfg.Hooks.PreToolUse.Hooks, []hookSummary{
		{"global.sh", "", "command", "global.sh", nil, "", DefaultHookTimeout, false, "cfg.yaml:3"},
	})
}

func TestParseHooksFlowStyle(t *testing.T) {
	text := `hooks: {PreToolUse: [{handler: x, matcher: "Write|Edit"}, {shell: echo hi, timeout: 2}], PostToolUse: []}
agents: [{id: a, hooks: {PreToolUse: {override: true, hooks: [{type: builtin, handler: b, options: {k: v}}]}}}]
`
	cfg := parseOK(t, text)
	wantHooks(t, "global", cfg.Hooks.PreToolUse.Hooks, []hookSummary{
		{"x", "Write|Edit", "command", "x", nil, "", DefaultHookTimeout, false, "cfg.yaml:1"},
		{"shell: echo hi", "", "command", "", nil, "echo hi", 2 * time.Second, false, "cfg.yaml:1"},
	})
	if len(cfg.Hooks.PostToolUse.Hooks) != 0 {
		t.Error("PostToolUse: [] has rules")
	}
	a := cfg.Agents[0]
	if !a.Hooks.PreToolUse.Override {
		t.Error("override lost")
	}
	wantHooks(t, "agent", a.Hooks.PreToolUse.Hooks, []hookSummary{
		{"b", "", "builtin", "b", nil, "", DefaultHookTimeout, false, "cfg.yaml:2"},
	})
}

func TestParseHooksNullEvent(t *testing.T) {
	for _, text := range []string{
		"hooks:\n  PreToolUse:\n  PostToolUse: ~\n",
		"hooks:\n  PreToolUse: null\n",
		"hooks:\n",
		"hooks: {}\n",
		"hooks:\n  PreToolUse: []\n",
		"agents:\n  - id: a\n    hooks:\n      PreToolUse:\n",
		"agents: []\n",
	} {
		cfg, err := Parse(file, []byte(text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if !cfg.Hooks.Empty() {
			t.Errorf("%q: global hooks %+v", text, cfg.Hooks)
		}
		for _, a := range cfg.Agents {
			if !a.Hooks.Empty() {
				t.Errorf("%q: agent hooks %+v", text, a.Hooks)
			}
		}
	}
}

func TestHooksFor(t *testing.T) {
	var h Hooks
	if h.For("PreToolUse") != &h.PreToolUse || h.For("PostToolUse") != &h.PostToolUse {
		t.Error("For returns the wrong field")
	}
	if h.For("Stop") != nil || h.For("pretooluse") != nil {
		t.Error("For of another event is not nil")
	}
	if !h.Empty() {
		t.Error("zero Hooks not Empty")
	}
}

func TestHookWhere(t *testing.T) {
	cfg := parseOK(t, "# comment\n\nhooks:\n  PostToolUse:\n\n    - handler: a\n\n    -   handler: b\n        matcher: Bash\n")
	hs := cfg.Hooks.PostToolUse.Hooks
	if hs[0].File != file || hs[0].Line != 6 || hs[0].Where() != "cfg.yaml:6" {
		t.Errorf("first rule at %s (%s:%d)", hs[0].Where(), hs[0].File, hs[0].Line)
	}
	if hs[1].Where() != "cfg.yaml:8" {
		t.Errorf("second rule at %s", hs[1].Where())
	}
	// The file is the path given to Parse.
	cfg, err := Parse("/etc/x/hooks.yaml", []byte("hooks:\n  PreToolUse:\n    - handler: a\n"))
	if err != nil || cfg.Hooks.PreToolUse.Hooks[0].Where() != "/etc/x/hooks.yaml:3" {
		t.Errorf("Where = %q, %v", cfg.Hooks.PreToolUse.Hooks[0].Where(), err)
	}
	// And an agent's rule.
	cfg = parseOK(t, "agents:\n  - id: a\n    backend:\n      hooks:\n        PreToolUse:\n          - handler: x\n")
	if w := cfg.Agents[0].Hooks.PreToolUse.Hooks[0].Where(); w != "cfg.yaml:6" {
		t.Errorf("agent rule at %s", w)
	}
}

func TestParseHooksErrors(t *testing.T) {
	const pre = "hooks:\n  PreToolUse:\n    - handler: x\n"
	timeoutMsg := func(v string) string {
		return `cfg.yaml:4: hooks.PreToolUse[0].timeout: must be a number of seconds from 0.001 to 300, got "` + v + `"`
	}
	tests := []struct{ name, text, want string }{
		{"bad matcher", pre + "      matcher: \"Write|\"\n",
			`cfg.yaml:4: hooks.PreToolUse[0].matcher: matcher "Write|": empty alternative (a stray "|"); write "*" or leave the matcher out to match every tool`},
		{"bad matcher regex", pre + "      matcher: \"re:(\"\n",
			"cfg.yaml:4: hooks.PreToolUse[0].matcher: matcher \"re:(\": invalid regular expression: missing closing ): `(`"},
		{"bad matcher spaces", pre + "      matcher: \"Write | Edit\"\n",
			`cfg.yaml:4: hooks.PreToolUse[0].matcher: matcher "Write | Edit": alternative "Write " has spaces around it; tool names have none (write "Write|Edit")`},
		{"unknown key in a hook", pre + "      bogus: 1\n",
			`cfg.yaml:4: unknown key "hooks.PreToolUse[0].bogus"`},
		{"misspelt key in a hook", pre + "      failClosed: true\n",
			`cfg.yaml:4: unknown key "hooks.PreToolUse[0].failClosed" (did you mean "fail_closed"?)`},
		{"unknown event key", "hooks:\n  Bogus:\n    - handler: x\n",
			`cfg.yaml:2: unknown key "hooks.Bogus"`},
		{"lower-case event key", "hooks:\n  pretooluse:\n    - handler: x\n",
			`cfg.yaml:2: unknown key "hooks.pretooluse" (did you mean "PreToolUse"?)`},
		{"event Claude Code has but rules do not", "hooks:\n  Stop:\n    - handler: x\n",
			`cfg.yaml:2: unknown key "hooks.Stop"`},
		{"unknown key in the override form", "hooks:\n  PreToolUse:\n    override: false\n    rules: []\n",
			`cfg.yaml:4: unknown key "hooks.PreToolUse.rules"`},
		{"handler and shell", pre + "      shell: y\n",
			"cfg.yaml:4: hooks.PreToolUse[0].shell: give handler: (exec form) or shell: (shell form), not both"},
		{"shell and args", "hooks:\n  PreToolUse:\n    - shell: y\n      args: [a]\n",
			"cfg.yaml:4: hooks.PreToolUse[0].args: args: go with handler:; a shell: command line carries its own arguments"},
		{"no handler", "hooks:\n  PreToolUse:\n    - matcher: Bash\n",
			"cfg.yaml:3: hooks.PreToolUse[0].handler: a command hook needs handler: (a program, run without a shell) or shell: (a command line for /bin/sh -c)"},
		{"empty handler", "hooks:\n  PreToolUse:\n    - handler: \"\"\n      matcher: Bash\n",
			"cfg.yaml:3: hooks.PreToolUse[0].handler: a command hook needs handler: (a program, run without a shell) or shell: (a command line for /bin/sh -c)"},
		{"builtin without handler", "hooks:\n  PreToolUse:\n    - type: builtin\n",
			"cfg.yaml:3: hooks.PreToolUse[0].handler: a builtin hook names its check in handler:"},
		{"builtin with args", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: b\n      args: [a]\n",
			"cfg.yaml:5: hooks.PreToolUse[0].args: a builtin hook takes options:, not args:"},
		{"builtin with shell", "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: b\n      shell: echo\n",
			"cfg.yaml:5: hooks.PreToolUse[0].shell: a builtin hook takes options:, not shell:"},
		{"options on a command rule", pre + "      options: {a: 1}\n",
			"cfg.yaml:4: hooks.PreToolUse[0].options: options: configure built-in checks (type: builtin); a command reads its own configuration"},
		{"type python", pre + "      type: python\n",
			`cfg.yaml:4: hooks.PreToolUse[0].type: type "python" is MassGen's in-process Python hook; massgen-hook runs programs: use type: command with the script as handler`},
		{"unknown type", pre + "      type: js\n",
			`cfg.yaml:4: hooks.PreToolUse[0].type: unknown type "js" (use command or builtin)`},
		{"type in capitals", pre + "      type: Command\n",
			`cfg.yaml:4: hooks.PreToolUse[0].type: unknown type "Command" (use command or builtin)`},
		{"timeout 0", pre + "      timeout: 0\n", timeoutMsg("0")},
		{"timeout -1", pre + "      timeout: -1\n", timeoutMsg("-1")},
		{"timeout 301", pre + "      timeout: 301\n", timeoutMsg("301")},
		{"timeout 300.5", pre + "      timeout: 300.5\n", timeoutMsg("300.5")},
		{"timeout 5s", pre + "      timeout: 5s\n", timeoutMsg("5s")},
		{"timeout quoted", pre + "      timeout: \"5\"\n", timeoutMsg("5")},
		{"timeout NaN", pre + "      timeout: .nan\n", timeoutMsg(".nan")},
		{"timeout inf", pre + "      timeout: .inf\n", timeoutMsg(".inf")},
		{"override in global hooks", "hooks:\n  PreToolUse:\n    override: true\n    hooks:\n      - handler: x\n",
			"cfg.yaml:3: hooks.PreToolUse.override: override only makes sense in an agent's hooks (it drops the global ones)"},
		{"override in global PostToolUse", "\nhooks:\n  PostToolUse:\n    override: true\n",
			"cfg.yaml:4: hooks.PostToolUse.override: override only makes sense in an agent's hooks (it drops the global ones)"},
		{"duplicate agent id", "agents:\n  - id: a\n  - id: b\n  - id: a\n",
			`cfg.yaml:4: agents[2].id: agent "a" is already defined as agents[0]`},
		{"missing agent id", "agents:\n  - id: a\n  - hooks:\n      PreToolUse:\n        - handler: x\n",
			"cfg.yaml:3: agents[1].id: every agent needs an id (the name given by --agent or MASSGEN_AGENT_ID, or its agent_type)"},
		{"empty agent id", "agents:\n  - id: \"\"\n",
			"cfg.yaml:2: agents[0].id: every agent needs an id (the name given by --agent or MASSGEN_AGENT_ID, or its agent_type)"},
		{"hooks and backend.hooks", "agents:\n  - id: a\n    hooks:\n      PreToolUse:\n        - handler: x\n    backend:\n      hooks:\n        PostToolUse:\n          - handler: y\n",
			"cfg.yaml:2: agents[0]: give the agent's hooks once, under hooks: or under backend.hooks:, not both"},
		{"unknown key in an agent", "agents:\n  - id: a\n    hook: {}\n",
			`cfg.yaml:3: unknown key "agents[0].hook" (did you mean "hooks"?)`},
		{"unknown key in backend", "agents:\n  - id: a\n    backend:\n      model: gpt-5\n",
			`cfg.yaml:4: unknown key "agents[0].backend.model": a backend's other keys are read as MassGen's only when it names its type (backend.type: codex, claude_code, ...)`},
		{"error in an agent's rule", "agents:\n  - id: a\n    hooks:\n      PreToolUse:\n        - handler: x\n          timeout: 0\n",
			`cfg.yaml:6: agents[0].hooks.PreToolUse[0].timeout: must be a number of seconds from 0.001 to 300, got "0"`},
		{"error in an agent's override rule", "agents:\n  - id: a\n    hooks:\n      PreToolUse:\n        override: true\n        hooks:\n          - type: weird\n            handler: x\n",
			`cfg.yaml:7: agents[0].hooks.PreToolUse.hooks[0].type: unknown type "weird" (use command or builtin)`},
		{"error in a backend rule", "agents:\n  - id: a\n    backend:\n      hooks:\n        PostToolUse:\n          - matcher: Bash\n",
			"cfg.yaml:6: agents[0].backend.hooks.PostToolUse[0].handler: a command hook needs handler: (a program, run without a shell) or shell: (a command line for /bin/sh -c)"},
		{"unknown key in a backend rule", "agents:\n  - id: a\n    backend:\n      hooks:\n        PreToolUse:\n          override: true\n          hooks:\n            - handler: x\n              bogus: 1\n",
			`cfg.yaml:9: unknown key "agents[0].backend.hooks.PreToolUse.hooks[0].bogus"`},
		{"event not a list", "hooks:\n  PreToolUse: 5\n",
			"cfg.yaml:2: key hooks.PreToolUse: expected a list of hooks, or override: and hooks:"},
		{"hook not a mapping", "hooks:\n  PreToolUse:\n    - guard.sh\n",
			"cfg.yaml:3: key hooks.PreToolUse[0]: a hook must be a mapping with handler:, matcher:, type: ..."},
		{"hooks not a list", "hooks:\n  PreToolUse:\n    hooks: guard.sh\n",
			"cfg.yaml:3: key hooks.PreToolUse.hooks: `hooks` must be a list of hooks"},
		{"args not a list", pre + "      args: --strict\n",
			"cfg.yaml:4: key hooks.PreToolUse[0].args: cannot unmarshal !!str `--strict` into []string"},
		{"override not a bool", "agents:\n  - id: a\n    hooks:\n      PreToolUse:\n        override: sometimes\n",
			"cfg.yaml:5: key agents[0].hooks.PreToolUse.override: cannot unmarshal !!str `sometimes` into bool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			wantErrors(t, err, tt.want)
		})
	}
}

func TestParseHooksSeveralErrorsInLineOrder(t *testing.T) {
	text := `agents:
  - id: a
    hooks:
      PreToolUse:
        - handler: x
          timeout: 0
hooks:
  PreToolUse:
    - handler: y
      matcher: "re:("
    - shell: echo
      type: weird
      timeout: 1000
`
	_, err := Parse(file, []byte(text))
	wantErrors(t, err,
		`cfg.yaml:6: agents[0].hooks.PreToolUse[0].timeout: must be a number of seconds from 0.001 to 300, got "0"`,
		"cfg.yaml:10: hooks.PreToolUse[0].matcher: matcher \"re:(\": invalid regular expression: missing closing ): `(`",
		`cfg.yaml:12: hooks.PreToolUse[1].type: unknown type "weird" (use command or builtin)`,
		`cfg.yaml:13: hooks.PreToolUse[1].timeout: must be a number of seconds from 0.001 to 300, got "1000"`,
	)
}

func TestParseHooksSeveralDecodeErrors(t *testing.T) {
	text := "hooks:\n  PreToolUse:\n    - handler: x\n      bogus: 1\n    - handler: y\n      other: 2\n  Nope: []\n"
	_, err := Parse(file, []byte(text))
	wantErrors(t, err,
		`cfg.yaml:4: unknown key "hooks.PreToolUse[0].bogus"`,
		`cfg.yaml:6: unknown key "hooks.PreToolUse[1].other"`,
		`cfg.yaml:7: unknown key "hooks.Nope"`,
	)
}
