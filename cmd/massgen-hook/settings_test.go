package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/cli"
)

// TestSettingsExample keeps settings.example.json true: valid JSON in Claude
// Code's shape, every event wired to the subcommand for it, commands anchored
// on a quoted "$CLAUDE_PROJECT_DIR" (relative paths break after the session
// cds), and timeouts in seconds, not milliseconds.
func TestSettingsExample(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "settings.example.json"))
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string  `json:"type"`
				Command string  `json:"command"`
				Timeout float64 `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&settings); err != nil {
		t.Fatalf("settings.example.json: %v", err)
	}
	want := map[string]string{}
	for event, sub := range subcommands {
		want[event] = sub
	}
	for event, groups := range settings.Hooks {
		sub, ok := want[event]
		if !ok {
			t.Errorf("event %q is not one massgen-hook handles", event)
			continue
		}
		delete(want, event)
		for _, g := range groups {
			for _, h := range g.Hooks {
				prefix := `"$CLAUDE_PROJECT_DIR"/`
				if h.Type != "command" || !strings.HasPrefix(h.Command, prefix) {
					t.Errorf("%s: want a command hook starting with %s, got %+v", event, prefix, h)
				}
				fields := strings.Fields(h.Command)
				if got := fields[len(fields)-1]; got != sub {
					t.Errorf("%s: command runs %q, want subcommand %q", event, got, sub)
				}
				if h.Timeout < 1 || h.Timeout > 60 {
					t.Errorf("%s: timeout %v is not a sensible number of seconds", event, h.Timeout)
				}
				var stdout, stderr bytes.Buffer
				if code := cli.Main([]string{sub, "--help"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
					t.Errorf("%s: massgen-hook %s --help exited %d: %s", event, sub, code, stderr.String())
				}
			}
		}
	}
	for event := range want {
		t.Errorf("settings.example.json does not wire %s", event)
	}
}
