package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSuggestEvent(t *testing.T) {
	for in, want := range map[string]string{
		"pretooluse":   "PreToolUse",
		"PreTooluse":   "PreToolUse",
		"PreToolUs":    "PreToolUse",
		"PerToolUse":   "PreToolUse", // a swap
		"SubagentStp":  "SubagentStop",
		"Stopp":        "Stop",
		"BeforeTool":   "",
		"OnToolResult": "",
	} {
		if got := SuggestEvent(in); got != want {
			t.Errorf("SuggestEvent(%q) = %q, want %q", in, got, want)
		}
	}
	if CheckEvent("PreToolUse") != nil || CheckEvent("PostToolBatch") != nil {
		t.Error("a known event was reported")
	}
	if is := CheckEvent("PreTooluse"); len(is) != 1 || is[0].Severity != Problem || !strings.Contains(is[0].Message, `did you mean "PreToolUse"`) {
		t.Errorf("CheckEvent(PreTooluse) = %v", is)
	}
}

func TestCheckMatcher(t *testing.T) {
	for _, c := range []struct {
		event, matcher string
		want           Severity // "" for no issue
		says           string
	}{
		{"PreToolUse", "", "", ""},
		{"PreToolUse", "*", "", ""},
		{"PreToolUse", "Bash", "", ""},
		{"PreToolUse", "Write|Edit, MultiEdit", "", ""},
		{"PreToolUse", "mcp__memory__.*", "", ""},
		{"PreToolUse", "mcp__memory__create_entities", "", ""},
		{"PreToolUse", "mcp__memory", Problem, `write "mcp__memory__.*"`},
		{"PreToolUse", "Bash|mcp__github", Problem, `write "Bash|mcp__github__.*"`},
		{"PreToolUse", "*update_task_status", Problem, `write ".*update_task_status"`},
		{"PreToolUse", "Edit(", Problem, "not a valid regular expression"},
		{"PreToolUse", "^(?!Bash).*", Note, "cannot check"},
		{"PreToolUse", `(a)\1`, Note, "cannot check"},
		{"Stop", "Bash", Note, "ignores the matcher"},
		{"UserPromptSubmit", "x", Note, "ignores"},
		{"SessionStart", "startup|resume", "", ""},
	} {
		is := CheckMatcher(c.event, c.matcher, true)
		switch {
		case c.want == "" && len(is) != 0:
			t.Errorf("%s %q: unexpected %v", c.event, c.matcher, is)
		case c.want != "" && (len(is) != 1 || is[0].Severity != c.want || !strings.Contains(is[0].Message, c.says)):
			t.Errorf("%s %q = %v, want one %s saying %q", c.event, c.matcher, is, c.want, c.says)
		}
	}
	if CheckMatcher("PreToolUse", "mcp__x", false) != nil {
		t.Error("an absent matcher was checked")
	}
}

func TestMatchersOverlap(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"", "Bash", true}, {"*", "Edit", true}, {"Bash", "Bash", true},
		{"Bash", "Edit|Write", false}, {"Edit|Write", "Write", true},
		{"Edit.*", "NotebookEdit", true}, {"Edit.*", "Bash", false},
		{"Edit.*", "Write.*", false},
	} {
		if got := MatchersOverlap("PreToolUse", c.a, c.b); got != c.want {
			t.Errorf("MatchersOverlap(%q, %q) = %v", c.a, c.b, got)
		}
	}
	if !MatchersOverlap("Stop", "x", "y") {
		t.Error("Stop's matchers are ignored, so they always overlap")
	}
}

