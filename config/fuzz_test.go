package config

import (
	"errors"
	"reflect"
	"testing"
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
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(file, data)
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
	})
}
