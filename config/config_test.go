package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/scratchpad"
)

const file = "cfg.yaml"

func TestDefault(t *testing.T) {
	d := Default()
	want := Config{DefaultGuards: true, GuardTimeout: Duration(8 * time.Second), Scratchpad: Scratchpad{
		Root:             ".claude/scratchpad",
		DefaultAgent:     "general-purpose",
		RequiredSections: []string{"What I did", "Cross-agent observations", "Unresolved"},
		BlockCap:         3,
		ExemptAgents:     []string{"Explore", "Plan", "claude-code-guide", "statusline-setup", "web-fetch", "comment-thread-analyst", "explore"},
		SessionStart:     SessionStart{CoordinatorLines: 25, EgoLines: 20, GitLogEntries: 5, Timeout: Duration(10 * time.Second)},
		SubagentStart:    SubagentStart{TailLines: 3},
	}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Default() =\n%+v\nwant\n%+v", d, want)
	}
	if d.Path != "" || d.FailClosed {
		t.Error("Default has a Path or is fail-closed")
	}
	// Default hands out its own slice: changing it does not change the package's.
	d.Scratchpad.RequiredSections[0] = "changed"
	if scratchpad.DefaultSections[0] != "What I did" || Default().Scratchpad.RequiredSections[0] != "What I did" {
		t.Error("Default shares RequiredSections with scratchpad.DefaultSections")
	}
}

func TestParseEmptyIsDefaults(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# only a comment\n", "---\n", "---\n...\n", "scratchpad:\n", "scratchpad: ~\n", "{}\n"} {
		cfg, err := Parse(file, []byte(text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		want := Default()
		want.Path = file
		if !reflect.DeepEqual(cfg, want) {
			t.Errorf("%q: got %+v, want defaults", text, cfg)
		}
	}
}

func TestParseEveryKey(t *testing.T) {
	text := `# full config
fail_closed: true
default_guards: false
guard_timeout: 2s
scratchpad:
  root: notes/pads
  default_agent: "plugin:worker"
  required_sections:
    - Summary
    - Risks
  block_cap: 7
  exempt_agents: [Explore, "plugin:reader"]
  session_start:
    coordinator_lines: 0
    ego_lines: 1000
    git_log_entries: 2
    timeout: 1m
  subagent_start:
    tail_lines: 9
`
	cfg, err := Parse(file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Path: file, FailClosed: true, GuardTimeout: Duration(2 * time.Second), Scratchpad: Scratchpad{
		Root: "notes/pads", DefaultAgent: "plugin:worker", RequiredSections: []string{"Summary", "Risks"}, BlockCap: 7,
		ExemptAgents:  []string{"Explore", "plugin:reader"},
		SessionStart:  SessionStart{CoordinatorLines: 0, EgoLines: 1000, GitLogEntries: 2, Timeout: Duration(time.Minute)},
		SubagentStart: SubagentStart{TailLines: 9},
	}}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got\n%+v\nwant\n%+v", cfg, want)
	}
}