func TestCheckTimeout(t *testing.T) {
	for raw, want := range map[string]string{
		"10":     "",
		"600":    "",
		"999":    "",
		"0.5":    "",
		"5000":   "looks like milliseconds: 5000 s is 83 min; Claude Code's timeout is in seconds: write 5",
		"60000":  "60000 s is 17 h",
		"0":      "must be more than 0",
		"-3":     "must be more than 0",
		`"10"`:   "must be a number",
		"null":   "",
		"true":   "must be a number",
		"{}":     "must be a number",
		"100000": "write 100",
	} {
		is := CheckTimeout(raw)
		if want == "" {
			if raw == "null" {
				continue // json null decodes as 0 into nothing: left to the caller
			}
			if is != nil {
				t.Errorf("timeout %s: unexpected %v", raw, is)
			}
			continue
		}
		if len(is) != 1 || is[0].Severity != Problem || !strings.Contains(is[0].Message, want) {
			t.Errorf("timeout %s = %v, want %q", raw, is, want)
		}
	}
}

// fixture makes a project with an executable, a plain file and a
// directory, and an Env on it.
func fixture(t *testing.T) Env {
	t.Helper()
	dir := t.TempDir()
	project := filepath.Join(dir, "my project")
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, "bin")
	for _, d := range []string{project + "/.claude/hooks", home + "/bin", bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(project+"/.claude/hooks/guard.sh", "#!/bin/sh\nexit 0\n", 0o755)
	write(project+"/.claude/hooks/plain.sh", "#!/bin/sh\nexit 0\n", 0o644)
	write(project+"/.claude/hooks/stop.sh", "#!/bin/sh\njq -e .stop_hook_active >/dev/null && exit 0\necho '{\"decision\":\"block\",\"reason\":\"x\"}'\n", 0o755)
	write(project+"/.claude/hooks/binary", "\x7fELF\x00\x00", 0o755)
	write(home+"/bin/tool", "#!/bin/sh\n", 0o755)
	for _, name := range []string{"jq", "sh", "bash"} {
		write(bin+"/"+name, "#!/bin/sh\n", 0o755)
	}
	return Env{Project: project, Home: home, Path: bin}
}

