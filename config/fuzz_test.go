package config

import (
	"errors"
	"reflect"
	"testing"

	"github.com/massgen/massgen-hook/internal/fixtures"

	"github.com/massgen/massgen-hook/internal/match"
)

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"fail_closed: true\n",
		"scratchpad:\n  root: x\n  bogus: 1\n",
		"scratchpad:\n  session_start:\n    timeout: 2m\n    ego_lines: -1\n",
		"scratchpad: {block_cap: x}\n",
		"a: b: c\n",
		"- a\n",
		"x: &a [*a, *a]\n",
		"scratchpad:\n  required_sections: [a, '', b]\n",
	} {
		f.Add([]byte(seed))
	}
	for _, yaml := range fixtures.Files(f, ".yaml") {
		f.Add(yaml)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(file, data)
		again, againErr := Parse(file, data)
		if (err == nil) != (againErr == nil) || err != nil && err.Error() != againErr.Error() {
			t.Fatalf("Parse is not deterministic: %v, then %v", err, againErr)
		}
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) holds no *config.Error", err, err)
			}
			if !reflect.DeepEqual(cfg, Config{}) {
				t.Fatalf("a config returned with an error: %+v", cfg)
			}
			return
		}
		if cfg.Path != file {
			t.Fatalf("Path = %q", cfg.Path)
		}
		if s := cfg.Scratchpad; s.BlockCap < 1 || s.BlockCap > 100 || len(s.RequiredSections) == 0 || s.SessionStart.Timeout <= 0 {
			t.Fatalf("an invalid config passed validation: %+v", cfg)
		}
		if !reflect.DeepEqual(cfg.Scratchpad, again.Scratchpad) || !reflect.DeepEqual(cfg.Record, again.Record) || len(cfg.Agents) != len(again.Agents) {
			t.Fatalf("Parse is not deterministic:\n%+v\n%+v", cfg, again)
		}
		// Every rule that passed validation is complete: a known type, a
		// handler or shell line, a timeout within bounds, a matcher that
		// compiles to itself, and a place in the file.
		scopes := []*Hooks{&cfg.Hooks}
		for i := range cfg.Agents {
			if cfg.Agents[i].ID == "" {
				t.Fatalf("agents[%d] has no id", i)
			}
			scopes = append(scopes, &cfg.Agents[i].Hooks, &cfg.Agents[i].Backend.Hooks)
		}
		for _, scope := range scopes {
			for _, event := range hookEvents {
				for _, h := range scope.For(event).Hooks {
					if h.Type != TypeCommand && h.Type != TypeBuiltin {
						t.Fatalf("%s rule %s: type %q", event, h.Where(), h.Type)
					}
					if h.Handler == "" && h.Shell == "" {
						t.Fatalf("%s rule %s: no handler and no shell", event, h.Where())
					}
					if h.Timeout <= 0 || h.Timeout > MaxHookTimeout {
						t.Fatalf("%s rule %s: timeout %v", event, h.Where(), h.Timeout)
					}
					if m, err := match.Compile(h.Matcher.String()); err != nil || m.String() != h.Matcher.String() {
						t.Fatalf("%s rule %s: matcher %q does not compile again: %v", event, h.Where(), h.Matcher.String(), err)
					}
					if h.File != file || h.Line < 1 {
						t.Fatalf("%s rule at %s:%d", event, h.File, h.Line)
					}
				}
			}
		}
	})
}
