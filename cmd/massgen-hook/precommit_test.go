package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testPreCommit runs the hooks of .pre-commit-hooks.yaml with the real
// pre-commit tool, as a user's project would (pre-commit try-repo), on a
// project with no scratchpad yet (exit 0), on a scratchpad that breaks the
// protocol (exit 1, the violation shown) and then on one that keeps it
// (exit 0). The system hook runs the release
// binary from PATH; the golang hook, which builds every command of the
// module (a minute on a busy machine), runs when
// MASSGEN_HOOK_TEST_PRECOMMIT_GOLANG=1 (.ci/run sets it).
func (r *release) testPreCommit(t *testing.T) {
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("SKIPPED: pre-commit is not installed, so .pre-commit-hooks.yaml is untested here (apt-get install pre-commit; .ci/run installs it)")
	}
	if _, err := os.Stat(filepath.Join(r.repo, ".git")); err != nil {
		t.Skip("the source is not a git clone: pre-commit try-repo needs one")
	}
	hooks := []string{"massgen-hook-check-system"}
	if os.Getenv("MASSGEN_HOOK_TEST_PRECOMMIT_GOLANG") == "1" {
		hooks = append(hooks, "massgen-hook-check")
	} else {
		t.Log("massgen-hook-check (language golang) not run: set MASSGEN_HOOK_TEST_PRECOMMIT_GOLANG=1")
	}
	binDir := t.TempDir()
	data, err := os.ReadFile(r.binary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(binDir, "massgen-hook"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// pre-commit's golang environment is a GOPATH of its own; the module
	// cache stays this machine's, so the build needs no network.
	modCache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"GOMODCACHE="+strings.TrimSpace(string(modCache)),
		"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PRE_COMMIT_HOME="+filepath.Join(home, "pre-commit"),
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com",
	)
	// The system hook runs the binary on PATH and needs nothing of the
	// repository but .pre-commit-hooks.yaml: it is tried from a repository
	// holding only that file (the same bytes), which pre-commit clones in a
	// fifth of the time it takes to clone this one. The golang hook builds
	// massgen-hook from the repository itself.
	hooksRepo := map[string]string{"massgen-hook-check": r.repo, "massgen-hook-check-system": hooksOnlyRepo(t, r.repo, env)}
	for _, hook := range hooks {
		t.Run(hook, func(t *testing.T) {
			project := t.TempDir()
			git := func(args ...string) {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir, cmd.Env = project, env
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			try := func() (string, int) {
				var out bytes.Buffer
				cmd := exec.Command(preCommit, "try-repo", hooksRepo[hook], hook, "--all-files")
				cmd.Dir, cmd.Env = project, env
				cmd.Stdout, cmd.Stderr = &out, &out
				res := finish(cmd.Run(), &out, &bytes.Buffer{})
				if res.err != nil {
					t.Fatal(res.err)
				}
				return out.String(), res.code
			}
			git("init", "-q")
			writeFile(t, project, "README.md", "a project\n")
			git("add", "-A")
			if out, code := try(); code != 0 || !strings.Contains(out, "Passed") {
				t.Fatalf("no scratchpads yet: exit %d, want 0; output:\n%s", code, out)
			}
			writeFile(t, project, ".claude/scratchpad/tester/2026-11-20.md", "## What I did\n")
			git("add", "-A")
			out, code := try()
			if code != 1 || !strings.Contains(out, "massgen-hook check..") || !strings.Contains(out, "Failed") ||
				!strings.Contains(out, ".claude/scratchpad/tester/2026-11-20.md: missing sections: Cross-agent observations, Unresolved") {
				t.Fatalf("a violating scratchpad: exit %d, want 1 and the violation; output:\n%s", code, out)
			}
			writeFile(t, project, ".claude/scratchpad/tester/2026-11-20.md", "## What I did\n## Cross-agent observations\n## Unresolved\n")
			writeFile(t, project, ".claude/scratchpad/coordinator/2026-11-20.md", "## Plan\n")
			git("add", "-A")
			if out, code := try(); code != 0 || !strings.Contains(out, "Passed") {
				t.Errorf("compliant scratchpads: exit %d, want 0; output:\n%s", code, out)
			}
		})
	}
}

// hooksOnlyRepo is a git repository whose one commit holds repo's
// .pre-commit-hooks.yaml.
func hooksOnlyRepo(t *testing.T, repo string, env []string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(repo, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".pre-commit-hooks.yaml", string(data))
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "hooks"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}
