package main

import (
	"os"
	"path/filepath"
	"slices"
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
		{"negative runs", `{"cases": [{"name": "a", "runs": -1,
			"reference": {"argv": [` + q(prog) + `]}, "subject": {"argv": [` + q(prog) + `]}}]}`, "negative runs"},
		{"negative warmup", `{"cases": [{"name": "a", "warmup": -1,
			"reference": {"argv": [` + q(prog) + `]}, "subject": {"argv": [` + q(prog) + `]}}]}`, "negative warmup"},
		{"negative max_rss_mib", `{"cases": [{"name": "a", "max_rss_mib": -1,
			"reference": {"argv": [` + q(prog) + `]}, "subject": {"argv": [` + q(prog) + `]}}]}`, "negative max_rss_mib"},
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

func TestParseSpecCaseOptions(t *testing.T) {
	prog, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := `"reference": {"argv": [` + q(prog) + `]}, "subject": {"argv": [` + q(prog) + `]}`
	spec, err := parseSpec([]byte(`{"cases": [
		{"name": "python", "max_ratio": 0.05, ` + cmd + `},
		{"name": "big", "runs": 20, "warmup": 0, "max_rss_mib": 150, "labels": {"files": "100000"}, ` + cmd + `},
		{"name": "texts", "max_ratio": 0.05, "target": "≥ 20× faster (seed 004)", "max_rss_mib": 20, "rss_target": "≤ 20 MiB (1 MiB event)", ` + cmd + `},
		{"name": "defaults", ` + cmd + `}]}`))
	if err != nil {
		t.Fatal(err)
	}
	py, big, texts, defaults := spec.Cases[0], spec.Cases[1], spec.Cases[2], spec.Cases[3]
	if py.Target != "≥ 20× faster" || !py.speedUp() {
		t.Errorf("speed-up target = %q, speedUp %v", py.Target, py.speedUp())
	}
	if big.runsOr(200) != 20 || big.warmupOr(10) != 0 {
		t.Errorf("own runs/warmup: %d/%d, want 20/0", big.runsOr(200), big.warmupOr(10))
	}
	if defaults.runsOr(200) != 200 || defaults.warmupOr(10) != 10 || defaults.speedUp() || defaults.Target != "" {
		t.Errorf("defaults: runs %d, warmup %d, speedUp %v, target %q", defaults.runsOr(200), defaults.warmupOr(10), defaults.speedUp(), defaults.Target)
	}
	if big.RSSTarget != "≤ 150 MiB" || big.Labels["files"] != "100000" {
		t.Errorf("rss target %q, labels %v", big.RSSTarget, big.Labels)
	}
	if texts.Target != "≥ 20× faster (seed 004)" || texts.RSSTarget != "≤ 20 MiB (1 MiB event)" {
		t.Errorf("given texts replaced: %q, %q", texts.Target, texts.RSSTarget)
	}
	for max, want := range map[float64]string{0.05: "≥ 20× faster", 0.3: "≥ 3.333× faster", 1.3: "≤ 1.3×", 2: "≤ 2×"} {
		if got := defaultTarget(max); got != want {
			t.Errorf("defaultTarget(%g) = %q, want %q", max, got, want)
		}
	}
}

func TestParseSpecBefore(t *testing.T) {
	prog, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := parseSpec([]byte(`{"cases": [{"name": "b", "reference": {"argv": [` + q(prog) + `]},
		"subject": {"argv": [` + q(prog) + `], "before": [{"argv": [` + q(prog) + `, "send"], "env": {"K": "v"}}]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b := spec.Cases[0].Subject.Before
	if len(b) != 1 || b[0].path == "" || !slices.Contains(b[0].environ, "K=v") {
		t.Errorf("before not resolved: %+v", b)
	}
	for name, bad := range map[string]string{
		"missing program": `"before": [{"argv": ["/nonexistent/prog"]}]`,
		"nested before":   `"before": [{"argv": [` + q(prog) + `], "before": [{"argv": [` + q(prog) + `]}]}]`,
		"unknown key":     `"before": [{"argv": [` + q(prog) + `], "stdn": "x"}]`,
	} {
		_, err := parseSpec([]byte(`{"cases": [{"name": "b", "reference": {"argv": [` + q(prog) + `]},
			"subject": {"argv": [` + q(prog) + `], ` + bad + `}}]}`))
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
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