func TestParseEachKeyAlone(t *testing.T) {
	tests := []struct {
		text  string
		check func(c Config) bool
	}{
		{"fail_closed: true", func(c Config) bool { return c.FailClosed }},
		{"scratchpad:\n  root: /abs/root", func(c Config) bool { return c.Scratchpad.Root == "/abs/root" }},
		{"scratchpad:\n  default_agent: Explore", func(c Config) bool { return c.Scratchpad.DefaultAgent == "Explore" }},
		{"scratchpad:\n  required_sections: [A]", func(c Config) bool { return reflect.DeepEqual(c.Scratchpad.RequiredSections, []string{"A"}) }},
		{"scratchpad:\n  block_cap: 1", func(c Config) bool { return c.Scratchpad.BlockCap == 1 }},
		{"scratchpad:\n  exempt_agents: [Explore, my-reader]", func(c Config) bool {
			return reflect.DeepEqual(c.Scratchpad.ExemptAgents, []string{"Explore", "my-reader"}) && c.Scratchpad.Exempt("my-reader") && !c.Scratchpad.Exempt("Plan")
		}},
		{"scratchpad:\n  exempt_agents: []", func(c Config) bool { return len(c.Scratchpad.ExemptAgents) == 0 && !c.Scratchpad.Exempt("Explore") }},
		{"scratchpad:\n  block_cap: 100", func(c Config) bool { return c.Scratchpad.BlockCap == 100 }},
		{"scratchpad:\n  session_start:\n    coordinator_lines: 3", func(c Config) bool { return c.Scratchpad.SessionStart.CoordinatorLines == 3 }},
		{"scratchpad:\n  session_start:\n    ego_lines: 0", func(c Config) bool { return c.Scratchpad.SessionStart.EgoLines == 0 }},
		{"scratchpad:\n  session_start:\n    git_log_entries: 0", func(c Config) bool { return c.Scratchpad.SessionStart.GitLogEntries == 0 }},
		{"scratchpad:\n  session_start:\n    timeout: 250ms", func(c Config) bool {
			return time.Duration(c.Scratchpad.SessionStart.Timeout) == 250*time.Millisecond
		}},
		{"scratchpad:\n  subagent_start:\n    tail_lines: 0", func(c Config) bool { return c.Scratchpad.SubagentStart.TailLines == 0 }},
		{"guard_timeout: 1ms", func(c Config) bool { return time.Duration(c.GuardTimeout) == time.Millisecond }},
		{"guard_timeout: 10m", func(c Config) bool { return time.Duration(c.GuardTimeout) == 10*time.Minute }},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			cfg, err := Parse(file, []byte(tt.text+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(cfg) {
				t.Errorf("value not applied: %+v", cfg)
			}
			// Everything else stays at its default.
			d := Default()
			if cfg.Scratchpad.SubagentStart != d.Scratchpad.SubagentStart && !strings.Contains(tt.text, "subagent_start") {
				t.Error("subagent_start changed")
			}
			if cfg.Scratchpad.BlockCap != d.Scratchpad.BlockCap && !strings.Contains(tt.text, "block_cap") {
				t.Error("block_cap changed")
			}
			if !strings.Contains(tt.text, "session_start") && cfg.Scratchpad.SessionStart != d.Scratchpad.SessionStart {
				t.Error("session_start changed")
			}
		})
	}
}

