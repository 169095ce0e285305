package confine

import (
	"strings"
	"testing"
)

func TestStopsNameThePathsTheSandboxRefused(t *testing.T) {
	pl := Plan{
		Writable:  []string{"/p", "/tmp", "/h/.cache/go-build"},
		ReadOnly:  []string{"/p/.claude"},
		MaskFiles: []string{"/p/.env"},
		MaskDirs:  []string{"/p/secrets"},
	}
	output := strings.Join([]string{
		"cat: .env: Permission denied",
		"/bin/bash: line 1: .claude/settings.json: Read-only file system",
		"rm: cannot remove '/h/notes.txt': Read-only file system",
		"PermissionError: [Errno 13] Permission denied: 'secrets/db.key'",
		"open /h/go/bin/tool: read-only file system",
		"touch: cannot touch 'build/x': No such file or directory",   // not a refusal
		"cat: .env: Permission denied",                               // said once
		"mkdir: cannot create directory '/tmp/x': Permission denied", // writable: another cause
	}, "\n")
	got := pl.Stops(output, "/p")
	want := []Stop{{Path: "/p/.env", Masked: true}, {Path: "/p/.claude/settings.json", Guard: true}, {Path: "/h/notes.txt"}, {Path: "/p/secrets/db.key", Masked: true}, {Path: "/h/go/bin/tool"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stop %d: got %+v want %+v", i, got[i], want[i])
		}
	}
	msg := Explain(got, ".claude/massgen-hook.yaml")
	for _, s := range []string{"/p/.env is a protected file", "/p/.claude/settings.json belongs to the hooks' own files", "/h/notes.txt is read-only here", "confine.writable in .claude/massgen-hook.yaml"} {
		if !strings.Contains(msg, s) {
			t.Errorf("the explanation lacks %q:\n%s", s, msg)
		}
	}
	for _, never := range []string{"bwrap", "outside the sandbox", "dangerouslyDisableSandbox", "confine: off"} {
		if strings.Contains(msg, never) {
			t.Errorf("the explanation tells a way around (%q):\n%s", never, msg)
		}
	}
}

func TestExplainOfMaskedAloneDoesNotOfferWidening(t *testing.T) {
	msg := Explain([]Stop{{Path: "/p/.env", Masked: true}}, "c.yaml")
	if strings.Contains(msg, "confine.writable") {
		t.Errorf("a secret is offered to be widened:\n%s", msg)
	}
}
