//go:build realcli

package realcli

import (
	"testing"
)

// copilotGrepPaths: grep takes a list of paths; one naming the project's
// .env beside an ordinary folder is a read of it: denied, and no line of
// it reaches the model.
func copilotGrepPaths(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile("src/app.txt", "no secret here\n")
	s.Wire()
	m := s.Model
	m.On("grep", All(Main, First), cpGrep("call_grep", "API_KEY", s.Path("src"), s.Path(".env")))
	m.On("done", All(Main, After("call_grep")), Say("I may not search it."))
	s.Run("find the API key")

	wantDenied(s, s.Turn("done"), "call_grep", "protected path", ".env")
	noSecret(s)
	s.wantAudit("PreToolUse", "Grep", "deny")
}
