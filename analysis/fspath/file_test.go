package fspath

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// hardlink links name to target under root, skipping where the system
// cannot.
func hardlink(t testing.TB, root, target, name string) {
	t.Helper()
	if err := os.Link(filepath.Join(root, target), filepath.Join(root, name)); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
}

func TestSameFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("identities are read on Unix only")
	}
	root := tree(t, []string{".env", "other", "copy"}, map[string]string{"sym": ".env"})
	hardlink(t, root, ".env", "x")
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{".env", ".env", true},
		{"x", ".env", true},   // a hard link
		{"sym", ".env", true}, // a symlink is followed
		{"sym", "x", true},
		{"copy", ".env", false},
		{"other", ".env", false},
		{"missing", ".env", false},
		{"missing", "missing", false},
	} {
		if got := SameFile(filepath.Join(root, tc.a), filepath.Join(root, tc.b)); got != tc.want {
			t.Errorf("SameFile(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestPathFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("identities are read on Unix only")
	}
	root := tree(t, []string{".env", "alone", "dir/"}, map[string]string{"sym": "x"})
	hardlink(t, root, ".env", "x")
	env, _ := Stat(filepath.Join(root, ".env"))
	for _, tc := range []struct {
		p      string
		follow bool
		exists bool
		shares bool // a regular file with another name
		same   bool // is .env
	}{
		{"x", true, true, true, true},
		{".env", true, true, true, true},
		{"sym", true, true, true, true},    // followed to x
		{"sym", false, true, false, false}, // the link itself
		{"alone", true, true, false, false},
		{"dir", true, true, false, false},
		{"missing", true, false, false, false},
	} {
		var p Path
		if tc.follow {
			p = Resolve(tc.p, root)
		} else {
			p = ResolveNoFollow(tc.p, root)
		}
		f, ok := p.File()
		if ok != tc.exists || f.SharesData() != tc.shares || ok && f.Same(env) != tc.same {
			t.Errorf("%s (follow %v): File ok %v, SharesData %v, Same(.env) %v; want %v %v %v",
				tc.p, tc.follow, ok, f.SharesData(), ok && f.Same(env), tc.exists, tc.shares, tc.same)
		}
	}
}

func TestSearchFind(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("identities are read on Unix only")
	}
	root := tree(t, []string{"src/a.go", "deep/er/still/.env", "skip/.env.local", "notes.txt"}, map[string]string{"linkdir": "deep"})
	hardlink(t, root, "deep/er/still/.env", "src/harmless")
	hardlink(t, root, "skip/.env.local", "notes2")
	secret, _ := Stat(filepath.Join(root, "src/harmless"))
	local, _ := Stat(filepath.Join(root, "notes2"))
	plain, _ := Stat(filepath.Join(root, "notes.txt"))
	envNames := func(rel string) bool { return strings.HasPrefix(filepath.Base(rel), ".env") }

	for _, tc := range []struct {
		name     string
		s        Search
		f        File
		want     string
		complete bool
	}{
		{"found deep", Search{Root: root, Budget: 100, Want: envNames}, secret, "deep/er/still/.env", true},
		{"the name itself is also a name of it", Search{Root: root, Budget: 100}, plain, "notes.txt", true},
		{"want filters names", Search{Root: root, Budget: 100, Want: func(string) bool { return false }}, secret, "", true},
		{"enter prunes folders", Search{Root: root, Budget: 100, Want: envNames, Enter: func(rel string) bool { return rel != "skip" }}, local, "", true},
		{"not pruned", Search{Root: root, Budget: 100, Want: envNames}, local, "skip/.env.local", true},
		{"budget runs out", Search{Root: root, Budget: 5, Want: envNames}, secret, "", false},
		{"another device holds no link", Search{Root: "/proc", Budget: 1}, secret, "", true},
		{"missing root", Search{Root: filepath.Join(root, "nothing"), Budget: 100}, secret, "", true},
	} {
		if tc.s.Root == "/proc" {
			if _, err := os.Stat("/proc/self"); err != nil {
				continue
			}
		}
		got, complete := tc.s.Find(tc.f)
		if got != tc.want || complete != tc.complete {
			t.Errorf("%s: Find = %q, %v; want %q, %v", tc.name, got, complete, tc.want, tc.complete)
		}
	}
}

// TestSearchWalk: every entry that is not a folder, shallowest first, in
// the folders Enter accepts, links to folders not followed; a spent budget
// or time, or a visit that says stop, ends the walk.
func TestSearchWalk(t *testing.T) {
	root := tree(t, []string{"a.go", "src/b.go", "src/deep/.env", "skip/c.go"}, map[string]string{"linkdir": "src"})
	walk := func(s Search) (string, bool) {
		var got []string
		complete := s.Walk(func(rel string, _ fs.DirEntry) bool {
			got = append(got, rel)
			return rel != "stop"
		})
		return strings.Join(got, " "), complete
	}
	expired := 0
	for _, tc := range []struct {
		name     string
		s        Search
		want     string
		complete bool
	}{
		{"all", Search{Root: root, Budget: 100}, "a.go linkdir skip/c.go src/b.go src/deep/.env", true},
		{"enter prunes", Search{Root: root, Budget: 100, Enter: func(rel string) bool { return rel != "skip" }}, "a.go linkdir src/b.go src/deep/.env", true},
		{"budget runs out", Search{Root: root, Budget: 6}, "a.go linkdir skip/c.go", false},
		{"time runs out", Search{Root: root, Budget: 100, Expired: func() bool { expired++; return expired > 2 }}, "a.go linkdir skip/c.go", false},
		{"missing root", Search{Root: filepath.Join(root, "nothing"), Budget: 100}, "", true},
	} {
		got, complete := walk(tc.s)
		if got != tc.want || complete != tc.complete {
			t.Errorf("%s: Walk = %q, %v; want %q, %v", tc.name, got, complete, tc.want, tc.complete)
		}
	}
}

// BenchmarkSearchFind: the hard-link hunt over a project of 2,000 files
// in 100 folders, where no protected name exists (the whole tree is read).
func BenchmarkSearchFind(b *testing.B) {
	var files []string
	for d := range 100 {
		for f := range 20 {
			files = append(files, fmt.Sprintf("pkg%d/file%d.go", d, f))
		}
	}
	root := tree(b, files, nil)
	hardlink(b, root, "pkg0/file0.go", "link")
	f, _ := Stat(filepath.Join(root, "link"))
	s := Search{Root: root, Budget: 20000, Want: func(rel string) bool { return strings.HasSuffix(rel, ".env") }}
	for b.Loop() {
		if _, complete := s.Find(f); !complete {
			b.Fatal("incomplete")
		}
	}
}
