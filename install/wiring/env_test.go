package wiring

import (
	"strings"
	"testing"
)

func TestSetEnvAndUnsetGiveBackTheBytes(t *testing.T) {
	ours := func(v string) bool { return strings.HasSuffix(v, "/massgen-hook-shell") }
	for _, orig := range []string{
		"",
		"{}\n",
		"{\n  \"hooks\": {}\n}\n",
		"{\n\t\"env\": {\n\t\t\"FOO\": \"1\"\n\t}\n}\n",
		`{"model": "x", "env": {"A": "b"}}`,
	} {
		f := &File{Path: "s.json", Data: []byte(orig), Exists: orig != ""}
		out, err := SetEnv(f, "CLAUDE_CODE_SHELL_PREFIX", "/h/bin/massgen-hook-shell")
		if err != nil {
			t.Fatalf("%q: %v", orig, err)
		}
		if !strings.Contains(string(out), `"CLAUDE_CODE_SHELL_PREFIX"`) {
			t.Errorf("%q: not set: %s", orig, out)
		}
		again, _ := SetEnv(&File{Path: "s.json", Data: out, Exists: true}, "CLAUDE_CODE_SHELL_PREFIX", "/h/bin/massgen-hook-shell")
		if string(again) != string(out) {
			t.Errorf("%q: a second set changed the file:\n%s\n%s", orig, out, again)
		}
		back, empty := UnsetEnv(&File{Path: "s.json", Data: out, Exists: true}, "CLAUDE_CODE_SHELL_PREFIX", ours)
		want := orig
		if orig == "" {
			want = "{}\n"
		}
		if string(back) != want {
			t.Errorf("unset after set:\n got %q\nwant %q", back, want)
		}
		if empty != (strings.TrimSpace(want) == "{}") {
			t.Errorf("%q: empty = %v", orig, empty)
		}
	}
}

func TestUnsetEnvKeepsTheUsersOwnPrefix(t *testing.T) {
	data := `{"env": {"CLAUDE_CODE_SHELL_PREFIX": "/usr/local/bin/my-wrapper"}}`
	out, _ := UnsetEnv(&File{Data: []byte(data), Exists: true}, "CLAUDE_CODE_SHELL_PREFIX", func(v string) bool { return strings.HasSuffix(v, "/massgen-hook-shell") })
	if string(out) != data {
		t.Errorf("the user's prefix was taken out: %s", out)
	}
}

func TestSetEnvRefusesAnEnvThatIsNoObject(t *testing.T) {
	if _, err := SetEnv(&File{Path: "s.json", Data: []byte(`{"env": []}`), Exists: true}, "K", "v"); err == nil {
		t.Error("an env array was edited")
	}
}
