//go:build realcli

package realcli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// codexOwnSandbox: Codex run in its own sandbox (workspace-write, its
// default for a trusted project), which bubblewrap cannot run inside. The
// pre-tool-use hook still rewrites each shell command, and the wrapper,
// finding itself inside Codex's sandbox, runs the command there alone:
// commands work, a write outside the workspace is refused by Codex's
// sandbox, the user's execpolicy rule still denies git push, and the
// session is told that Codex's own sandbox holds its commands.
func codexOwnSandbox(t *testing.T, s *Session) {
	needBwrap(s)
	s.Args = append(s.Args, "--sandbox", "workspace-write")
	s.CLI.ShellDeny(s, "git push")
	writeHome(s, "keep.txt", "KEEP-ME-6024\n")
	pushRemote(s)
	s.Wire()
	wantSandboxWired(s)

	m := s.Model
	m.On("make", All(Main, First), cxShell("call_make", "echo MADE-8812 > made.txt && cat made.txt"))
	// A script, which the guards cannot read into: only a sandbox holds it.
	m.On("script", All(Main, After("call_make")), cxPatch("call_script", cxAddFile("tools/h.sh", "rm -f ~/keep.txt\n")))
	m.On("home", All(Main, After("call_script")), cxShell("call_home", "sh tools/h.sh"))
	m.On("push", All(Main, After("call_home")), cxShell("call_push", "git push origin main"))
	m.On("done", All(Main, After("call_push")), Say("done"))
	run := s.Run("make a file, tidy home, push")

	done := s.Turn("done")
	if res := mustResult(done, "call_make"); codexFailed.MatchString(res.Text) || !strings.Contains(res.Text, "MADE-8812") {
		s.Errorf("a command in Codex's sandbox did not run: %q", clip(res.Text, 600))
	}
	if got, _ := s.ReadFile("made.txt"); got != "MADE-8812\n" {
		s.Errorf("made.txt is %q", got)
	}
	for _, r := range done.Messages {
		for _, b := range r.Blocks {
			if b.Type == "tool_result" && strings.Contains(b.Text, "bwrap") {
				s.Errorf("bubblewrap's own error reached the model (%s): %q", b.ID, clip(b.Text, 400))
			}
		}
	}
	res := mustResult(done, "call_home")
	if data, err := os.ReadFile(filepath.Join(s.Home, "keep.txt")); err != nil || string(data) != "KEEP-ME-6024\n" || !strings.Contains(res.Text, "Read-only file system") {
		s.Errorf("Codex's sandbox did not refuse the write in HOME: keep.txt %q (%v); the model got %q", data, err, clip(res.Text, 400))
	}
	if res := mustResult(done, "call_push"); !strings.Contains(res.Text, "policy forbids commands starting with `git push`") {
		s.Errorf("the user's execpolicy rule did not deny git push: %q", clip(res.Text, 600))
	}
	// codex exec shows a hook's systemMessage nowhere: what session start
	// tells this session is what the hook says given its transcript,
	// which Codex wrote with the sandbox it ran in.
	const note = "massgen-hook: shell commands are CLI sandbox: Codex's own sandbox (workspace-write) holds shell commands"
	if said := codexSessionStart(s); !strings.Contains(said, note) {
		s.Errorf("session start, given this session's transcript, does not say Codex's own sandbox holds its commands (%q): %s", note, clip(said, 800))
	}
	if out, _ := s.Hook("doctor", "--no-timing"); !strings.Contains(out, "protection: Codex: CLI sandbox") {
		s.Errorf("doctor does not say Codex's own sandbox holds its commands:\n%s", out)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// codexSessionStart is what the project's session-start hook answers for
// the session the run recorded (its transcript under Codex's home).
func codexSessionStart(s *Session) string {
	s.t.Helper()
	rollouts, _ := filepath.Glob(filepath.Join(s.Home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(rollouts) != 1 {
		s.Fatalf("want one transcript of the run, found %v", rollouts)
	}
	event, _ := json.Marshal(map[string]any{"session_id": "realcli-own-sandbox", "transcript_path": rollouts[0], "cwd": s.Project,
		"hook_event_name": "SessionStart", "model": codexModel, "permission_mode": "bypassPermissions", "source": "startup"})
	cmd := exec.Command(s.Path(".claude/hooks/massgen-hook"), "session-start", "--dialect", "codex")
	cmd.Dir, cmd.Env, cmd.Stdin = s.Project, s.baseEnv(), bytes.NewReader(event)
	out, err := cmd.Output()
	if err != nil {
		s.Errorf("session-start: %v", err)
	}
	return string(out)
}
