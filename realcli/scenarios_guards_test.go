//go:build realcli

package realcli

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The default guards and the audit trail, on every CLI.

var guardsScenarios = []Scenario{
	{Name: "default-guards/read-env", Project: quoted, Run: guardReadEnv},
	{Name: "default-guards/write-env", Project: quoted, Run: guardWriteEnv},
	{Name: "default-guards/dangerous-bash", Run: guardDangerousBash},
	{Name: "default-guards/unjudged-in-time", Run: guardUnjudged},
	{Name: "default-guards/apply-patch-add", Project: quoted, Run: guardPatchAdd},
	{Name: "default-guards/apply-patch-protected", Project: quoted, Run: guardPatchProtected},
	{Name: "default-guards/grep-env", Project: quoted, Run: guardGrepEnv},
	{Name: "default-guards/search-project", Run: guardSearchProject},
	{Name: "default-guards/config-typo", Run: guardConfigTypo},
	{Name: "plugin/first-use", Project: quoted, Run: pluginFirstUse},
	{Name: "audit/silent-pass", Run: auditSilentPass},
}

const envSecret = "API_KEY=realcli-secret-4711\n"

// noSecret fails when the .env secret reached the model in any request.
func noSecret(s *Session) {
	s.t.Helper()
	for _, r := range s.Model.Requests() {
		if r.Contains("realcli-secret") {
			s.Errorf("the secret reached the model (request %d, step %q)", r.N, r.Step)
			return
		}
	}
}

// secretsKept fails when one of the files (each written with envSecret)
// changed, or the secret reached the model in any request.
func secretsKept(s *Session, files ...string) {
	s.t.Helper()
	filesKept(s, files...)
	noSecret(s)
}

// filesKept fails when one of the files (each written with envSecret)
// changed.
func filesKept(s *Session, files ...string) {
	s.t.Helper()
	for _, name := range files {
		if got, _ := s.ReadFile(name); got != envSecret {
			s.Errorf("%s changed: %q", name, got)
		}
	}
}

// refusedEnv fails unless call id was refused. A CLI whose file tools
// refuse .env before its hooks run (Gemini CLI: "Path not in workspace")
// may refuse it itself, so who refused it is recorded, not asserted;
// elsewhere it is massgen-hook's guard, naming the protected path.
func refusedEnv(s *Session, next *Request, id, what string) {
	s.t.Helper()
	if !s.CLI.RefusesEnvItself {
		wantDenied(s, next, id, "protected path", ".env")
		return
	}
	res, ok := next.ToolResult(id)
	switch {
	case !ok || !res.IsError:
		s.Errorf("%s was not refused: %+v", what, res)
	case strings.Contains(res.Text, "protected path"):
		s.Observe("%s: refused by massgen-hook", what)
	default:
		why, _, _ := strings.Cut(res.Text, ":")
		s.Observe("%s: refused by %s itself (%q)", what, s.CLI.Name, why)
	}
}

// guardReadEnv: the model asks the shell to `cat .env`, then, where the
// CLI has a file-reading tool, reads .env and .env.local with it. The
// default guards deny each (the CLI may refuse .env itself first), the
// guard's reason is the result the model reads, and nothing of either
// file reaches the model in any request.
func guardReadEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile(".env.local", envSecret)
	s.Wire()
	m := s.Model
	m.On("cat", All(Main, First), s.CLI.Shell("call_cat", "cat .env"))
	last := "call_cat"
	if s.CLI.Read != nil {
		m.On("read", All(Main, After("call_cat")), s.CLI.Read("call_read", s.Path(".env")))
		m.On("read-local", All(Main, After("call_read")), s.CLI.Read("call_readlocal", s.Path(".env.local")))
		last = "call_readlocal"
	}
	m.On("done", All(Main, After(last)), Say("I may not read them."))
	run := s.Run("show me the environment files")

	done := s.Turn("done")
	wantDenied(s, done, "call_cat", "protected path", ".env")
	if s.CLI.Read != nil {
		refusedEnv(s, done, "call_read", "reading .env")
		wantDenied(s, done, "call_readlocal", "protected path", ".env")
		s.wantAudit("PreToolUse", "Read", "deny")
	}
	secretsKept(s, ".env", ".env.local")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// guardWriteEnv: the CLI's tool that changes a file, on .env and on
