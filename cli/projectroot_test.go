package cli

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindProjectRoot(t *testing.T) {
	base := t.TempDir()
	mk := func(parts ...string) string {
		p := filepath.Join(append([]string{base}, parts...)...)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	home := mk("home")
	mk("home", ".claude")            // user scope: never a project
	mk("home", ".git")               // a dotfiles repository: never a project
	mk("home", "proj", ".claude")    // a project
	mk("home", "proj", "a", "b")     // deep inside it
	mk("home", "repo", ".git")       // a repository without markers
	mk("home", "repo", "pkg", "src") // deep inside it
	mk("home", "mono", ".claude")    // a marker above a repository...
	mk("home", "mono", "sub", ".git")
	mk("home", "mono", "sub", "x")
	mk("home", "codex", ".codex")
	mk("home", "codex", "d")
	mk("home", "copilot", ".github", "hooks")
	mk("home", "copilot", "d")
	mk("home", "gh", ".github", "workflows") // .github alone marks nothing
	mk("home", "gh", "d")
	mk("home", "loose", "d")
	mk("elsewhere", ".git") // outside $HOME the walk goes on up
	mk("elsewhere", "d", "e")
	if err := os.WriteFile(filepath.Join(mk("home", "wt"), ".git"), []byte("gitdir: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mk("home", "wt", "d")
	if err := os.WriteFile(filepath.Join(mk("home", "filemark"), ".claude"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mk("home", "filemark", "d")

	for _, tc := range []struct{ start, want string }{
		{"home/proj/a/b", "home/proj"},
		{"home/proj", "home/proj"},
		{"home/repo/pkg/src", "home/repo"},
		{"home/mono/sub/x", "home/mono/sub"}, // the repository bounds the walk
		{"home/mono", "home/mono"},
		{"home/codex/d", "home/codex"},
		{"home/copilot/d", "home/copilot"},
		{"home/gh/d", "home/gh/d"},
		{"home/loose/d", "home/loose/d"}, // $HOME's .claude and .git do not count
		{"home", "home"},
		{"home/wt/d", "home/wt"},               // a worktree's .git is a file
		{"home/filemark/d", "home/filemark/d"}, // a file named .claude is no marker
		{"elsewhere/d/e", "elsewhere"},
	} {
		got := findProjectRoot(filepath.Join(base, tc.start), home)
		if want := filepath.Join(base, tc.want); got != want {
			t.Errorf("findProjectRoot(%s) = %s, want %s", tc.start, got, want)
		}
	}
}

func TestFindProjectRootStopsBelowTheFilesystemRoot(t *testing.T) {
	if got := findProjectRoot("/", ""); got != "/" {
		t.Errorf("findProjectRoot(/) = %s", got)
	}
}

// A marker in a directory others can write to, or that another user owns,
// is not taken: anyone could have planted it (and its config runs
// commands).
func TestFindProjectRootTrust(t *testing.T) {
	base := t.TempDir()
	shared := filepath.Join(base, "shared")
	start := filepath.Join(shared, "mine", "d")
	for _, p := range []string{filepath.Join(shared, ".claude"), start} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := findProjectRoot(start, ""); got != shared {
		t.Fatalf("findProjectRoot = %s, want %s before the folder is shared", got, shared)
	}
	if err := os.Chmod(shared, 0o1777); err != nil {
		t.Fatal(err)
	}
	if got := findProjectRoot(start, ""); got != start {
		t.Errorf("world-writable: findProjectRoot = %s, want %s", got, start)
	}
	// Started in the shared folder itself, it is its own project.
	if got := findProjectRoot(shared, ""); got != shared {
		t.Errorf("findProjectRoot(shared) = %s", got)
	}
	if err := os.Chmod(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		t.Log("not root: the other-owner case needs chown")
		return
	}
	if err := os.Chown(shared, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	if got := findProjectRoot(start, ""); got != start {
		t.Errorf("owned by another user: findProjectRoot = %s, want %s", got, start)
	}
}
