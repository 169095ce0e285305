package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config mistake must never switch the guards off. For each mistake in
// the table, a hook still runs the built-in default guards (`cat .env` is
// denied), tells the user in the CLI's warning channel (systemMessage) the
// first time a session meets it, names file:line and what to fix, and
// `config validate` exits 1 on it.

type configMistake struct {
	name string
	// config is .claude/massgen-hook.yaml; setup may replace it.
	config string
	setup  func(t *testing.T, project string) []string // extra environment
	// want is in the warning the user sees.
	want string
	// runtime mistakes are in a rule that loads but cannot run: the other
	// rules and the guards run, the rule's own warning is the message, and
	// validate passes (doctor checks handlers).
	runtime bool
}

var configMistakes = []configMistake{
	{name: "typo'd key", config: "fail_closd: true\n", want: `.claude/massgen-hook.yaml:1: unknown key "fail_closd" (did you mean "fail_closed"?)`},
	{name: "typo'd default_guards: false", config: "default_guard: false\n", want: `unknown key "default_guard" (did you mean "default_guards"?)`},
	{name: "nested typo", config: "scratchpad:\n  block_capp: 3\n", want: `:2: unknown key "scratchpad.block_capp" (did you mean "block_cap"?)`},
	{name: "wrong type bool", config: "default_guards: maybe\n", want: ":1: key default_guards: cannot unmarshal !!str `maybe` into bool"},
	{name: "wrong type int", config: "scratchpad:\n  block_cap: three\n", want: ":2: key scratchpad.block_cap: cannot unmarshal"},
	{name: "out of range", config: "scratchpad:\n  block_cap: 0\n", want: ":2: scratchpad.block_cap: must be from 1 to 100, got 0"},
	{name: "bad glob", config: "hooks:\n  PreToolUse:\n    - matcher: \"Write|\"\n      handler: ./h.sh\n", want: `:3: hooks.PreToolUse[0].matcher: matcher "Write|": empty alternative`},
	{name: "bad regex", config: "hooks:\n  PreToolUse:\n    - matcher: \"re:((\"\n      handler: ./h.sh\n", want: "invalid regular expression"},
	{name: "unknown built-in", config: "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: no_such_check\n", want: "no_such_check"},
	{name: "bad built-in options", config: "hooks:\n  PreToolUse:\n    - type: builtin\n      handler: protected_paths\n      options: {nope: 1}\n", want: "nope"},
	{name: "unknown event", config: "hooks:\n  PreToolUs: []\n", want: `unknown key "hooks.PreToolUs" (did you mean "PreToolUse"?)`},
	{name: "unknown rule type", config: "hooks:\n  PreToolUse:\n    - {handler: x, type: weird}\n", want: `unknown type "weird"`},
	{name: "bad enabled", config: "hooks:\n  PreToolUse:\n    - {type: builtin, handler: protected_paths, enabled: nope}\n", want: "cannot unmarshal !!str `nope` into bool"},
	{name: "YAML syntax error", config: "hooks: [unclosed\n", want: ".claude/massgen-hook.yaml:"},
	{name: "tab indentation", config: "scratchpad:\n\troot: x\n", want: "found character that cannot start any token"},
	{name: "second document", config: "fail_closed: false\n---\nfoo: 1\n", want: ":2: a second YAML document starts here"},
	{name: "bad duration", config: "scratchpad:\n  session_start: {timeout: 10 parsecs}\n", want: `"10 parsecs" is not a duration`},
	{name: "record neither on nor off", config: "record: maybe\n", want: "record: must be true, false, or a mapping"},
	{name: "empty sections", config: "scratchpad:\n  required_sections: []\n", want: "scratchpad.required_sections: must list at least one heading"},
	{name: "config is a folder", setup: func(t *testing.T, project string) []string {
		if err := os.MkdirAll(filepath.Join(project, ".claude/massgen-hook.yaml"), 0o755); err != nil {
			t.Fatal(err)
		}
		return nil
	}, want: "cannot read config: it is a directory"},
	{name: "MASSGEN_HOOK_CONFIG names no file", setup: func(t *testing.T, project string) []string {
		return []string{"MASSGEN_HOOK_CONFIG=" + filepath.Join(project, "no-such.yaml")}
	}, want: "no-such.yaml: cannot read config"},
	{name: "missing handler", runtime: true, config: "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./hooks/missing.sh\n", want: "handler ./hooks/missing.sh not found"},
	{name: "handler not executable", runtime: true, setup: func(t *testing.T, project string) []string {
		writeFile(t, project, "hooks/check.sh", "#!/bin/sh\nexit 0\n")
		return nil
	}, config: "hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: ./hooks/check.sh\n", want: "is not an executable program"},
}

const catEnv = `{"session_id":"cfg-session","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat .env"},"tool_use_id":"toolu_1"}`

// hookAnswer is what a pre-tool-use answer says.
type hookAnswer struct {
	SystemMessage      string `json:"systemMessage"`
	HookSpecificOutput struct {
		PermissionDecision string `json:"permissionDecision"`
	} `json:"hookSpecificOutput"`
}