// .env.local: each is refused (the CLI may refuse .env itself first), the
// guard's reason reaches the model, and both files keep their content.
func guardWriteEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile(".env.local", envSecret)
	s.Wire()
	old, new := strings.TrimSpace(envSecret), "API_KEY=overwritten"
	env, tool := s.CLI.Overwrite(s, "call_write", ".env", old, new)
	local, _ := s.CLI.Overwrite(s, "call_writelocal", ".env.local", old, new)
	m := s.Model
	m.On("write", All(Main, First), env)
	m.On("write-local", All(Main, After("call_write")), local)
	m.On("done", All(Main, After("call_writelocal")), Say("I may not write them."))
	run := s.Run("reset the environment files")

	done := s.Turn("done")
	refusedEnv(s, done, "call_write", "changing .env")
	wantDenied(s, done, "call_writelocal", "protected path", ".env")
	// An edit or a patch names the line it changes: the model wrote the
	// secret itself, and the CLI may echo its call back (Codex does).
	if input, _ := json.Marshal(env.Calls); strings.Contains(string(input), "realcli-secret") {
		filesKept(s, ".env", ".env.local")
	} else {
		secretsKept(s, ".env", ".env.local")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", tool, "deny")
}

// patching readies the CLI for apply_patch, which it offers its model as
// a freeform tool whose input is the raw patch text.
func patching(s *Session) {
	if s.CLI.PatchReady != nil {
		s.CLI.PatchReady(s)
	}
}