func TestParseSessionStartPartial(t *testing.T) {
	cfg, err := Parse(file, []byte("scratchpad:\n  session_start:\n    ego_lines: 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Default().Scratchpad.SessionStart
	want.EgoLines = 4
	if cfg.Scratchpad.SessionStart != want {
		t.Errorf("session_start = %+v, want %+v", cfg.Scratchpad.SessionStart, want)
	}
}

// wantErrors checks that err is one or more *Error, joined, whose texts are
// exactly want (in order).
func wantErrors(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	var ce *Error
	if !errors.As(err, &ce) {
		t.Errorf("error %v (%T) holds no *config.Error", err, err)
	}
	got := strings.Split(err.Error(), "\n")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseUnknownKeys(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"top level", "fail_closed: true\nbogus: 1\n", `cfg.yaml:2: unknown key "bogus"`},
		{"scratchpad", "scratchpad:\n  root: x\n  bogus: 1\n", `cfg.yaml:3: unknown key "scratchpad.bogus"`},
		{"session_start", "scratchpad:\n  session_start:\n    ego_lines: 1\n    bogus: 1\n",
			`cfg.yaml:4: unknown key "scratchpad.session_start.bogus"`},
		{"subagent_start", "scratchpad:\n  subagent_start:\n    bogus: [1, 2]\n",
			`cfg.yaml:3: unknown key "scratchpad.subagent_start.bogus"`},
		{"misspelt", "scratchpad:\n  block-cap: 3\n", `cfg.yaml:2: unknown key "scratchpad.block-cap" (did you mean "block_cap"?)`},
		{"case", "Fail_Closed: true\n", `cfg.yaml:1: unknown key "Fail_Closed" (did you mean "fail_closed"?)`},
		{"after comments", "# c\n\n# c\nscratchpad:\n  # c\n  bogus: {a: 1}\n", `cfg.yaml:6: unknown key "scratchpad.bogus"`},
		{"the Path key is not settable", "path: x\n", `cfg.yaml:1: unknown key "path"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			wantErrors(t, err, tt.want)
		})
	}
}

func TestParseFlowMappings(t *testing.T) {
	tests := []struct{ text, want string }{
		{"scratchpad: {bogus: 1}\n", `cfg.yaml:1: unknown key "scratchpad.bogus"`},
		{"scratchpad: {root: x, bogus: 1}\n", `cfg.yaml:1: unknown key "scratchpad.bogus"`},
		{"{scratchpad: {session_start: {bogus: 1}}}\n", `cfg.yaml:1: unknown key "scratchpad.session_start.bogus"`},
		{"scratchpad:\n  session_start: {timeout: 5s, bogus: 1}\n", `cfg.yaml:2: unknown key "scratchpad.session_start.bogus"`},
		{"scratchpad: {root: x,\n  bogus: 1}\n", `cfg.yaml:2: unknown key "scratchpad.bogus"`},
		{"scratchpad: {block_cap: x}\n", "cfg.yaml:1: key scratchpad.block_cap: cannot unmarshal !!str `x` into int"},
		{"scratchpad: {root: a, block_cap: many}\n", "cfg.yaml:1: key scratchpad.block_cap: cannot unmarshal !!str `many` into int"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			wantErrors(t, err, tt.want)
		})
	}
}

func TestParseWrongTypes(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"bool", "fail_closed: maybe\n", "cfg.yaml:1: key fail_closed: cannot unmarshal !!str `maybe` into bool"},
		{"int", "scratchpad:\n  block_cap: many\n", "cfg.yaml:2: key scratchpad.block_cap: cannot unmarshal !!str `many` into int"},
		{"nested int", "scratchpad:\n  session_start:\n    ego_lines: [1]\n",
			"cfg.yaml:3: key scratchpad.session_start.ego_lines: cannot unmarshal !!seq into int"},
		{"list as string", "scratchpad:\n  required_sections: Summary\n",
			"cfg.yaml:2: key scratchpad.required_sections: cannot unmarshal !!str `Summary` into []string"},
		{"section as list", "scratchpad: [a]\n", "cfg.yaml:1: key scratchpad: cannot unmarshal !!seq into config.Scratchpad"},
		{"string as map", "scratchpad:\n  root: {a: 1}\n", "cfg.yaml:2: key scratchpad.root: cannot unmarshal !!map into string"},
		{"top level list", "- a\n", "cfg.yaml:1: cannot unmarshal !!seq into config.Config"},
		{"duplicate key", "scratchpad:\n  root: a\n  root: b\n", `cfg.yaml:3: key scratchpad.root: mapping key "root" already defined at line 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			wantErrors(t, err, tt.want)
		})
	}
}

func TestParseBadDuration(t *testing.T) {
	for _, v := range []string{"10", "ten seconds", `""`, "5 s", "[1s]"} {
		t.Run(v, func(t *testing.T) {
			_, err := Parse(file, []byte("scratchpad:\n  session_start:\n    timeout: "+v+"\n"))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.HasPrefix(err.Error(), "cfg.yaml:3: key scratchpad.session_start.timeout: ") ||
				!strings.Contains(err.Error(), "is not a duration (write it like 10s or 1m30s)") {
				t.Errorf("error %q", err)
			}
		})
	}
}