func readAnswer(t *testing.T, what string, r hookRun) hookAnswer {
	t.Helper()
	if r.err != nil || r.code != 0 {
		t.Fatalf("%s: exit %d, %v\nstderr: %s", what, r.code, r.err, r.stderr)
	}
	var a hookAnswer
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil {
		t.Fatalf("%s: stdout is not one JSON object: %v\n%s", what, err, r.stdout)
	}
	return a
}

func TestConfigMistakesKeepTheGuards(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	for _, m := range configMistakes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			project := t.TempDir()
			writeFile(t, project, ".env", "API_KEY=secret\n")
			if err := os.MkdirAll(filepath.Join(project, ".home"), 0o755); err != nil {
				t.Fatal(err)
			}
			env := hookEnv(project)
			if m.setup != nil {
				env = append(env, m.setup(t, project)...)
			}
			if m.config != "" {
				writeFile(t, project, ".claude/massgen-hook.yaml", m.config)
			}

			first := readAnswer(t, "first call", inboxRun(bin, env, project, catEnv, "pre-tool-use"))
			if first.HookSpecificOutput.PermissionDecision != "deny" {
				t.Errorf("cat .env: permissionDecision %q, want deny: the guards are off", first.HookSpecificOutput.PermissionDecision)
			}
			if m.runtime {
				// The denied call never reached the broken rule; the next
				// one that does shows its warning.
				ls := strings.Replace(catEnv, "cat .env", "ls", 1)
				if a := readAnswer(t, "ls", inboxRun(bin, env, project, ls, "pre-tool-use")); !strings.Contains(a.SystemMessage, m.want) {
					t.Errorf("the user's warning lacks %q:\n%s", m.want, a.SystemMessage)
				}
				return
			}
			if !strings.Contains(first.SystemMessage, m.want) {
				t.Errorf("the user's warning lacks %q:\n%s", m.want, first.SystemMessage)
			}
			if !strings.Contains(first.SystemMessage, "massgen-hook config validate") {
				t.Errorf("the warning does not say how to check the fix:\n%s", first.SystemMessage)
			}

			again := inboxRun(bin, env, project, catEnv, "pre-tool-use")
			// The denial's own line for the user stays; the config's
			// warning is not repeated.
			const denied = "massgen-hook: blocked reading a protected path (\".env\")."
			if a := readAnswer(t, "second call", again); a.SystemMessage != denied || a.HookSpecificOutput.PermissionDecision != "deny" {
				t.Errorf("second call in the session: systemMessage %q, decision %q; want no repeat of the warning, and deny",
					a.SystemMessage, a.HookSpecificOutput.PermissionDecision)
			}
			if !strings.Contains(again.stderr, m.want) {
				t.Errorf("stderr of the second call lacks %q:\n%s", m.want, again.stderr)
			}

			v := inboxRun(bin, env, project, "", "config", "validate")
			if v.code != 1 || !strings.Contains(v.stdout, strings.TrimPrefix(m.want, ".claude/massgen-hook.yaml")) {
				t.Errorf("config validate: exit %d, want 1, naming %q\nstdout: %s\nstderr: %s", v.code, m.want, v.stdout, v.stderr)
			}
		})
	}
}

// TestConfigMistakeWarningPerCLI: the warning goes where each CLI shows
// one; where none is shown (Copilot CLI), stderr only, and the guard holds.
func TestConfigMistakeWarningPerCLI(t *testing.T) {
	t.Parallel() // processes of its own, in a project of its own
	bin := buildHook(t)
	project := t.TempDir()
	writeFile(t, project, ".env", "API_KEY=secret\n")
	writeFile(t, project, ".claude/massgen-hook.yaml", "fail_closd: true\n")
	env := hookEnv(project)

	gemini := `{"session_id":"g1","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"cat .env"},"cwd":"` + project + `","timestamp":"2026-11-20T10:00:00Z","transcript_path":""}`
	r := inboxRun(bin, env, project, gemini, "pre-tool-use", "--dialect", "gemini")
	var g map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &g); err != nil || r.code != 0 {
		t.Fatalf("gemini: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if g["decision"] != "deny" || !strings.Contains(g["systemMessage"].(string), `unknown key "fail_closd"`) {
		t.Errorf("gemini answer %v: want decision deny and the warning", g)
	}

	copilot := `{"timestamp":1763632800000,"cwd":"` + project + `","toolName":"bash","toolArgs":"{\"command\":\"cat .env\"}"}`
	r = inboxRun(bin, env, project, copilot, "pre-tool-use", "--dialect", "copilot")
	if r.code != 0 || !strings.Contains(r.stdout, `"permissionDecision":"deny"`) || strings.Contains(r.stdout, "systemMessage") {
		t.Errorf("copilot: exit %d, stdout %s: want a deny and no systemMessage (it has no place for one)", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, `unknown key "fail_closd"`) {
		t.Errorf("copilot: stderr lacks the config error:\n%s", r.stderr)
	}

	// --fail-closed on the command line keeps its promise: block until fixed.
	r = inboxRun(bin, env, project, catEnv, "pre-tool-use", "--fail-closed")
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, `unknown key "fail_closd"`) {
		t.Errorf("--fail-closed: exit %d, stdout %q, stderr %q; want exit 2 naming the error", r.code, r.stdout, r.stderr)
	}
}
