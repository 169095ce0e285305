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
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	s := newSetting(filepath.Join(t.TempDir(), "setting"))
	if err := s.build(); err != nil {
		t.Fatal(err)
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
}

func TestSettingRefusesAForeignFolder(t *testing.T) {
	root := t.TempDir()
	precious := filepath.Join(root, "thesis.tex")
	if err := os.WriteFile(precious, []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := newSetting(root).build()
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
