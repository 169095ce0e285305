package aftertool

import (
	"context"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/protocol"
)

// The values of secret-named environment variables are masked wherever
// they appear in a tool's output, whatever its shape; other variables,
// short values and paths are left alone, and an output without a secret
// gets no opinion.
func TestRedactSecrets(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	environ := []string{
		"OPENAI_API_KEY=sk-proj-abc123def456", "GITHUB_TOKEN=ghp_0123456789abcdefXYZ", "DB_PASSWORD=p<a>ss&word!",
		"HOME=/home/me", "EDITOR=vim-with-a-long-name", "SHORT_TOKEN=abc", "SSH_AUTH_SOCK=/tmp/ssh-x/agent.1",
		"NPM_TOKEN=ghp_0123456789abcdefXYZ-more",
	}
	tests := []struct{ output, want string }{
		{`{"stdout":"key=sk-proj-abc123def456\n","stderr":""}`, `{"stdout":"key=[redacted $OPENAI_API_KEY]\n","stderr":""}`},
		{`"token ghp_0123456789abcdefXYZ-more and ghp_0123456789abcdefXYZ"`, `"token [redacted $NPM_TOKEN] and [redacted $GITHUB_TOKEN]"`},
		{`{"content":[{"type":"text","text":"pw: p\u003ca\u003ess\u0026word!"}]}`, `{"content":[{"type":"text","text":"pw: [redacted $DB_PASSWORD]"}]}`},
		{`{"stdout":"pw: p<a>ss&word!"}`, `{"stdout":"pw: [redacted $DB_PASSWORD]"}`},
		// Near misses.
		{`{"stdout":"vim-with-a-long-name /home/me abc /tmp/ssh-x/agent.1"}`, ""},
		{`{"stdout":"sk-proj-abc123"}`, ""},
	}
	r, err := NewRedactSecrets(checktest.OptionsNode(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		call := g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUse, Tool: "Bash", Input: `{"command":"x"}`, Output: tt.output})
		call.Environ = environ
		v, err := r.Check(context.Background(), call)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(v.UpdatedToolOutput); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.output, got, tt.want)
		}
	}
}

// A match that starts inside an escape cannot be masked in place: the
// whole output is replaced, never passed on as it was or broken.
func TestRedactSecretsInsideAnEscape(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	r, _ := NewRedactSecrets(checktest.OptionsNode(t, ""))
	call := g.MakeCall(t, checktest.CallSpec{Hook: protocol.PostToolUse, Tool: "Bash", Input: `{"command":"x"}`, Output: `{"stdout":"a\nabcdefgh1"}`})
	call.Environ = []string{"API_KEY=nabcdefgh1"}
	v, _ := r.Check(context.Background(), call)
	if got := string(v.UpdatedToolOutput); got != `"[redacted: the output held the value of a secret environment variable]"` {
		t.Errorf("got %s", got)
	}
	if !strings.Contains(v.SystemMessage, "the output of Bash held the value of a secret environment variable that could not be masked in place") {
		t.Errorf("the user is not told: %q", v.SystemMessage)
	}
}

func TestRedactSecretsOptions(t *testing.T) {
	if _, err := NewRedactSecrets(checktest.OptionsNode(t, "min_length: 2")); err == nil || !strings.Contains(err.Error(), "min_length: at least 4, got 2") {
		t.Errorf("min_length: 2: got %v", err)
	}
	if _, err := NewRedactSecrets(checktest.OptionsNode(t, "min_len: 5")); err == nil {
		t.Error("a mistyped option was accepted")
	}
}