func TestParseValidation(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"block_cap 0", "scratchpad:\n  block_cap: 0\n", "cfg.yaml:2: scratchpad.block_cap: must be from 1 to 100, got 0"},
		{"block_cap 101", "scratchpad:\n  block_cap: 101\n", "cfg.yaml:2: scratchpad.block_cap: must be from 1 to 100, got 101"},
		{"block_cap negative", "scratchpad:\n  block_cap: -1\n", "cfg.yaml:2: scratchpad.block_cap: must be from 1 to 100, got -1"},
		{"coordinator_lines negative", "scratchpad:\n  session_start:\n    coordinator_lines: -1\n",
			"cfg.yaml:3: scratchpad.session_start.coordinator_lines: must be from 0 to 1000, got -1"},
		{"ego_lines negative", "scratchpad:\n  session_start:\n    ego_lines: -5\n",
			"cfg.yaml:3: scratchpad.session_start.ego_lines: must be from 0 to 1000, got -5"},
		{"git_log_entries too many", "scratchpad:\n  session_start:\n    git_log_entries: 1001\n",
			"cfg.yaml:3: scratchpad.session_start.git_log_entries: must be from 0 to 1000, got 1001"},
		{"tail_lines negative", "scratchpad:\n  subagent_start:\n    tail_lines: -1\n",
			"cfg.yaml:3: scratchpad.subagent_start.tail_lines: must be from 0 to 1000, got -1"},
		{"required_sections empty", "scratchpad:\n  required_sections: []\n",
			"cfg.yaml:2: scratchpad.required_sections: must list at least one heading"},
		{"required_sections null", "scratchpad:\n  required_sections:\n",
			"cfg.yaml:2: scratchpad.required_sections: must list at least one heading"},
		{"required_sections empty entry", "scratchpad:\n  required_sections:\n    - A\n    - \"  \"\n",
			"cfg.yaml:2: scratchpad.required_sections: entry 2 is empty"},
		{"root empty", "scratchpad:\n  root: \" \"\n", "cfg.yaml:2: scratchpad.root: must not be empty"},
		{"exempt_agents empty entry", "scratchpad:\n  exempt_agents: [Explore, \"\"]\n",
			"cfg.yaml:2: scratchpad.exempt_agents: entry 2 is empty"},
		{"default_agent path", "scratchpad:\n  default_agent: ../x\n",
			`cfg.yaml:2: scratchpad.default_agent: agent type "../x" contains a path separator`},
		{"default_agent dotdot", "scratchpad:\n  default_agent: ..\n",
			`cfg.yaml:2: scratchpad.default_agent: agent type ".." is not a directory name`},
		{"default_agent empty", "scratchpad:\n  default_agent: \"\"\n",
			`cfg.yaml:2: scratchpad.default_agent: agent type "" is empty`},
		{"timeout 0", "scratchpad:\n  session_start:\n    timeout: 0s\n",
			"cfg.yaml:3: scratchpad.session_start.timeout: must be more than 0 and at most 1m, got 0s"},
		{"timeout negative", "scratchpad:\n  session_start:\n    timeout: -1s\n",
			"cfg.yaml:3: scratchpad.session_start.timeout: must be more than 0 and at most 1m, got -1s"},
		{"timeout 2m", "scratchpad:\n  session_start:\n    timeout: 2m\n",
			"cfg.yaml:3: scratchpad.session_start.timeout: must be more than 0 and at most 1m, got 2m0s"},
		{"guard_timeout 0", "fail_closed: true\nguard_timeout: 0s\n", "cfg.yaml:2: guard_timeout: must be from 1ms to 10m, got 0s"},
		{"guard_timeout under 1ms", "guard_timeout: 999us\n", "cfg.yaml:1: guard_timeout: must be from 1ms to 10m, got 999µs"},
		{"guard_timeout 11m", "guard_timeout: 11m\n", "cfg.yaml:1: guard_timeout: must be from 1ms to 10m, got 11m0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			wantErrors(t, err, tt.want)
		})
	}
}

