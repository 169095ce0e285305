package hookenv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

func TestCurrentBranch(t *testing.T) {
	root := checktest.RealTempDir(t)
	checktest.FakeRepo(t, filepath.Join(root, "main"), "ref: refs/heads/main")
	checktest.FakeRepo(t, filepath.Join(root, "slash"), "ref: refs/heads/feature/login")
	checktest.FakeRepo(t, filepath.Join(root, "detached"), "9fceb02d0ae598e95dc970b74767f19372d61af8")
	checktest.FakeRepo(t, filepath.Join(root, "spaces"), "  ref: refs/heads/dev  \n\n")
	checktest.FakeRepo(t, filepath.Join(root, "other-ref"), "ref: refs/remotes/origin/main")
	checktest.WriteFiles(t, root, "main/deep/er/file.txt", "nohead/.git/config", "plain/x")
	// Worktrees: .git is a file naming the git directory, absolute or
	// relative to the worktree.
	gitdir := filepath.Join(root, "store", "worktrees", "wt")
	checktest.WriteFiles(t, gitdir, "commondir")
	if err := os.WriteFile(filepath.Join(gitdir, "HEAD"), []byte("ref: refs/heads/wt-branch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"wt-abs/.git":     "gitdir: " + gitdir + "\n",
		"wt-rel/.git":     "gitdir: ../store/worktrees/wt",
		"wt-bad/.git":     "not a gitdir line\n",
		"wt-missing/.git": "gitdir: /nonexistent-massgen-test/gitdir\n",
	} {
		checktest.WriteFiles(t, root, name)
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checktest.WriteFiles(t, root, "wt-abs/sub/x")
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
		if got := CurrentBranch(filepath.Join(root, tc.dir)); got != tc.want {
			t.Errorf("currentBranch(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

// TestCurrentBranchNested: the nearest repository wins.
func TestCurrentBranchNested(t *testing.T) {
	root := checktest.RealTempDir(t)
	checktest.FakeRepo(t, root, "ref: refs/heads/outer")
	checktest.FakeRepo(t, filepath.Join(root, "vendor", "inner"), "ref: refs/heads/inner")
	if got := CurrentBranch(filepath.Join(root, "vendor", "inner", "pkg")); got != "inner" {
		t.Errorf("nested: %q, want inner", got)
	}
	if got := CurrentBranch(filepath.Join(root, "vendor")); got != "outer" {
		t.Errorf("outer: %q, want outer", got)
	}
}

func TestCurrentBranchRealRepo(t *testing.T) {
	t.Parallel()
	dir := checktest.RealTempDir(t)
	checktest.RealRepo(t, dir, map[string]string{"a.txt": "a\n"})
	if got := CurrentBranch(dir); got != "main" {
		t.Fatalf("currentBranch = %q, want main", got)
	}
	checktest.GitRun(t, dir, "checkout", "-q", "-b", "topic/x")
	if got := CurrentBranch(dir); got != "topic/x" {
		t.Fatalf("after checkout -b: %q, want topic/x", got)
	}
	checktest.GitRun(t, dir, "checkout", "-q", "--detach")
	if got := CurrentBranch(dir); got != "" {
		t.Fatalf("detached: %q, want \"\"", got)
	}
	// A real worktree.
	checktest.GitRun(t, dir, "checkout", "-q", "main")
	wt := filepath.Join(checktest.RealTempDir(t), "wt")
	checktest.GitRun(t, dir, "worktree", "add", "-q", "-b", "wt-branch", wt)
	if got := CurrentBranch(wt); got != "wt-branch" {
		t.Fatalf("worktree: %q, want wt-branch", got)
	}
}

func TestGitStatus(t *testing.T) {
	ctx := context.Background()
	dir := checktest.RealTempDir(t)
	checktest.RealRepo(t, dir, map[string]string{"a.txt": "a\n", "b.txt": "b\n", ".gitignore": "*.log\n"})

	lines, err := GitStatus(ctx, dir)
	if err != nil || lines != nil {
		t.Fatalf("clean: %q, %v; want nil, nil", lines, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	checktest.WriteFiles(t, dir, "new.txt", "newdir/deep.txt", "debug.log")
	for _, tc := range []struct {
		extra []string
		want  []string
	}{
		{nil, []string{" M a.txt", " D b.txt", "?? new.txt", "?? newdir/"}},
		{[]string{"--untracked-files=no"}, []string{" M a.txt", " D b.txt"}},
		{[]string{"--untracked-files=all"}, []string{" M a.txt", " D b.txt", "?? new.txt", "?? newdir/deep.txt"}},
		{[]string{"--untracked-files=all", "--ignored"}, []string{" M a.txt", " D b.txt", "?? new.txt", "?? newdir/deep.txt", "!! debug.log"}},
	} {
		got, err := GitStatus(ctx, dir, tc.extra...)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("gitStatus(%q) = %q, %v; want %q", tc.extra, got, err, tc.want)
		}
	}
	// From a subdirectory, the whole repository's status (paths from its root).
	got, err := GitStatus(ctx, filepath.Join(dir, "newdir"), "--untracked-files=no")
	if err != nil || !reflect.DeepEqual(got, []string{" M a.txt", " D b.txt"}) {
		t.Errorf("from a subdirectory: %q, %v", got, err)
	}
	// A bad flag: git's complaint.
	if _, err := GitStatus(ctx, dir, "--no-such-flag"); err == nil {
		t.Error("bad flag: no error")
	}
}

func TestGitStatusNotRepository(t *testing.T) {
	dir := checktest.RealTempDir(t)
	lines, err := GitStatus(context.Background(), dir)
	if !errors.Is(err, ErrNotRepo) || lines != nil {
		t.Fatalf("gitStatus(no repo) = %q, %v; want errNotRepo", lines, err)
	}
	// A .git that is not a repository: git is asked and fails.
	checktest.WriteFiles(t, dir, ".git")
	if _, err := GitStatus(context.Background(), dir); err == nil || errors.Is(err, ErrNotRepo) {
		t.Fatalf("gitStatus(broken .git) = %v; want git's own failure", err)
	}
}

func TestGitStatusContextEnded(t *testing.T) {
	dir := checktest.RealTempDir(t)
	checktest.RealRepo(t, dir, map[string]string{"a.txt": "a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := GitStatus(ctx, dir); err == nil {
		t.Error("ended context: no error")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("ended context: took %s", d)
	}
}

// Lines is git's answer in full or an error: output past linesMax would
// read as fewer changes than there are (a red team's 25,000 ignored files
// let git clean -fdx through), and git finding no repository is
// ErrNotRepo, as when no .git is found at all.
func TestGitRepoLinesInFullOrError(t *testing.T) {
	dir := checktest.RealTempDir(t)
	checktest.RealRepo(t, dir, map[string]string{"a.txt": "a\n"})
	checktest.WriteFiles(t, dir, "u1.txt", "u2.txt", "u3.txt")
	r := GitRepo{Dir: dir}
	if got, err := r.Status(t.Context(), nil); err != nil || len(got) != 3 {
		t.Fatalf("status: %q, %v", got, err)
	}
	defer func(n int) { linesMax = n }(linesMax)
	linesMax = 20
	_, err := r.Status(t.Context(), nil)
	var ge *GitErr
	if !errors.As(err, &ge) || NoRepo(err) || !strings.Contains(err.Error(), "too much to check") {
		t.Errorf("status past linesMax: %v, want git's answer refused as too much", err)
	}
	linesMax = 4 << 20
	empty := checktest.RealTempDir(t)
	if err := os.Mkdir(filepath.Join(empty, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := (GitRepo{Dir: empty}).Status(t.Context(), nil); !NoRepo(err) {
		t.Errorf("an empty .git folder, which git finds no repository in: %v, want ErrNotRepo", err)
	}
}

// A folder that is a git directory itself is its own repository's, as git
// finds it (a bare clone whose core.worktree names a work tree).
func TestNearestDotGitFindsAGitDirectory(t *testing.T) {
	dir := checktest.RealTempDir(t)
	checktest.RealRepo(t, filepath.Join(dir, "work"), map[string]string{"a.txt": "a\n"})
	bare := filepath.Join(dir, "g")
	checktest.GitRun(t, dir, "clone", "-q", "--bare", filepath.Join(dir, "work"), bare)
	for _, tc := range []struct{ dir, want string }{
		{bare, bare},
		{filepath.Join(bare, "refs", "heads"), bare},
		{filepath.Join(dir, "work"), filepath.Join(dir, "work", ".git")},
		{dir, ""},
	} {
		if got := NearestDotGit(tc.dir); got != tc.want {
			t.Errorf("NearestDotGit(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}
