package checks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestCurrentBranch(t *testing.T) {
	root := realTempDir(t)
	fakeRepo(t, filepath.Join(root, "main"), "ref: refs/heads/main")
	fakeRepo(t, filepath.Join(root, "slash"), "ref: refs/heads/feature/login")
	fakeRepo(t, filepath.Join(root, "detached"), "9fceb02d0ae598e95dc970b74767f19372d61af8")
	fakeRepo(t, filepath.Join(root, "spaces"), "  ref: refs/heads/dev  \n\n")
	fakeRepo(t, filepath.Join(root, "other-ref"), "ref: refs/remotes/origin/main")
	writeFiles(t, root, "main/deep/er/file.txt", "nohead/.git/config", "plain/x")
	// Worktrees: .git is a file naming the git directory, absolute or
	// relative to the worktree.
	gitdir := filepath.Join(root, "store", "worktrees", "wt")
	writeFiles(t, gitdir, "commondir")
	if err := os.WriteFile(filepath.Join(gitdir, "HEAD"), []byte("ref: refs/heads/wt-branch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"wt-abs/.git":     "gitdir: " + gitdir + "\n",
		"wt-rel/.git":     "gitdir: ../store/worktrees/wt",
		"wt-bad/.git":     "not a gitdir line\n",
		"wt-missing/.git": "gitdir: /nonexistent-massgen-test/gitdir\n",
	} {
		writeFiles(t, root, name)
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, root, "wt-abs/sub/x")
	for _, tc := range []struct{ dir, want string }{
		{"main", "main"},
		{"main/deep/er", "main"}, // found from a subdirectory
		{"main/not/existing", "main"},
		{"slash", "feature/login"},
		{"spaces", "dev"},
		{"detached", ""},
		{"other-ref", ""},
		{"nohead", ""},
		{"wt-abs", "wt-branch"},
		{"wt-abs/sub", "wt-branch"},
		{"wt-rel", "wt-branch"},
		{"wt-bad", ""},
		{"wt-missing", ""},
		{"plain", ""}, // no repository up to /
		{"", ""},
	} {
		if got := currentBranch(filepath.Join(root, tc.dir)); got != tc.want {
			t.Errorf("currentBranch(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

// TestCurrentBranchNested: the nearest repository wins.
func TestCurrentBranchNested(t *testing.T) {
	root := realTempDir(t)
	fakeRepo(t, root, "ref: refs/heads/outer")
	fakeRepo(t, filepath.Join(root, "vendor", "inner"), "ref: refs/heads/inner")
	if got := currentBranch(filepath.Join(root, "vendor", "inner", "pkg")); got != "inner" {
		t.Errorf("nested: %q, want inner", got)
	}
	if got := currentBranch(filepath.Join(root, "vendor")); got != "outer" {
		t.Errorf("outer: %q, want outer", got)
	}
}

func TestCurrentBranchRealRepo(t *testing.T) {
	t.Parallel()
	dir := realTempDir(t)
	realRepo(t, dir, map[string]string{"a.txt": "a\n"})
	if got := currentBranch(dir); got != "main" {
		t.Fatalf("currentBranch = %q, want main", got)
	}
	gitRun(t, dir, "checkout", "-q", "-b", "topic/x")
	if got := currentBranch(dir); got != "topic/x" {
		t.Fatalf("after checkout -b: %q, want topic/x", got)
	}
	gitRun(t, dir, "checkout", "-q", "--detach")
	if got := currentBranch(dir); got != "" {
		t.Fatalf("detached: %q, want \"\"", got)
	}
	// A real worktree.
	gitRun(t, dir, "checkout", "-q", "main")
	wt := filepath.Join(realTempDir(t), "wt")
	gitRun(t, dir, "worktree", "add", "-q", "-b", "wt-branch", wt)
	if got := currentBranch(wt); got != "wt-branch" {
		t.Fatalf("worktree: %q, want wt-branch", got)
	}
}

func TestGitStatus(t *testing.T) {
	ctx := context.Background()
	dir := realTempDir(t)
	realRepo(t, dir, map[string]string{"a.txt": "a\n", "b.txt": "b\n", ".gitignore": "*.log\n"})

	lines, err := gitStatus(ctx, dir)
	if err != nil || lines != nil {
		t.Fatalf("clean: %q, %v; want nil, nil", lines, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, "new.txt", "newdir/deep.txt", "debug.log")
	for _, tc := range []struct {
		extra []string
		want  []string
	}{
		{nil, []string{" M a.txt", " D b.txt", "?? new.txt", "?? newdir/"}},
		{[]string{"--untracked-files=no"}, []string{" M a.txt", " D b.txt"}},
		{[]string{"--untracked-files=all"}, []string{" M a.txt", " D b.txt", "?? new.txt", "?? newdir/deep.txt"}},
		{[]string{"--untracked-files=all", "--ignored"}, []string{" M a.txt", " D b.txt", "?? new.txt", "?? newdir/deep.txt", "!! debug.log"}},
	} {
		got, err := gitStatus(ctx, dir, tc.extra...)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("gitStatus(%q) = %q, %v; want %q", tc.extra, got, err, tc.want)
		}
	}
	// From a subdirectory, the whole repository's status (paths from its root).
	got, err := gitStatus(ctx, filepath.Join(dir, "newdir"), "--untracked-files=no")
	if err != nil || !reflect.DeepEqual(got, []string{" M a.txt", " D b.txt"}) {
		t.Errorf("from a subdirectory: %q, %v", got, err)
	}
	// A bad flag: git's complaint.
	if _, err := gitStatus(ctx, dir, "--no-such-flag"); err == nil {
		t.Error("bad flag: no error")
	}
}

func TestGitStatusNotRepository(t *testing.T) {
	dir := realTempDir(t)
	lines, err := gitStatus(context.Background(), dir)
	if !errors.Is(err, errNotRepo) || lines != nil {
		t.Fatalf("gitStatus(no repo) = %q, %v; want errNotRepo", lines, err)
	}
	// A .git that is not a repository: git is asked and fails.
	writeFiles(t, dir, ".git")
	if _, err := gitStatus(context.Background(), dir); err == nil || errors.Is(err, errNotRepo) {
		t.Fatalf("gitStatus(broken .git) = %v; want git's own failure", err)
	}
}

func TestGitStatusContextEnded(t *testing.T) {
	dir := realTempDir(t)
	realRepo(t, dir, map[string]string{"a.txt": "a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := gitStatus(ctx, dir); err == nil {
		t.Error("ended context: no error")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("ended context: took %s", d)
	}
}
