package wiring

import (
	"strings"
	"testing"
)

type testHandler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

var testSpec = Spec{Shape: Grouped, Ours: func(cmd string) (string, bool) {
	rest, ok := strings.CutPrefix(cmd, "ours ")
	return rest, ok
}}

func entries(timeout int) []Entry {
	return []Entry{
		{Event: "PreToolUse", Key: "pre", Matcher: "*", Handler: testHandler{"command", "ours pre", timeout}},
		{Event: "Stop", Key: "stop", Handler: testHandler{"command", "ours stop", timeout}},
	}
}

const othersHooks = `{
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [ { "type": "command", "command": "other-tool guard" } ]
            }
        ]
    },
    "env": {"A": "1"}
}
`

func parse(t *testing.T, data string) *File {
	t.Helper()
	f, err := Parse("settings.json", []byte(data), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestInstallKeepsOthersAndUninstallRestores(t *testing.T) {
	for _, orig := range []string{othersHooks, "", "{}\n", `{"a":1,"hooks":{"Stop":[]}}`, "{\r\n\t\"a\": 1\r\n}\r\n"} {
		f := parse(t, orig)
		out, err := Install(f, testSpec, entries(10))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"command": "ours pre"`) && !strings.Contains(string(out), `"command":"ours pre"`) {
			t.Fatalf("not installed:\n%s", out)
		}
		again, err := Install(parse(t, string(out)), testSpec, entries(10))
		if err != nil || string(again) != string(out) {
			t.Fatalf("second install changed the file (%v):\n%s\n---\n%s", err, out, again)
		}
		back, empty := Uninstall(parse(t, string(out)), testSpec)
		if orig != "" && orig != `{"a":1,"hooks":{"Stop":[]}}` && string(back) != orig {
			t.Errorf("uninstall did not restore:\n%q\n---\n%q\n---installed:\n%s", orig, back, out)
		}
		if empty != (orig == "" || orig == "{}\n") {
			t.Errorf("%q: empty = %v", orig, empty)
		}
	}
}

func TestInstallUpdatesInPlace(t *testing.T) {
	out, _ := Install(parse(t, othersHooks), testSpec, entries(10))
	upd, err := Install(parse(t, string(out)), testSpec, entries(20))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(upd), "ours pre") != 1 || !strings.Contains(string(upd), `"timeout": 20`) || strings.Contains(string(upd), `"timeout": 10`) {
		t.Fatalf("update:\n%s", upd)
	}
	t.Logf("\n%s", upd)
}

// A key given twice counts once, the last time, as Claude Code's JSON.parse
// reads it: init edits the copy that is used.
func TestInstallUsesTheLastDuplicateKey(t *testing.T) {
	orig := `{"hooks": {"Stop": []}, "hooks": {"Notification": []}}`
	out, err := Install(parse(t, orig), testSpec, entries(10))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), `{"hooks": {"Stop": []}, "hooks": {"Notification": [],`) {
		t.Fatalf("edited the first copy:\n%s", out)
	}
}

// Ours lists exactly our handlers, with their line, in file order; the
// command field is the spec's (Copilot's "bash").
func TestOurs(t *testing.T) {
	f := parse(t, othersHooks)
	out, err := Install(f, testSpec, entries(60))
	if err != nil {
		t.Fatal(err)
	}
	got := Ours(&File{Path: f.Path, Data: out}, testSpec)
	if len(got) != 2 || got[0].Event != "PreToolUse" || got[0].Key != "pre" || got[1].Event != "Stop" || got[1].Command != "ours stop" {
		t.Fatalf("Ours = %+v", got)
	}
	// The line is the handler object's, where its { opens.
	cmd := strings.Index(string(out), `"ours stop"`)
	if line := LineOf(out, strings.LastIndex(string(out[:cmd]), "{")); got[1].Line != line {
		t.Errorf("Stop handler on line %d, want %d", got[1].Line, line)
	}
	if got := Ours(f, testSpec); len(got) != 0 {
		t.Errorf("Ours(others' hooks only) = %+v", got)
	}
	flat := Spec{Shape: Flat, CommandField: "bash", Ours: testSpec.Ours}
	if got := Ours(&File{Data: []byte(`{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"ours stop"},{"bash":"mine"}]}}`)}, flat); len(got) != 1 || got[0].Key != "stop" {
		t.Errorf("Ours(flat, bash) = %+v", got)
	}
	if got := Ours(&File{Data: []byte("  ")}, testSpec); got != nil {
		t.Errorf("Ours(blank) = %+v", got)
	}
}