func TestCheckCommand(t *testing.T) {
	env := fixture(t)
	for _, c := range []struct {
		cmd  string
		want Severity
		says string
	}{
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, "", ""},
		{`"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh" --flag "$x"`, "", ""},
		{`~/bin/tool`, "", ""},
		{`$HOME/bin/tool`, Problem, `write "$HOME"/bin/tool`},
		{`"${HOME}"/bin/tool`, "", ""},
		{`jq -r .tool_name`, "", ""},
		{`echo '{}'`, "", ""},
		{`if [ -n "$X" ]; then "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh; fi`, "", ""},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/*.sh`, Note, "glob"},
		{`exec "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, "", ""},
		{`FOO=1 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, "", ""},
		{`cd "$CLAUDE_PROJECT_DIR" && ./.claude/hooks/guard.sh`, "", ""},
		{`cd "$CLAUDE_PROJECT_DIR" && ./.claude/hooks/nothere.sh`, Problem, "does not exist"},
		{`bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/plain.sh`, "", ""},
		{`bash -c 'echo hi'`, "", ""},
		{`python3 -m tool`, Problem, "not found on PATH"},
		{`.claude/hooks/guard.sh`, Problem, `is a relative path, found from the session's working directory, which moves when the session cds; write "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`},
		{`./hooks/x.sh`, Problem, `write "$CLAUDE_PROJECT_DIR"/hooks/x.sh`},
		{`bash .claude/hooks/plain.sh`, Problem, "the script .claude/hooks/plain.sh is a relative path"},
		{`$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh`, Problem, `$CLAUDE_PROJECT_DIR is unquoted in $CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh: a value with a space is split into several words; write "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh`, Problem, `does not exist (looked for .claude/hooks/missing.sh)`},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/massgen-hook stop`, Problem, `massgen-hook init copies it`},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/plain.sh`, Problem, "is not executable"},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks`, Problem, "is a directory"},
		{`no-such-tool --x`, Problem, "no-such-tool is not found on PATH"},
		{`"$(git rev-parse --show-toplevel)"/hook.sh`, Note, "command substitution"},
		{`"$CLAUDE_PLUGIN_ROOT"/hooks/run.sh`, Note, "$CLAUDE_PLUGIN_ROOT is only known when Claude Code runs the hook"},
		{`echo "unterminated`, Problem, "is not valid shell"},
		{`   `, Problem, "is empty"},
	} {
		got := CheckCommand(c.cmd, env)
		is := got.Issues
		switch {
		case c.want == "" && len(is) != 0:
			t.Errorf("%s: unexpected %v", c.cmd, is)
		case c.want != "" && (len(is) != 1 || is[0].Severity != c.want || !strings.Contains(is[0].Message, c.says)):
			t.Errorf("%s = %v, want one %s saying %q", c.cmd, is, c.want, c.says)
		}
	}
}

func TestCheckArgs(t *testing.T) {
	env := fixture(t)
	if c := CheckArgs([]string{env.Project + "/.claude/hooks/guard.sh", "x"}, env); c.Issues != nil {
		t.Errorf("absolute args[0]: %v", c.Issues)
	}
	if c := CheckArgs([]string{"hooks/guard.sh"}, env); len(c.Issues) != 1 || !strings.Contains(c.Issues[0].Message, "relative") {
		t.Errorf("relative args[0]: %v", c.Issues)
	}
	if c := CheckArgs([]string{"$CLAUDE_PROJECT_DIR/x"}, env); len(c.Issues) != 1 || c.Issues[0].Severity != Note {
		t.Errorf("args[0] with a variable: %v", c.Issues)
	}
	if c := CheckArgs(nil, env); len(c.Issues) != 1 || c.Issues[0].Severity != Problem {
		t.Errorf("no args: %v", c.Issues)
	}
}

func TestLoopGuard(t *testing.T) {
	env := fixture(t)
	for _, c := range []struct {
		cmd  string
		want Severity
	}{
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/stop.sh`, ""},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, Problem},
		{`sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/plain.sh`, Problem},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/binary`, Note},
		{`"$CLAUDE_PLUGIN_ROOT"/stop.sh`, Note},
		{`jq -e '.stop_hook_active' >/dev/null || "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, ""},
		{`echo '{}'`, ""},
	} {
		is := CheckLoopGuard("Stop", c.cmd, CheckCommand(c.cmd, env))
		switch {
		case c.want == "" && is != nil:
			t.Errorf("%s: unexpected %v", c.cmd, is)
		case c.want != "" && (len(is) != 1 || is[0].Severity != c.want):
			t.Errorf("%s = %v, want one %s", c.cmd, is, c.want)
		}
	}
}

func TestIdentity(t *testing.T) {
	env := fixture(t)
	id := func(cmd string) string { return CheckCommand(cmd, env).Identity() }
	if a, b := id(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/massgen-hook stop`), id(`'/usr/local/bin/massgen-hook' --fail-closed stop`); a != b || a != "massgen-hook stop" {
		t.Errorf("massgen-hook identities %q, %q", a, b)
	}
	if a, b := id(`massgen-hook --config x.yaml pre-tool-use`), id(`massgen-hook pre-tool-use`); a != b {
		t.Errorf("--config's value taken for the subcommand: %q, %q", a, b)
	}
	if a, b := id(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`), id(`"`+env.Project+`/.claude/hooks/guard.sh"`); a == "" || a != b {
		t.Errorf("one script by two names: %q, %q", a, b)
	}
	if a, b := id(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh a`), id(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh b`); a == b {
		t.Error("other arguments are another handler")
	}
	if id(`"$CLAUDE_PLUGIN_ROOT"/x`) != "" {
		t.Error("an unknown program has an identity")
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"guards", "inbox", "scratchpad"}
	for in, want := range map[string]string{
		"Guards":     "guards",     // case
		"guard":      "guards",     // one letter short
		"scrachpad":  "scratchpad", // one letter missing
		"inobx":      "inbox",      // a swap
		"scratch":    "scratchpad", // a prefix of three letters or more
		"sc":         "",           // too short to be a prefix
		"everything": "",
	} {
		if got := Suggest(in, known); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
	if got := SuggestEvent("Pre"); got != "" {
		t.Errorf("SuggestEvent(Pre) = %q: event names take no prefixes", got)
	}
}
