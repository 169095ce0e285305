package config

import (
	"strings"
	"testing"
)

func TestConfineOffAndWritable(t *testing.T) {
	for _, tc := range []struct {
		text     string
		off      bool
		writable []string
	}{
		{"", false, nil},
		{"confine: off\n", true, nil},
		{"confine: on\n", false, nil},
		{"confine:\n  enabled: false\n", true, nil},
		{"confine:\n  writable: [~/.m2, /opt/cache]\n", false, []string{"~/.m2", "/opt/cache"}},
	} {
		cfg, err := Parse("c.yaml", []byte(tc.text))
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if cfg.Confine.Off != tc.off || strings.Join(cfg.Confine.Writable, ",") != strings.Join(tc.writable, ",") {
			t.Errorf("%q: got %+v", tc.text, cfg.Confine)
		}
	}
}

func TestConfineErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"confine: maybe\n", "c.yaml:1: key confine: use on, off"},
		{"fail_closed: false\nconfine:\n  writable: [rel/dir]\n", "c.yaml:3: key confine.writable: writable: \"rel/dir\" must be absolute"},
		{"confine:\n  writable: [~/]\n", "would make the whole of it writable"},
		{"confine:\n  writeable: [/x]\n", `c.yaml:2: unknown key "confine.writeable" (did you mean "writable"?)`},
	} {
		_, err := Parse("c.yaml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.text, err, tc.want)
		}
	}
}