func TestParseSeveralProblemsInLineOrder(t *testing.T) {
	text := `scratchpad:
  session_start:
    timeout: 2m
    ego_lines: -1
  required_sections: []
  default_agent: ../x
  block_cap: 0
`
	_, err := Parse(file, []byte(text))
	wantErrors(t, err,
		"cfg.yaml:3: scratchpad.session_start.timeout: must be more than 0 and at most 1m, got 2m0s",
		"cfg.yaml:4: scratchpad.session_start.ego_lines: must be from 0 to 1000, got -1",
		"cfg.yaml:5: scratchpad.required_sections: must list at least one heading",
		`cfg.yaml:6: scratchpad.default_agent: agent type "../x" contains a path separator`,
		"cfg.yaml:7: scratchpad.block_cap: must be from 1 to 100, got 0",
	)
}

func TestParseSeveralDecodeProblems(t *testing.T) {
	text := "bogus: 1\nscratchpad:\n  bogus2: 1\n  block_cap: x\n  session_start:\n    timeout: 10\n"
	_, err := Parse(file, []byte(text))
	wantErrors(t, err,
		`cfg.yaml:1: unknown key "bogus"`,
		`cfg.yaml:3: unknown key "scratchpad.bogus2"`,
		"cfg.yaml:4: key scratchpad.block_cap: cannot unmarshal !!str `x` into int",
		`cfg.yaml:6: key scratchpad.session_start.timeout: "10" is not a duration (write it like 10s or 1m30s)`,
	)
}

func TestParseSyntaxError(t *testing.T) {
	tests := []struct{ name, text, prefix string }{
		{"unclosed flow", "fail_closed: false\nscratchpad:\n  root: [\n", "cfg.yaml:3: "},
		{"tab indent", "scratchpad:\n\troot: x\n", "cfg.yaml:2: "},
		{"mapping in value", "fail_closed: false\nscratchpad:\n  root: b: c\n", "cfg.yaml:3: "},
		{"unterminated quote", "scratchpad:\n  root: 'x\n", "cfg.yaml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(file, []byte(tt.text))
			if err == nil || !strings.HasPrefix(err.Error(), tt.prefix) {
				t.Errorf("error %q, want prefix %q", err, tt.prefix)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Line == 0 {
				t.Errorf("error %v has no line", err)
			}
			if strings.Contains(err.Error(), "yaml: ") {
				t.Errorf("error %q keeps the library's prefix", err)
			}
		})
	}
}

func TestParseSyntaxErrorOnFirstLine(t *testing.T) {
	for _, text := range []string{"a: b: c\n", "fail_closed: @\n", "\tfail_closed: true\n"} {
		_, err := Parse(file, []byte(text))
		var ce *Error
		if !errors.As(err, &ce) {
			t.Fatalf("%q: error %v, want *Error", text, err)
		}
		if ce.Line != 1 {
			t.Errorf("Parse(%q) = %q: a YAML syntax error on line 1 must name line 1 "+
				"(yaml.v3 leaves \"line N:\" out of scanner errors on its first line)", text, err)
		}
	}
}

func TestParseOneDocument(t *testing.T) {
	// A leading "---" only opens the first document.
	for _, text := range []string{"---\nfail_closed: true\n", "# c\n---\n# c\nfail_closed: true\n", "--- \nfail_closed: true\n"} {
		if cfg, err := Parse(file, []byte(text)); err != nil || !cfg.FailClosed {
			t.Errorf("Parse(%q) = %+v, %v", text, cfg, err)
		}
	}
	// A second document is an error naming its line, never silently ignored.
	for _, tt := range []struct{ text, prefix string }{
		{"fail_closed: true\n---\nbogus: 2\n", "cfg.yaml:2: a second YAML document starts here"},
		{"fail_closed: true\n---\nscratchpad:\n  block_cap: 0\n", "cfg.yaml:2: a second YAML document starts here"},
		{"---\nfail_closed: true\n--- # two\nfail_closed: false\n", "cfg.yaml:3: a second YAML document starts here"},
	} {
		_, err := Parse(file, []byte(tt.text))
		if err == nil || !strings.HasPrefix(err.Error(), tt.prefix) {
			t.Errorf("Parse(%q) = %v, want %q...", tt.text, err, tt.prefix)
		}
	}
}