// guardPatchAdd: an apply_patch adding docs/notes.md, an ordinary file, is
// let through and the file written, and nothing is denied.
func guardPatchAdd(t *testing.T, s *Session) {
	patching(s)
	s.Wire()
	m := s.Model
	m.On("patch", All(Main, First), s.CLI.Patch("call_add",
		"*** Begin Patch\n*** Add File: docs/notes.md\n+NOTES-5150: first note\n*** End Patch\n"))
	m.On("done", All(Main, After("call_add")), Say("added"))
	run := s.Run("add a notes file")

	notDenied(s, s.Turn("done"), "call_add", "the patch adding docs/notes.md was denied")
	if got, ok := s.ReadFile("docs/notes.md"); !ok || got != "NOTES-5150: first note\n" {
		s.Errorf("docs/notes.md is %q (exists %v), want the patch's line", got, ok)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	for _, rec := range s.Audit() {
		if rec["decision"] == "deny" {
			s.Errorf("the audit trail has a deny: %v", rec)
		}
	}
	s.also("default-guards/apply-patch-add", run)
}

// guardPatchProtected: apply_patch updating .env, or massgen-hook's own
// config (turning the default guards off), or adding a file beside an
// update of .env, is denied whole; no file changes.
func guardPatchProtected(t *testing.T, s *Session) {
	patching(s)
	s.WriteFile(".env", envSecret)
	s.Wire()
	config, _ := s.ReadFile(".claude/massgen-hook.yaml")
	// The line as init wrote it, so the patch would apply if let through.
	guardsLine := ""
	for _, l := range strings.Split(config, "\n") {
		if strings.HasPrefix(l, "default_guards: true") {
			guardsLine = l
		}
	}
	if guardsLine == "" {
		s.Fatalf("the starter config has no default_guards line:\n%s", config)
	}
	m := s.Model
	m.On("env", All(Main, First), s.CLI.Patch("call_env",
		"*** Begin Patch\n*** Update File: .env\n@@\n-API_KEY=realcli-secret-4711\n+API_KEY=overwritten\n*** End Patch\n"))
	m.On("config", All(Main, After("call_env")), s.CLI.Patch("call_config",
		"*** Begin Patch\n*** Update File: "+s.Path(".claude/massgen-hook.yaml")+"\n@@\n-"+guardsLine+"\n+default_guards: false\n*** End Patch\n"))
	m.On("mixed", All(Main, After("call_config")), s.CLI.Patch("call_mixed",
		"*** Begin Patch\n*** Add File: docs/ok.md\n+fine\n*** Update File: .env\n@@\n-API_KEY=realcli-secret-4711\n+API_KEY=mixed\n*** End Patch\n"))
	m.On("done", All(Main, After("call_mixed")), Say("I may not change them."))
	run := s.Run("turn the guards off and reset the key")

	next := s.Turn("done")
	wantDenied(s, next, "call_env", "protected path", ".env")
	wantDenied(s, next, "call_config", "massgen-hook.yaml")
	wantDenied(s, next, "call_mixed", ".env")
	if got, _ := s.ReadFile(".env"); got != envSecret {
		s.Errorf(".env changed: %q", got)
	}
	if got, _ := s.ReadFile(".claude/massgen-hook.yaml"); got != config {
		s.Errorf("massgen-hook's config changed:\n%s", got)
	}
	if _, ok := s.ReadFile("docs/ok.md"); ok {
		s.Errorf("the denied patch's other file, docs/ok.md, was written")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "apply_patch", "deny")
	s.also("default-guards/apply-patch-protected", run)
}

// guardDangerousBash: `rm -rf ../outside`, a folder beside the project,
// is denied as a recursive delete, the reason is the result the model
// reads next, and the folder is still there: the command never ran.
func guardDangerousBash(t *testing.T, s *Session) {
	outside := filepath.Join(s.Root, "outside")
	canary := filepath.Join(outside, "keep.txt")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		s.Fatalf("%v", err)
	}
	if err := os.WriteFile(canary, []byte("still here\n"), 0o644); err != nil {
		s.Fatalf("%v", err)
	}
	s.Wire()
	m := s.Model
	m.On("rm", All(Main, First), s.CLI.Shell("call_rm", "rm -rf ../outside"))
	m.On("done", All(Main, After("call_rm")), Say("I may not delete it."))
	run := s.Run("clean up the folder next to the project")

	wantDenied(s, s.Turn("done"), "call_rm", "recursive-delete")
	if _, err := os.Stat(canary); err != nil {
		s.Errorf("the denied rm -rf ran: %v", err)
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// guardUnjudged: a shell command the guards have not judged within
// guard_timeout is blocked by the hook's exit 2 while the judgement still
// runs, so the CLI's own timeout (which lets the call go ahead) is never
// reached. guard_timeout is 1ms here, and a 64 KiB command takes the
// guards tens of milliseconds: the command, which would leave ran.txt,
// must not run, and the model is told why.
func guardUnjudged(t *testing.T, s *Session) {
	s.Wire()
	s.WriteFile(".claude/massgen-hook.yaml", "guard_timeout: 1ms\n")
	m := s.Model
	m.On("long", All(Main, First), s.CLI.Shell("call_long", strings.Repeat("echo a; ", 8192)+"touch ran.txt"))
	m.On("done", All(Main, After("call_long")), Say("It was refused."))
	run := s.Run("run the long script")

	wantDenied(s, s.Turn("done"), "call_long", "guard_timeout")
	if _, err := os.Stat(s.Path("ran.txt")); err == nil {
		s.Errorf("the unjudged command ran")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}

// guardGrepEnv: the CLI's search tool in .env is a read of it: refused
// (the CLI may refuse .env itself first), and no line of it reaches the
// model.
func guardGrepEnv(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	m := s.Model
	m.On("grep", All(Main, First), s.CLI.Search("call_grep", "API_KEY", s.Path(".env")))
	m.On("done", All(Main, After("call_grep")), Say("I may not search it."))
	run := s.Run("find the API key")

	refusedEnv(s, s.Turn("done"), "call_grep", "searching .env")
	secretsKept(s, ".env")
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	if !s.CLI.RefusesEnvItself {
		s.wantAudit("PreToolUse", "Grep", "deny")
	}
}

// guardSearchProject: the CLI's search tool over the whole project, which
// holds .env, must not show the model .env's content, whether the call is
// denied or its result leaves the file out. The pattern is the key's name,
// not its value: the model's own call comes back in every later request,
// and must not count as a leak.
func guardSearchProject(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.WriteFile("src/app.txt", "API_KEY is read from the environment\n")
	s.Wire()
	m := s.Model
	m.On("grep", All(Main, First), s.CLI.Search("call_grepall", "API_KEY", s.Project))
	m.On("done", All(Main, After("call_grepall")), Say("searched"))
	run := s.Run("search the project for the key")

	res, _ := s.Turn("done").ToolResult("call_grepall")
	s.Observe("the search of the project answered: %q", clip(res.Text, 200))
	secretsKept(s, ".env")
	s.also("default-guards/search-project", run)
}

// configTypo is a config with the mistakes that used to switch every guard
// off: a mistyped key, and a mistyped attempt to switch the guards off.
const configTypo = "fail_closd: true\ndefault_guard: false\n"

// guardConfigTypo: the project's config has mistakes. The hooks set it
// aside and run the built-in defaults, so `cat .env` is still denied, and
// the user is shown the error (file:line, the key meant), where the CLI
// shows a hook's message to the user at all.
func guardConfigTypo(t *testing.T, s *Session) {
	s.WriteFile(".env", envSecret)
	s.Wire()
	s.WriteFile(".claude/massgen-hook.yaml", configTypo)
	m := s.Model
	m.On("cat", All(Main, First), s.CLI.Shell("call_cat", "cat .env"))
	m.On("cat-again", All(Main, After("call_cat")), s.CLI.Shell("call_cat2", "cat .env"))
	m.On("done", All(Main, After("call_cat2")), Say("I may not read it."))
	run := s.Run("show me the environment file")

	wantDenied(s, s.Turn("cat-again"), "call_cat", "protected path")
	wantDenied(s, s.Turn("done"), "call_cat2", "protected path")
	noSecret(s)
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
	if s.CLI.Shown == nil {
		s.Cannot("the guards stayed on; but %s shows a hook's message to the user (systemMessage) nowhere in a headless run, so the config error cannot be shown", s.CLI.Name)
	}
	const told = `unknown key "fail_closd" (did you mean "fail_closed"?)`
	if shown := strings.Count(s.CLI.Shown(run), `unknown key "fail_closd"`); shown == 0 {
		s.Errorf("the config error was not shown to the user (nothing naming %s)", told)
	} else {
		s.Observe("the config warning was shown %d time(s) in the session", shown)
	}
}

// pluginFirstUse: the CLI loads the repository as a plugin, with nothing
// wired by init and an empty Go build cache. The plugin's first hook call
// installs its pinned release (a file:// folder holding the freshly built
// binary, listed in the plugin's hooks/SHA256SUMS) instead of building, so
// it answers within the hook's timeout, and the plugin's guards deny `cat
// .env`. A build would not do: MASSGEN_HOOK_BUILD_WAIT=0 makes the launcher
// give up on one at once.
func pluginFirstUse(t *testing.T, s *Session) {
	plugin := filepath.Join(s.Root, "plugin")
	release := filepath.Join(s.Root, "release")
	for _, rel := range []string{".claude-plugin/plugin.json", "hooks/hooks.json", "hooks/massgen-hook.sh", "hooks/first-use.sh", "scripts/fetch-release.sh"} {
		copyFile(t, filepath.Join("..", rel), filepath.Join(plugin, rel))
	}
	name := fmt.Sprintf("massgen-hook_v0.0.0-realcli_%s_%s", runtime.GOOS, runtime.GOARCH)
	copyFile(t, hookBinary, filepath.Join(release, name))
	data, err := os.ReadFile(hookBinary)
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(data))
	sums := sum + "  " + name + "\n"
	for _, p := range []string{filepath.Join(release, "SHA256SUMS"), filepath.Join(plugin, "hooks", "SHA256SUMS")} {
		if err := os.WriteFile(p, []byte(sums), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.Env = append(s.Env, "MASSGEN_HOOK_RELEASE_URL=file://"+release, "GOCACHE="+filepath.Join(s.Root, "empty-gocache"), "MASSGEN_HOOK_BUILD_WAIT=0")
	s.Args = append(s.Args, s.CLI.PluginArgs(plugin)...)

	s.WriteFile(".env", envSecret)
	m := s.Model
	m.On("cat", All(Main, First), s.CLI.Shell("call_cat", "cat .env"))
	m.On("done", All(Main, After("call_cat")), Say("I may not read it."))
	run := s.Run("show me the environment file")

	next := s.Turn("done")
	wantDenied(s, next, "call_cat", "protected path", ".env")
	if next.Contains("realcli-secret") {
		s.Errorf("the secret reached the model")
	}
	if installed, err := os.ReadFile(filepath.Join(plugin, "bin", "massgen-hook")); err != nil || fmt.Sprintf("%x", sha256.Sum256(installed)) != sum {
		s.Errorf("the plugin's bin/massgen-hook is not the pinned release (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(s.Project, ".claude", "settings.json")); err == nil {
		s.Errorf("the project has a settings.json: the hooks ran from somewhere other than the plugin")
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	s.wantAudit("PreToolUse", "Bash", "deny")
}

// copyFile copies src to dst with src's mode, making dst's folder.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

// auditSilentPass: a call the default guards let through without a word
// still leaves one short line in the audit trail, for its PreToolUse and
// its PostToolUse: the call's input, "decision":"none", no rule records;
// and the call's id, where the CLI gives hooks one.
func auditSilentPass(t *testing.T, s *Session) {
	s.Wire()
	m := s.Model
	m.On("call", All(Main, First), s.CLI.Shell("call_quiet", "echo silent-pass-4471"))
	m.On("done", All(Main, After("call_quiet")), Say("ran"))
	run := s.Run("run the command")

	res, _ := s.Turn("done").ToolResult("call_quiet")
	if s.deniedResult(res) || res.IsError || !strings.Contains(res.Text, "silent-pass-4471") {
		s.Errorf("the command did not run: %+v", res)
	}
	for _, event := range []string{"PreToolUse", "PostToolUse"} {
		var found map[string]any
		for _, rec := range s.Audit() {
			if rec["event"] == event && strings.Contains(fmt.Sprint(rec["tool_input"]), "silent-pass-4471") {
				found = rec
			}
		}
		switch {
		case found == nil:
			s.Errorf("no audit record of the %s of the silent pass", event)
		case found["decision"] != "none" || found["hooks"] != nil:
			s.Errorf("the %s record of a silent pass is not the short line (decision none, the input, no rule records): %v", event, found)
		case s.CLI.NoCallID == "" && found["tool_use_id"] != "call_quiet":
			s.Errorf("the %s record of a silent pass lacks the call's id call_quiet: %v", event, found)
		}
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
	if s.CLI.NoCallID != "" {
		s.Observe("%s", s.CLI.NoCallID)
	}
}
