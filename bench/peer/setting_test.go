package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitOut runs git in dir with the setting's environment and returns its
// output without the last newline.
func gitOut(t *testing.T, s setting, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = s.gitEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimRight(string(out), "\n")
}

// TestSettingIsThePeersPremise pins what docs/peer-agreement.md says the
// setting is: each thing a peer's blocked command would destroy is there.
func TestSettingIsThePeersPremise(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	dir := t.TempDir()
	// The linked worktree at a path of this test's (the peers' /tmp/wt is
	// the peer agreement test's).
	s := newSetting(filepath.Join(dir, "setting"), filepath.Join(dir, "wt"))
	t.Cleanup(func() {
		if err := s.remove(); err != nil {
			t.Error(err)
		}
	})
	if err := s.build(); err != nil {
		t.Fatal(err)
	}
	if s.tmp == newSetting(filepath.Join(dir, "other"), "").tmp {
		t.Errorf("two settings share the $TMPDIR %s", s.tmp)
	}
	if got := gitOut(t, s, s.worktree, "status", "--porcelain"); got != " M README.md\n?? "+marker {
		t.Errorf("worktree status %q, want README.md changed and the marker untracked", got)
	}
	p := s.project
	if got := gitOut(t, s, p, "branch", "--show-current"); got != "main" {
		t.Errorf("branch %q, want main", got)
	}
	if got := gitOut(t, s, p, "rev-list", "--count", "main"); got != "6" {
		t.Errorf("%s commits on main, want 6", got)
	}
	// Porcelain v1: XY path; X is the index, Y the worktree.
	status := map[string]string{}
	for _, line := range strings.Split(gitOut(t, s, p, "status", "--porcelain", "--ignored", "--untracked-files=all"), "\n") {
		status[line[3:]] = line[:2]
	}
	for path, want := range map[string]string{
		"file.txt": "MM", "a.txt": "M ",
		"b.txt": " M", "file1.txt": " M", "file2.txt": " M", "foo": " M", "-f": " M", "old.txt": " M", "src/main.rs": " M",
		"notes.txt": "??", "scratch/idea.md": "??", "repo/": "??",
		"build/app.bin": "!!", "dist/app.js": "!!", "node_modules/left-pad/index.js": "!!", "debug.log": "!!",
	} {
		if status[path] != want {
			t.Errorf("%s: status %q, want %q", path, status[path], want)
		}
	}
	if len(status) != 16 {
		t.Errorf("status has %d entries, want 16: %v", len(status), status)
	}
	if got := gitOut(t, s, p, "stash", "list"); !strings.HasPrefix(got, "stash@{0}: On main: work in progress on the README") || strings.Contains(got, "\n") {
		t.Errorf("stash list %q, want one entry", got)
	}
	if got := gitOut(t, s, p, "branch", "--no-merged", "main", "--format=%(refname:short)"); got != "feature\nfeature-branch" {
		t.Errorf("unmerged branches %q", got)
	}
	if got := gitOut(t, s, p, "branch", "--merged", "main", "--format=%(refname:short)"); got != "main\nmerged-branch" {
		t.Errorf("merged branches %q", got)
	}
	if got := gitOut(t, s, p, "rev-list", "--left-right", "--count", "main...origin/main"); got != "0\t1" {
		t.Errorf("main...origin/main: %q, want origin/main one commit ahead", got)
	}
	if got := gitOut(t, s, s.origin, "log", "-1", "--format=%s", "main"); got != "a teammate's work" {
		t.Errorf("origin's main is at %q", got)
	}
	if _, err := os.Stat(filepath.Join(s.root, "teammate")); !os.IsNotExist(err) {
		t.Errorf("the teammate's clone is left over: %v", err)
	}
	if got := gitOut(t, s, p, "remote", "get-url", "origin"); got != s.origin {
		t.Errorf("origin %q, want %q", got, s.origin)
	}
	inner := filepath.Join(p, "repo")
	if got := gitOut(t, s, inner, "status", "--porcelain"); got != " M README.md" {
		t.Errorf("repo/ status %q", got)
	}
	if got := gitOut(t, s, inner, "branch", "--show-current"); got != "main" {
		t.Errorf("repo/ branch %q", got)
	}
	for _, f := range []string{"projects/site/index.html", "Documents/letter.txt", ".bashrc"} {
		if _, err := os.Stat(filepath.Join(s.home, f)); err != nil {
			t.Errorf("home: %v", err)
		}
	}
	if got := gitOut(t, s, s.plain, "status", "--porcelain"); got != "" {
		t.Errorf("plain project is not clean: %q", got)
	}
	if got := gitOut(t, s, s.plain, "branch", "--show-current"); got != "main" {
		t.Errorf("plain project branch %q", got)
	}

	// A second build starts afresh.
	if err := os.WriteFile(filepath.Join(p, "left-over"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.build(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p, "left-over")); !os.IsNotExist(err) {
		t.Errorf("a file from the last run survived the rebuild: %v", err)
	}
	if got := gitOut(t, s, s.worktree, "status", "--porcelain"); got != " M README.md\n?? "+marker {
		t.Errorf("rebuilt worktree status %q", got)
	}
}

// A linked worktree is replaced only when it is this setting's or a gone
// setting's: another setting that still exists keeps its own.
func TestSettingWorktreeOwnership(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	dir := t.TempDir()
	wt := filepath.Join(dir, "wt")
	first := newSetting(filepath.Join(dir, "first"), wt)
	second := newSetting(filepath.Join(dir, "second"), wt)
	// Each needs only its root's marker and a project to add the worktree
	// to, not the whole setting.
	for _, s := range []setting{first, second} {
		b := &builder{env: s.gitEnv()}
		b.write(s.root, marker, "")
		b.git("", "init", "-q", "-b", "main", s.project)
		b.write(s.project, "README.md", "# demo\n")
		b.commit(s.project, "start")
		if b.err != nil {
			t.Fatal(b.err)
		}
	}
	add := func(s setting) {
		t.Helper()
		b := &builder{env: s.gitEnv()}
		s.buildWorktree(b)
		if b.err != nil {
			t.Fatal(b.err)
		}
	}
	owner := func() string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(wt, marker))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(data))
	}
	add(first)
	add(second)
	if got := owner(); got != first.root {
		t.Errorf("the worktree of a setting that exists went to %s", got)
	}
	add(first)
	if got := owner(); got != first.root {
		t.Errorf("a setting's own worktree, rebuilt, belongs to %s", got)
	}
	if err := os.RemoveAll(first.root); err != nil {
		t.Fatal(err)
	}
	add(second)
	if got := owner(); got != second.root {
		t.Errorf("a gone setting's worktree was kept (owner %s)", got)
	}
	// The $TMPDIR build would make.
	if err := os.MkdirAll(second.tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(second.tmp, marker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := second.remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(wt); !os.IsNotExist(err) {
		t.Errorf("remove left the setting's worktree: %v", err)
	}
	if _, err := os.Lstat(second.tmp); !os.IsNotExist(err) {
		t.Errorf("remove left the setting's $TMPDIR: %v", err)
	}
}

func TestSettingRefusesAForeignFolder(t *testing.T) {
	root := t.TempDir()
	precious := filepath.Join(root, "thesis.tex")
	if err := os.WriteFile(precious, []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := newSetting(root, "").build()
	if err == nil || !strings.Contains(err.Error(), "was not made by bench/peer") {
		t.Errorf("build = %v, want a refusal", err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Errorf("the folder's file is gone: %v", err)
	}
}

func TestUnderTemp(t *testing.T) {
	t.Setenv("TMPDIR", "/var/folders/xy/T")
	for dir, want := range map[string]bool{
		"/tmp":                   true,
		"/tmp/x/y":               true,
		"/var/tmp/p":             true,
		"/var/folders/xy/T/p":    true,
		"/private/tmp/p":         true,
		"/tmpfoo/p":              false,
		"/home/me/repo/bin/peer": false,
	} {
		if got := underTemp(dir); got != want {
			t.Errorf("underTemp(%s) = %v, want %v", dir, got, want)
		}
	}
}

// A link outside the temporary folders that leads into one is inside.
func TestUnderTempFollowsLinks(t *testing.T) {
	dir := workParent(t)
	link := filepath.Join(dir, "link-to-tmp")
	if err := os.Symlink(os.TempDir(), link); err != nil {
		t.Skip("cannot make a symlink:", err)
	}
	if !underTemp(filepath.Join(link, "work")) {
		t.Errorf("%s/work leads into %s but is not seen as temporary", link, os.TempDir())
	}
}
