//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// geminiDenied fails unless the model read call id's result as a refusal
// carrying the guard's reason for .env.
func geminiDenied(s *Session, next *Request, id, what string) {
	s.t.Helper()
	res, ok := next.ToolResult(id)
	if !ok || !res.IsError || !strings.Contains(res.Text, "protected path") || !strings.Contains(res.Text, ".env") {
		s.Errorf("the model did not get the guard's reason as the result of %s: %+v", what, res)
	}
}

// geminiSecretsKept fails when one of the files (each written with
// envSecret) changed, or the secret reached the model in any request.
func geminiSecretsKept(s *Session, files ...string) {
	s.t.Helper()
	for _, name := range files {
		if got, _ := s.ReadFile(name); got != envSecret {
			s.Errorf("%s changed: %q", name, got)
		}
	}
	for _, r := range s.Model.Requests() {
		if r.Contains("realcli-secret") {
			s.Errorf("the secret reached the model in request %d", r.N)
			return
		}
	}
}

// geminiRefused fails unless call id was refused. Gemini CLI refuses .env
// in its file tools itself, before its hooks run ("Path not in
// workspace"), so who refused it is recorded, not asserted.
func geminiRefused(s *Session, next *Request, id, what string) {
	s.t.Helper()
	res, ok := next.ToolResult(id)
	switch {
	case !ok || !res.IsError:
		s.Errorf("%s was not refused: %+v", what, res)
	case strings.Contains(res.Text, "protected path"):
		s.Observe("%s: refused by massgen-hook", what)
	default:
		why, _, _ := strings.Cut(res.Text, ":")
		s.Observe("%s: refused by Gemini CLI itself (%q)", what, why)
	}
}

// geminiReadEnv: `cat .env` through run_shell_command, read_file of .env,
// and read_file of .env.local: all refused, the guard's reason the result
// the model reads for the shell call and .env.local, nothing of either file
// in any request.
func geminiReadEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile(".env.local", envSecret)
	s.Wire()
	m := s.Model
	m.On("cat", All(Main, First), gShell("g_cat", "cat .env"))
	m.On("read", All(Main, After("g_cat")), gRead("g_read", ".env"))
	m.On("read-local", All(Main, After("g_read")), gRead("g_readlocal", ".env.local"))
	m.On("done", All(Main, After("g_readlocal")), Say("I may not read them."))
	run := s.Run("show me the environment files")

	geminiDenied(s, s.Turn("read"), "g_cat", "cat .env")
	geminiRefused(s, s.Turn("read-local"), "g_read", "read_file .env")
	geminiDenied(s, s.Turn("done"), "g_readlocal", "read_file .env.local")
	geminiSecretsKept(s, ".env", ".env.local")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
	s.wantAudit("PreToolUse", "Read", "deny")
}

// geminiWriteEnv: write_file of .env and of .env.local are refused, the
// guard's reason reaches the model for .env.local, and both files keep
// their content.
func geminiWriteEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile(".env.local", envSecret)
	s.Wire()
	m := s.Model
	m.On("write", All(Main, First), gWrite("g_write", ".env", "API_KEY=overwritten\n"))
	m.On("write-local", All(Main, After("g_write")), gWrite("g_writelocal", ".env.local", "API_KEY=overwritten\n"))
	m.On("done", All(Main, After("g_writelocal")), Say("I may not write them."))
	run := s.Run("reset the environment files")

	geminiRefused(s, s.Turn("write-local"), "g_write", "write_file .env")
	geminiDenied(s, s.Turn("done"), "g_writelocal", "write_file .env.local")
	geminiSecretsKept(s, ".env", ".env.local")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Write", "deny")
}

// geminiDirPath: run_shell_command runs in dir_path, so a relative path
// in the command is judged from there. `cat ../.env` from sub/ is the
// project's .env; `echo {} > settings.json` in .gemini/ overwrites Gemini
// CLI's hook wiring, which the guard protects, and which a judge reading
// the path from the project would take for a harmless settings.json there.
func geminiDirPath(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile("sub/readme.txt", "a subfolder\n")
	s.Wire()
	wiring, _ := s.ReadFile(".gemini/settings.json")
	m := s.Model
	m.On("cat", All(Main, First), gShellIn("g_sub", "sub", "cat ../.env"))
	m.On("unwire", All(Main, After("g_sub")), gShellIn("g_unwire", ".gemini", "echo {} > settings.json"))
	m.On("done", All(Main, After("g_unwire")), Say("I may not."))
	run := s.Run("show me the environment file from the subfolder, then reset the settings")

	geminiDenied(s, s.Turn("unwire"), "g_sub", "cat ../.env in sub/")
	if res, _ := s.Turn("done").ToolResult("g_unwire"); !res.IsError || !strings.Contains(res.Text, ".gemini/settings.json") {
		s.Errorf("the model did not get the guard's reason for overwriting settings.json in .gemini/: %+v", res)
	}
	if got, _ := s.ReadFile(".gemini/settings.json"); got != wiring {
		s.Errorf("the command in .gemini/ overwrote Gemini CLI's hook wiring: %q", clip(got, 200))
	}
	if _, ok := s.ReadFile("settings.json"); ok {
		s.Errorf("settings.json appeared in the project: the command did not run in dir_path")
	}
	geminiSecretsKept(s, ".env")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// geminiGrepEnv: grep_search in .env may not show the model the file.
func geminiGrepEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("grep", All(Main, First), gGrep("g_grep", "API_KEY", ".env"))
	m.On("done", All(Main, After("g_grep")), Say("I may not search it."))
	run := s.Run("find the API key")

	geminiRefused(s, s.Turn("done"), "g_grep", "grep_search in .env")
	geminiSecretsKept(s, ".env")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// geminiSearchProject: grep_search of the whole project may not show the
// model .env's content either. Gemini CLI 0.61.0 from npm searches with
// ripgrep only when a system rg is on PATH, which skips hidden files; without
// one it falls back on `git grep --untracked`, which reads every file git
// does not ignore, .env included.
func geminiSearchProject(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("grep", All(Main, First), gGrep("g_grepall", "realcli-secret", "."))
	m.On("done", All(Main, After("g_grepall")), Say("searched"))
	run := s.Run("search the project for the key")

	if strings.Contains(string(run.Stderr), "Falling back to GrepTool") {
		s.Observe("Gemini CLI found no ripgrep and searched with its own grep (git grep --untracked)")
	}
	res, _ := s.Turn("done").ToolResult("g_grepall")
	if strings.Contains(res.Text, "realcli-secret") {
		s.Errorf("grep_search of the project showed the model .env's content: %q", clip(res.Text, 200))
	}
	geminiSecretsKept(s, ".env")
}
