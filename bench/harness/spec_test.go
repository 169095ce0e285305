package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	dir := t.TempDir()
	event := filepath.Join(dir, "event.json")
	if err := os.WriteFile(event, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := os.Executable() // the test binary: an executable file that surely exists
	if err != nil {
		t.Fatal(err)
	}
	good := `{"cases": [{"name": "x", "max_ratio": 1.3,
		"reference": {"argv": [` + q(prog) + `], "stdin": ` + q(event) + `},
		"subject": {"argv": [` + q(prog) + `, "-h"], "env": {"K": "V"}, "dir": ` + q(dir) + `}}]}`

	spec, err := parseSpec([]byte(good))
	if err != nil {
		t.Fatalf("good spec rejected: %v", err)
	}
	c := spec.Cases[0]
	if c.Target != "≤ 1.3×" {
		t.Errorf("derived target = %q", c.Target)
	}
	if c.Subject.path != prog || c.Reference.path != prog {
		t.Errorf("paths not resolved: %q, %q", c.Reference.path, c.Subject.path)
	}
	if env := c.Subject.environ; len(env) == 0 || env[len(env)-1] != "K=V" {
		t.Errorf("env not added last: %q", env)
	}

	tests := []struct {
		name, spec, want string
	}{
		{"not JSON", `{`, "EOF"},
		{"unknown field", `{"cases": [], "extra": 1}`, "unknown field"},
		{"trailing data", `{"cases": []} {}`, "trailing data"},
		{"no cases", `{"cases": []}`, "no cases"},
		{"no name", `{"cases": [{"reference": {"argv": ["true"]}, "subject": {"argv": ["true"]}}]}`, "missing name"},
		{"duplicate name", `{"cases": [
			{"name": "a", "reference": {"argv": [` + q(prog) + `]}, "subject": {"argv": [` + q(prog) + `]}},
			{"name": "a", "reference": {"argv": [` + q(prog) + `]}, "subject": {"argv": [` + q(prog) + `]}}]}`, "duplicate"},
		{"negative ratio", `{"cases": [{"name": "a", "max_ratio": -1,
			"reference": {"argv": [` + q(prog) + `]}, "subject": {"argv": [` + q(prog) + `]}}]}`, "negative"},
		{"empty argv", `{"cases": [{"name": "a", "reference": {"argv": []}, "subject": {"argv": [` + q(prog) + `]}}]}`, "empty argv"},
		{"missing program", `{"cases": [{"name": "a", "reference": {"argv": [` + q(prog) + `]},
			"subject": {"argv": [` + q(filepath.Join(dir, "nope")) + `]}}]}`, "subject"},
		{"missing stdin", `{"cases": [{"name": "a", "reference": {"argv": [` + q(prog) + `], "stdin": ` + q(filepath.Join(dir, "nope.json")) + `},
			"subject": {"argv": [` + q(prog) + `]}}]}`, "stdin"},
		{"dir is a file", `{"cases": [{"name": "a", "reference": {"argv": [` + q(prog) + `]},
			"subject": {"argv": [` + q(prog) + `], "dir": ` + q(event) + `}}]}`, "not a directory"},
		{"bad env name", `{"cases": [{"name": "a", "reference": {"argv": [` + q(prog) + `]},
			"subject": {"argv": [` + q(prog) + `], "env": {"A=B": "x"}}}]}`, "bad variable name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseSpec([]byte(tt.spec))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestSelectCases(t *testing.T) {
	spec := &Spec{Cases: []Case{{Name: "a"}, {Name: "b"}}}
	if got, err := selectCases(spec, ""); err != nil || len(got) != 2 {
		t.Errorf("all: %v, %v", got, err)
	}
	if got, err := selectCases(spec, "b"); err != nil || len(got) != 1 || got[0].Name != "b" {
		t.Errorf("only b: %v, %v", got, err)
	}
	if _, err := selectCases(spec, "c"); err == nil {
		t.Error("unknown case accepted")
	}
}

// q quotes s as a JSON string.
func q(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