func TestParseSecondDocumentAfterEndMarker(t *testing.T) {
	for _, text := range []string{"fail_closed: true\n...\nbogus: 1\n", "fail_closed: true\n---\t\nbogus: 1\n"} {
		if _, err := Parse(file, []byte(text)); err == nil {
			t.Errorf("Parse(%q) succeeds: a second document opened by \"...\" (document end) or by "+
				"\"---\" followed by a tab must be an error, not ignored unchecked", text)
		}
	}
}

func TestErrorText(t *testing.T) {
	if got := (&Error{Path: "p", Line: 3, Msg: "m"}).Error(); got != "p:3: m" {
		t.Errorf("got %q", got)
	}
	if got := (&Error{Path: "p", Msg: "m"}).Error(); got != "p: m" {
		t.Errorf("got %q", got)
	}
}

func TestLocate(t *testing.T) {
	project := filepath.FromSlash("/proj")
	tests := []struct {
		explicit, env string
		path          string
		required      bool
	}{
		{"a.yaml", "b.yaml", "a.yaml", true},
		{"a.yaml", "", "a.yaml", true},
		{"", "b.yaml", "b.yaml", true},
		{"", "", filepath.Join(project, ".claude", "massgen-hook.yaml"), false},
	}
	for _, tt := range tests {
		path, required := Locate(tt.explicit, tt.env, project)
		if path != tt.path || required != tt.required {
			t.Errorf("Locate(%q, %q) = %q, %v; want %q, %v", tt.explicit, tt.env, path, required, tt.path, tt.required)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.yaml")

	cfg, err := Load(missing, false)
	if err != nil || !reflect.DeepEqual(cfg, Default()) {
		t.Errorf("Load(missing, not required) = %+v, %v; want defaults", cfg, err)
	}

	_, err = Load(missing, true)
	var ce *Error
	if !errors.As(err, &ce) || ce.Path != missing || ce.Line != 0 {
		t.Fatalf("Load(missing, required) = %v, want *Error for the path", err)
	}
	if want := missing + ": cannot read config: no such file or directory"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}

	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("scratchpad:\n  block_cap: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, required := range []bool{false, true} {
		cfg, err = Load(good, required)
		if err != nil || cfg.Path != good || cfg.Scratchpad.BlockCap != 5 {
			t.Errorf("Load(good, %v) = %+v, %v", required, cfg, err)
		}
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("\nscratchpad:\n  bogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, required := range []bool{false, true} {
		_, err = Load(bad, required)
		if err == nil || err.Error() != bad+`:3: unknown key "scratchpad.bogus"` {
			t.Errorf("Load(bad, %v) = %v", required, err)
		}
	}

	// A directory where the file should be is an error even when not required.
	_, err = Load(dir, false)
	if !errors.As(err, &ce) || err.Error() != dir+": cannot read config: it is a directory" {
		t.Errorf("Load(directory) = %v", err)
	}

	// A FIFO is refused at once, not waited on; a giant is not read.
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err = Load(fifo, false); err == nil || err.Error() != fifo+": cannot read config: it is a FIFO" {
		t.Errorf("Load(FIFO) = %v", err)
	}
	huge := filepath.Join(dir, "huge.yaml")
	if err := os.WriteFile(huge, []byte("# "+strings.Repeat("x", MaxFileBytes)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = Load(huge, false); err == nil || err.Error() != huge+": cannot read config: it is too large (over 1 MiB)" {
		t.Errorf("Load(huge) = %v", err)
	}
}

func TestDurationYAML(t *testing.T) {
	out, err := yaml.Marshal(struct {
		T Duration `yaml:"t"`
	}{Duration(90 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "t: 1m30s\n" {
		t.Errorf("Marshal = %q", out)
	}
	var back struct {
		T Duration `yaml:"t"`
	}
	if err := yaml.Unmarshal(out, &back); err != nil || time.Duration(back.T) != 90*time.Second {
		t.Errorf("round trip = %v, %v", back.T, err)
	}
}
