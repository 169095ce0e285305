package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// massgenConfig is a MassGen config as MassGen's own documentation writes
// one: backends with type, model and cwd, Python hooks globally and per
// agent, and MassGen's top-level sections.
const massgenConfig = `agents:
  - id: agent_a
    system_message: "You review code."
    backend:
      type: codex
      model: gpt-5.1-codex
      cwd: workspace1
      reasoning: {effort: medium}
      hooks:
        PreToolUse:
          - matcher: "Bash"
            handler: "myhooks.block_rm"
            type: python
            timeout: 600
  - id: agent_b
    backend:
      type: claude_code
      model: claude-sonnet-4-5
      cwd: workspace2
      hooks:
        PostToolUse:
          override: true
          hooks:
            - handler: "myhooks.log"
hooks:
  PreToolUse:
    - matcher: "*"
      handler: "myhooks.audit"
orchestrator:
  snapshot_storage: snapshots
  coordination: {max_orchestration_restarts: 2}
ui:
  display_type: rich_terminal
timeout_settings:
  orchestrator_timeout_seconds: 1800
`

func TestMassGenConfigReadAsItIs(t *testing.T) {
	cfg, err := Parse(file, []byte(massgenConfig))
	if err != nil {
		t.Fatalf("a MassGen config is rejected: %v", err)
	}
	if !cfg.MassGen {
		t.Error("not recognised as a MassGen config")
	}
	if n := len(cfg.Hooks.PreToolUse.Hooks); n != 0 {
		t.Errorf("%d global PreToolUse rules kept, want 0: MassGen's Python hooks run inside MassGen", n)
	}
	a, b := cfg.AgentByID("agent_a"), cfg.AgentByID("agent_b")
	if a == nil || b == nil {
		t.Fatalf("agents %+v", cfg.Agents)
	}
	if a.Backend.Type != "codex" || a.Backend.Cwd != "workspace1" || b.Backend.Type != "claude_code" {
		t.Errorf("backends: %+v, %+v", a.Backend, b.Backend)
	}
	if len(a.Hooks.PreToolUse.Hooks) != 0 || len(b.Hooks.PostToolUse.Hooks) != 0 {
		t.Errorf("agents' Python hooks kept: %+v %+v", a.Hooks, b.Hooks)
	}
	if !b.Hooks.PostToolUse.Override {
		t.Error("agent_b's override: true is lost")
	}
	want := []string{
		`cfg.yaml:11: agents[0].backend.hooks.PreToolUse[0]: handler myhooks.block_rm is a MassGen Python hook (type: python): it runs inside MassGen, not here; skipped`,
		`cfg.yaml:24: agents[1].backend.hooks.PostToolUse.hooks[0]: handler myhooks.log is a MassGen Python hook (type: python): it runs inside MassGen, not here; skipped`,
		`cfg.yaml:27: hooks.PreToolUse[0]: handler myhooks.audit is a MassGen Python hook (type: python): it runs inside MassGen, not here; skipped`,
	}
	var got []string
	for _, n := range cfg.Notices {
		got = append(got, n.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMassGenConfigMixedWithOurs: massgen-hook's own keys and command rules
// may sit in a MassGen file; a command rule runs, with a notice that
// MassGen's validator refuses it.
func TestMassGenConfigMixedWithOurs(t *testing.T) {
	text := massgenConfig + `fail_closed: true
scratchpad:
  block_cap: 5
`
	text = strings.Replace(text, `          - matcher: "Bash"
            handler: "myhooks.block_rm"`, `          - matcher: "Bash"
            type: command
            handler: ./hooks/check.sh
          - matcher: "Bash"
            handler: "myhooks.block_rm"`, 1)
	cfg, err := Parse(file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.FailClosed || cfg.Scratchpad.BlockCap != 5 {
		t.Errorf("our keys in a MassGen file are not read: fail_closed %v, block_cap %d", cfg.FailClosed, cfg.Scratchpad.BlockCap)
	}
	rules := cfg.AgentByID("agent_a").Hooks.PreToolUse.Hooks
	if len(rules) != 1 || rules[0].Handler != "./hooks/check.sh" || rules[0].Type != TypeCommand {
		t.Fatalf("agent_a's rules %+v, want the command rule alone", rules)
	}
	found := false
	for _, n := range cfg.Notices {
		found = found || strings.Contains(n.Error(), "agents[0].backend.hooks.PreToolUse[0].type: massgen-hook runs this command rule, but MassGen's config validator refuses type: command")
	}
	if !found {
		t.Errorf("no notice that MassGen refuses type: command: %v", cfg.Notices)
	}
	cfg, err = Parse(file, []byte(strings.Replace(massgenConfig, "hooks:\n  PreToolUse:", "hooks:\n  PostToolUse:\n    - {type: builtin, handler: high_priority_task_reminder}\n  PreToolUse:", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, n := range cfg.Notices {
		all = append(all, n.Error())
	}
	if !strings.Contains(strings.Join(all, "\n"), "hooks.PostToolUse[0].type: massgen-hook runs this builtin rule, but MassGen's config validator refuses type: builtin") {
		t.Errorf("no notice on the builtin rule: %q", all)
	}
}

func TestMassGenConfigKeys(t *testing.T) {
	tests := []struct {
		name, text string
		errs       []string // exact
		notice     string   // in a notice
	}{
		{name: "typo of ours at the top", text: massgenConfig + "fail_closd: true\n",
			errs: []string{`cfg.yaml:36: unknown key "fail_closd" (did you mean "fail_closed"?)`}},
		{name: "typo of hooks in a backend", text: strings.Replace(massgenConfig, "      hooks:\n        PostToolUse:", "      hoks:\n        PostToolUse:", 1),
			errs: []string{`cfg.yaml:20: unknown key "agents[1].backend.hoks" (did you mean "hooks"?)`}},
		{name: "typo of ours in an agent", text: strings.Replace(massgenConfig, "  - id: agent_b\n", "  - id: agent_b\n    workspce: x\n", 1),
			errs: []string{`cfg.yaml:16: unknown key "agents[1].workspce" (did you mean "workspace"?)`}},
		{name: "unknown event in a MassGen file", text: strings.Replace(massgenConfig, "hooks:\n  PreToolUse:", "hooks:\n  PreToolUs: []\n  PreToolUse:", 1),
			errs: []string{`cfg.yaml:26: unknown key "hooks.PreToolUs" (did you mean "PreToolUse"?)`}},
		{name: "neither ours nor MassGen's, at the top", text: massgenConfig + "orchestratr: {}\n",
			notice: `cfg.yaml:36: orchestratr: neither massgen-hook's key nor MassGen ` + MassGenVersion + `'s: ignored (did you mean MassGen's "orchestrator"?)`},
		{name: "neither ours nor MassGen's, in an agent", text: strings.Replace(massgenConfig, "  - id: agent_b\n", "  - id: agent_b\n    sytem_message: hi\n", 1),
			notice: `cfg.yaml:16: agents[1].sytem_message: neither massgen-hook's key nor MassGen ` + MassGenVersion + `'s: ignored (did you mean MassGen's "system_message"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse(file, []byte(tt.text))
			if tt.errs != nil {
				wantErrors(t, err, tt.errs...)
				return
			}
			if err != nil {
				t.Fatalf("error %v, want a notice only", err)
			}
			var got []string
			for _, n := range cfg.Notices {
				got = append(got, n.Error())
			}
			if !strings.Contains(strings.Join(got, "\n"), tt.notice) {
				t.Errorf("notices:\n%s\nwant one:\n%s", strings.Join(got, "\n"), tt.notice)
			}
		})
	}
}

// TestOwnConfigStaysStrict: without a backend type the file is
// massgen-hook's own: MassGen's keys are unknown, and a rule without type
// is a command.
func TestOwnConfigStaysStrict(t *testing.T) {
	_, err := Parse(file, []byte("orchestrator: {}\nagents:\n  - id: a\n    system_message: x\n"))
	wantErrors(t, err, `cfg.yaml:1: unknown key "orchestrator"`, `cfg.yaml:4: unknown key "agents[0].system_message"`)

	cfg, err := Parse(file, []byte("agents:\n  - id: a\n    backend:\n      hooks:\n        PreToolUse:\n          - handler: ./h.sh\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MassGen || len(cfg.Notices) != 0 {
		t.Errorf("massgen-hook's own backend: form read as MassGen's (%v, %v)", cfg.MassGen, cfg.Notices)
	}
	if r := cfg.Agents[0].Hooks.PreToolUse.Hooks; len(r) != 1 || r[0].Type != TypeCommand {
		t.Errorf("rules %+v, want one command", r)
	}
	_, err = Parse(file, []byte("hooks:\n  PreToolUse:\n    - {type: python, handler: m.f}\n"))
	wantErrors(t, err, `cfg.yaml:3: hooks.PreToolUse[0].type: type "python" is MassGen's in-process Python hook; massgen-hook runs programs: use type: command with the script as handler`)
}

func TestWorkspaceDir(t *testing.T) {
	project := "/p"
	ws := filepath.Join(project, ".massgen/workspaces")
	tests := []struct {
		name      string
		agent     Agent
		cwd, want string
	}{
		{"nothing configured", Agent{}, "", ""},
		{"ours, relative", Agent{Workspace: "ws/a", Backend: Backend{Cwd: "workspace1"}}, "", "/p/ws/a"},
		{"ours, absolute", Agent{Workspace: "/elsewhere/a"}, "", "/elsewhere/a"},
		{"MassGen's cwd, routed", Agent{Backend: Backend{Cwd: "workspace1"}}, "", ws + "/workspace1"},
		{"MassGen's cwd under .massgen", Agent{Backend: Backend{Cwd: ".massgen/workspaces/w"}}, "", ws + "/w"},
		{"MassGen's absolute cwd", Agent{Backend: Backend{Cwd: "/abs/w"}}, "", "/abs/w"},
		{"the run's suffixed folder", Agent{Backend: Backend{Cwd: "workspace1"}}, ws + "/workspace_0a1b2c3d", ws + "/workspace_0a1b2c3d"},
		{"a named cwd with a suffix", Agent{Backend: Backend{Cwd: "reviewer"}}, ws + "/reviewer_deadbeef", ws + "/reviewer_deadbeef"},
		{"another agent's folder", Agent{Backend: Backend{Cwd: "reviewer"}}, ws + "/writer_deadbeef", ws + "/reviewer"},
		{"not a suffix", Agent{Backend: Backend{Cwd: "reviewer"}}, ws + "/reviewer_DEADBEEF", ws + "/reviewer"},
		{"elsewhere", Agent{Backend: Backend{Cwd: "reviewer"}}, "/tmp/reviewer_deadbeef", ws + "/reviewer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.agent.WorkspaceDir(project, tt.cwd, nil); got != tt.want {
				t.Errorf("WorkspaceDir = %q, want %q", got, tt.want)
			}
		})
	}
	// Without the hook's folder, the one run folder beside the routed one.
	list := func(names ...string) func(string) []string {
		return func(dir string) []string {
			if dir != ws {
				t.Errorf("listed %s, want %s", dir, ws)
			}
			return names
		}
	}
	a := Agent{Backend: Backend{Cwd: "workspace1"}}
	if got := a.WorkspaceDir(project, "", list("writer_0a1b2c3d", "workspace_0a1b2c3d", "workspace")); got != ws+"/workspace_0a1b2c3d" {
		t.Errorf("one run folder: %q", got)
	}
	if got := a.WorkspaceDir(project, "", list("workspace_0a1b2c3d", "workspace_99999999")); got != ws+"/workspace1" {
		t.Errorf("two run folders, neither surely the agent's: %q", got)
	}
	if got := a.WorkspaceDir(project, "", list()); got != ws+"/workspace1" {
		t.Errorf("no run folder: %q", got)
	}
}

// TestAgentAt: where a hook runs tells which MassGen agent it serves, when
// only one agent's workspace can hold it.
func TestAgentAt(t *testing.T) {
	cfg, err := Parse(file, []byte(`agents:
  - id: reviewer
    backend: {type: codex, cwd: reviewer}
  - id: a1
    backend: {type: codex, cwd: workspace1}
  - id: a2
    backend: {type: claude_code, cwd: workspace2}
  - id: mine
    workspace: ws/mine
    backend: {type: gemini_cli}
`))
	if err != nil {
		t.Fatal(err)
	}
	ws := "/p/.massgen/workspaces"
	for dir, want := range map[string]string{
		ws + "/reviewer_0a1b2c3d":     "reviewer",
		ws + "/reviewer_0a1b2c3d/src": "reviewer",
		ws + "/reviewer":              "reviewer",
		ws + "/workspace_0a1b2c3d":    "", // a1's or a2's
		"/p/ws/mine/deep":             "mine",
		"/p/ws/mine2":                 "",
		"/p":                          "",
		ws + "/reviewerx_0a1b2c3d":    "",
		"":                            "",
	} {
		if got := cfg.AgentAt("/p", dir); got != want {
			t.Errorf("AgentAt(%q) = %q, want %q", dir, got, want)
		}
	}
	own, _ := Parse(file, []byte("agents:\n  - id: x\n    workspace: ws\n"))
	if got := own.AgentAt("/p", "/p/ws"); got != "" {
		t.Errorf("outside a MassGen config: %q", got)
	}
}

// TestMassGenSingleAgent: MassGen's single-agent form is recognised, and
// its keys are MassGen's.
func TestMassGenSingleAgent(t *testing.T) {
	cfg, err := Parse(file, []byte("agent:\n  id: solo\n  backend: {type: openai, model: gpt-5}\nui: {display_type: simple}\n"))
	if err != nil || !cfg.MassGen {
		t.Fatalf("MassGen %v, error %v", cfg.MassGen, err)
	}
	_, err = Parse(file, []byte("agent:\n  id: solo\n"))
	wantErrors(t, err, `cfg.yaml:1: unknown key "agent" (did you mean "agents"?)`)
}
