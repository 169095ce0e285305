package fspath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// tree makes a temporary folder (its own links resolved, so paths compare
// as written) with files and links; links maps a link's name to its
// target.
func tree(t testing.TB, files []string, links map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range links {
		target = strings.ReplaceAll(target, "$ROOT", root)
		p := filepath.Join(root, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestResolve pins the walk, name by name, against what the kernel does
// with the same path (see TestResolveMatchesKernel for the kernel's own
// word on the cases it can answer).
func TestResolve(t *testing.T) {
	links := map[string]string{
		"proj/src/e":      "$ROOT/outside/ssl", // absolute, out of the project
		"proj/src/l":      "../lib/sub",        // relative, stays in
		"proj/src/parent": "..",                // a link to its own parent
		"proj/flink":      "src/app/x.txt",     // to a file
		"proj/dangle":     "missing/new.txt",   // to nothing yet
		"proj/up":         "$ROOT/outside/ssl/../passwd",
		"proj/self":       "self",
		"proj/loop1":      "loop2",
		"proj/loop2":      "loop1",
		"proj/via":        "src/e/../ssl/cert.pem", // .. after a link inside a target
	}
	// A chain of 40 links (c2 ... c41) reaches its file (Linux follows 40);
	// one of 41 (from c1) stops at its last link (ELOOP).
	for i := range 41 {
		links[fmt.Sprintf("proj/c%d", i)] = fmt.Sprintf("c%d", i+1)
	}
	links["proj/c41"] = "src/app/x.txt"
	root := tree(t, []string{"proj/src/app/x.txt", "proj/lib/sub/keep.txt", "outside/ssl/cert.pem", "outside/passwd"}, links)
	proj := filepath.Join(root, "proj")
	abs := func(p string) string {
		switch {
		case p == "/" || strings.HasPrefix(p, "/"):
			return p
		case strings.HasPrefix(p, "@"):
			return filepath.Join(root, p[1:])
		}
		return filepath.Join(proj, p)
	}
	cache := &Cache{}
	for _, tc := range []struct {
		p, dir string // dir relative to proj ("" is proj)
		follow bool
		// want: Real, Cleaned, Lexical; relative to proj, or "@" + relative
		// to root, or absolute.
		real, cleaned, lexical string
	}{
		{p: "src/app/x.txt", follow: true, real: "src/app/x.txt", cleaned: "src/app/x.txt", lexical: "src/app/x.txt"},
		// .. after a link: the kernel goes to the target's parent.
		{p: "src/e/../passwd", follow: true, real: "@outside/passwd", cleaned: "src/passwd", lexical: "src/passwd"},
		{p: "src/e/../passwd", real: "@outside/passwd", cleaned: "src/passwd", lexical: "src/passwd"},
		{p: "src/l/../old", real: "lib/old", cleaned: "src/old", lexical: "src/old"},
		{p: "src/e/..", real: "@outside", cleaned: "src", lexical: "src"},
		{p: "src/parent/lib/sub/keep.txt", follow: true, real: "lib/sub/keep.txt", cleaned: "lib/sub/keep.txt", lexical: "src/parent/lib/sub/keep.txt"},
		{p: "via", follow: true, real: "@outside/ssl/cert.pem", cleaned: "@outside/ssl/cert.pem", lexical: "via"},
		{p: "up", follow: true, real: "@outside/passwd", cleaned: "@outside/passwd", lexical: "up"},
		// The last link: followed or not, as the call does.
		{p: "src/e", follow: true, real: "@outside/ssl", cleaned: "@outside/ssl", lexical: "src/e"},
		{p: "src/e", real: "src/e", cleaned: "src/e", lexical: "src/e"},
		{p: "flink", follow: true, real: "src/app/x.txt", cleaned: "src/app/x.txt", lexical: "flink"},
		{p: "flink", real: "flink", cleaned: "flink", lexical: "flink"},
		// A trailing slash or a last . makes the kernel follow it anyway.
		{p: "src/e/", real: "@outside/ssl", cleaned: "@outside/ssl", lexical: "src/e"},
		{p: "src/e/.", real: "@outside/ssl", cleaned: "@outside/ssl", lexical: "src/e"},
		{p: "src/e/cert.pem", real: "@outside/ssl/cert.pem", cleaned: "@outside/ssl/cert.pem", lexical: "src/e/cert.pem"},
		// A dangling link leads to what a write through it would create.
		{p: "dangle", follow: true, real: "missing/new.txt", cleaned: "missing/new.txt", lexical: "dangle"},
		{p: "dangle", real: "dangle", cleaned: "dangle", lexical: "dangle"},
		// Names that do not exist are kept; a .. after one drops it, as a
		// mkdir -p first would make it (the bare call fails: ENOENT).
		{p: "new/file.go", follow: true, real: "new/file.go", cleaned: "new/file.go", lexical: "new/file.go"},
		{p: "nothere/../x", follow: true, real: "x", cleaned: "x", lexical: "x"},
		{p: "nothere/a/../../src/e/cert.pem", follow: true, real: "@outside/ssl/cert.pem", cleaned: "@outside/ssl/cert.pem", lexical: "src/e/cert.pem"},
		// A name after a file (ENOTDIR) is kept the same way.
		{p: "src/app/x.txt/../y", follow: true, real: "src/app/y", cleaned: "src/app/y", lexical: "src/app/y"},
		// .. stops at /.
		{p: strings.Repeat("../", 40) + "etc", follow: true, real: "/etc", cleaned: "/etc", lexical: "/etc"},
		{p: "/", follow: true, real: "/", cleaned: "/", lexical: "/"},
		// Loops end.
		{p: "self", follow: true, real: "self", cleaned: "self", lexical: "self"},
		{p: "c2", follow: true, real: "src/app/x.txt", cleaned: "src/app/x.txt", lexical: "c2"},
		{p: "c1", follow: true, real: "c41", cleaned: "c41", lexical: "c1"},
		// The working directory is walked too: a cd through a link is in
		// the link's target, and .. from there is the target's parent.
		{p: "../passwd", dir: "src/e", follow: true, real: "@outside/passwd", cleaned: "src/passwd", lexical: "src/passwd"},
		{p: "cert.pem", dir: "src/e", follow: true, real: "@outside/ssl/cert.pem", cleaned: "@outside/ssl/cert.pem", lexical: "src/e/cert.pem"},
	} {
		name := fmt.Sprintf("%s(dir=%s,follow=%v)", tc.p, tc.dir, tc.follow)
		dir := filepath.Join(proj, tc.dir)
		var got Path
		if tc.follow {
			got = Resolve(tc.p, dir)
		} else {
			got = ResolveNoFollow(tc.p, dir)
		}
		want := Path{Lexical: abs(tc.lexical), Real: abs(tc.real), Cleaned: abs(tc.cleaned)}
		if got.Lexical != want.Lexical || got.Real != want.Real || got.Cleaned != want.Cleaned {
			t.Errorf("%s:\n got lexical %s real %s cleaned %s\nwant lexical %s real %s cleaned %s",
				name, got.Lexical, got.Real, got.Cleaned, want.Lexical, want.Real, want.Cleaned)
		}
		// Through one Cache shared by the whole table, each answer is the
		// same as without it.
		cached := cache.ResolveNoFollow(tc.p, dir)
		if tc.follow {
			cached = cache.Resolve(tc.p, dir)
		}
		if cached.Lexical != got.Lexical || cached.Real != got.Real || cached.Cleaned != got.Cleaned ||
			cached.Fold != got.Fold || cached.Exists() != got.Exists() {
			t.Errorf("%s through a Cache: %+v, without: %+v", name, cached, got)
		}
		// The same path given absolute resolves the same way, whatever the
		// working directory.
		if !filepath.IsAbs(tc.p) {
			var again Path
			if tc.follow {
				again = Resolve(dir+"/"+tc.p, "/elsewhere")
			} else {
				again = ResolveNoFollow(dir+"/"+tc.p, "/elsewhere")
			}
			if again.Real != got.Real || again.Cleaned != got.Cleaned {
				t.Errorf("%s given absolute: real %s cleaned %s, relative gave %s %s", name, again.Real, again.Cleaned, got.Real, got.Cleaned)
			}
		}
	}

	// A loop of two links ends at one of them.
	if got := Resolve("loop1", proj).Real; got != abs("loop1") && got != abs("loop2") {
		t.Errorf("loop1 -> loop2 -> loop1 resolved to %s", got)
	}
	// Loop says when the kernel would give up (ELOOP): past 40 links, not at
	// 40, and not when the last link is not followed.
	for _, tc := range []struct {
		p      string
		follow bool
		loop   bool
	}{
		{"loop1", true, true}, {"self", true, true}, {"self/x", false, true}, {"c1", true, true},
		{"c2", true, false}, {"src/e/cert.pem", true, false}, {"self", false, false}, {"dangle", true, false},
	} {
		rp := ResolveNoFollow(tc.p, proj)
		if tc.follow {
			rp = Resolve(tc.p, proj)
		}
		if rp.Loop != tc.loop {
			t.Errorf("%s (follow %v): Loop = %v, want %v", tc.p, tc.follow, rp.Loop, tc.loop)
		}
	}
}

// TestResolveRelativeDir: a relative working directory is taken against
// the process's.
func TestResolveRelativeDir(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Resolve("x", "testdata-none").Lexical, filepath.Join(wd, "testdata-none", "x"); got != want {
		t.Errorf("Resolve(x, relative dir).Lexical = %s, want %s", got, want)
	}
	if got, want := Real("testdata-none/x"), filepath.Join(Real(wd), "testdata-none", "x"); got != want {
		t.Errorf("Real(relative) = %s, want %s", got, want)
	}
}

func TestReal(t *testing.T) {
	root := tree(t, []string{"real/x"}, map[string]string{"link": "real"})
	for _, tc := range []struct{ p, want string }{
		{root + "/link", root + "/real"},
		{root + "/link/", root + "/real"},
		{root + "/link/x", root + "/real/x"},
		{root + "/link/new/deeper", root + "/real/new/deeper"},
		{root + "/link/../real", root + "/real"},
		{"/nonexistent-massgen-test/p", "/nonexistent-massgen-test/p"},
	} {
		if got := Real(tc.p); got != tc.want {
			t.Errorf("Real(%s) = %s, want %s", tc.p, got, tc.want)
		}
	}
}

// TestResolveMatchesKernel asks the kernel itself where each existing
// path leads (by opening it and comparing the file), for the paths whose
// answer the cleaning order changes.
func TestResolveMatchesKernel(t *testing.T) {
	root := tree(t, []string{"proj/src/app/x.txt", "proj/lib/old", "proj/lib/sub/", "proj/src/old", "outside/passwd", "outside/ssl/cert.pem"},
		map[string]string{"proj/src/e": "$ROOT/outside/ssl", "proj/src/l": "../lib/sub"})
	proj := filepath.Join(root, "proj")
	for _, p := range []string{"src/e/../passwd", "src/l/../old", "src/e/cert.pem", "src/e/../ssl/cert.pem"} {
		full := proj + "/" + p // not joined: Join would clean it
		kernel, err := os.Stat(full)
		if err != nil {
			t.Fatalf("the kernel cannot reach %s: %v", full, err)
		}
		ours, err := os.Stat(Resolve(p, proj).Real)
		if err != nil || !os.SameFile(kernel, ours) {
			t.Errorf("%s: Resolve says %s, which is not the file the kernel opens (%v)", p, Resolve(p, proj).Real, err)
		}
	}
}

func TestResolveExists(t *testing.T) {
	root := tree(t, []string{"a/x"}, map[string]string{"dangle": "nothing", "link": "a/x"})
	for _, tc := range []struct {
		p      string
		follow bool
		want   bool
	}{
		{"a/x", true, true},
		{"a", true, true},
		{"a/y", true, false},
		{"dangle", true, false},
		{"dangle", false, true},
		{"link", true, true},
		{"a/..", true, true},
	} {
		var got Path
		if tc.follow {
			got = Resolve(tc.p, root)
		} else {
			got = ResolveNoFollow(tc.p, root)
		}
		if got.Exists() != tc.want {
			t.Errorf("%s (follow %v): Exists = %v, want %v", tc.p, tc.follow, got.Exists(), tc.want)
		}
	}
}

// TestResolveInfo: Info is what the walk found at Real: the file or folder
// a followed link leads to, the link itself when it is not followed or a
// loop stopped the walk, nil for nothing there.
func TestResolveInfo(t *testing.T) {
	root := tree(t, []string{"a/x"}, map[string]string{"dirlink": "a", "filelink": "a/x", "loop": "loop", "dangle": "nothing"})
	for _, tc := range []struct {
		p      string
		follow bool
		want   string // "dir", "file", "link", "" for nil
	}{
		{"a", true, "dir"},
		{"a/x", true, "file"},
		{"a/x/..", true, "dir"},
		{"dirlink", true, "dir"},
		{"dirlink/", false, "dir"},
		{"dirlink", false, "link"},
		{"filelink", true, "file"},
		{"loop", true, "link"},
		{"dangle", true, ""},
		{"a/y", true, ""},
		{"a/x/y", true, ""},
	} {
		var got Path
		if tc.follow {
			got = Resolve(tc.p, root)
		} else {
			got = ResolveNoFollow(tc.p, root)
		}
		kind := ""
		switch info := got.Info(); {
		case info == nil:
		case info.Mode()&fs.ModeSymlink != 0:
			kind = "link"
		case info.IsDir():
			kind = "dir"
		default:
			kind = "file"
		}
		if kind != tc.want {
			t.Errorf("%s (follow %v): Info is a %q, want %q", tc.p, tc.follow, kind, tc.want)
		}
	}
}

// BenchmarkResolve: a path six names deep, as a hook resolves one in a
// project, plain and through a link.
func BenchmarkResolve(b *testing.B) {
	root := tree(b, []string{"proj/src/pkg/sub/file.go"}, map[string]string{"proj/link": "src/pkg"})
	proj := filepath.Join(root, "proj")
	for _, p := range []string{"src/pkg/sub/file.go", "link/sub/file.go", "link/../src/new.go"} {
		b.Run(strings.ReplaceAll(p, "/", "_"), func(b *testing.B) {
			for b.Loop() {
				Resolve(p, proj)
			}
		})
	}
}

// TestHopLimitMatchesLinux: Linux follows 40 links in one lookup and fails
// the 41st with ELOOP, the limit the walk copies.
func TestHopLimitMatchesLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("the hop limit is Linux's (40); %s has its own", runtime.GOOS)
	}
	links := map[string]string{"c41": "file"}
	for i := range 41 {
		links[fmt.Sprintf("c%d", i)] = fmt.Sprintf("c%d", i+1)
	}
	root := tree(t, []string{"file"}, links)
	if _, err := os.Stat(filepath.Join(root, "c2")); err != nil {
		t.Errorf("the kernel does not follow 40 links: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "c1")); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("the kernel follows 41 links (stat: %v), want ELOOP", err)
	}
}

// TestResolveLexical: where nothing exists, every form is the path made
// absolute and cleaned.
func TestResolveLexical(t *testing.T) {
	base := "/nonexistent-massgen-test"
	for _, tc := range []struct {
		p, dir, want string
	}{
		{"a/b", base, base + "/a/b"},
		{"./a//b/", base, base + "/a/b"},
		{"a/../.env", base, base + "/.env"},
		{"../x", base + "/sub", base + "/x"},
		{"../../../../x", base, "/x"},
		{".", base, base},
		{"", base, base},
		{"/abs/../etc/passwd", base, "/etc/passwd"},
		{"/", base, "/"},
		{"/a/./b/../c", "ignored", "/a/c"},
	} {
		for _, rp := range []Path{Resolve(tc.p, tc.dir), ResolveNoFollow(tc.p, tc.dir)} {
			if rp.Lexical != tc.want || rp.Real != tc.want || rp.Cleaned != tc.want {
				t.Errorf("resolve(%q, %q) = %+v, want every form %q", tc.p, tc.dir, rp, tc.want)
			}
		}
	}
}

// TestResolveLinks: links to files, folders, out of the folder, dangling,
// to a dangling link, to themselves, and up and down again.
func TestResolveLinks(t *testing.T) {
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := tree(t, []string{"target.txt", "realdir/inner.txt", ".env"}, nil)
	for link, target := range map[string]string{
		"flink": "target.txt", "dlink": filepath.Join(root, "realdir"), "out": outside,
		"dangle": "missing/target.txt", "dangle-abs": "/nonexistent-massgen-test/file",
		"dangle2": "dangle", "self": "self", "harmless": ".env",
		"updown": "../" + filepath.Base(root) + "/realdir",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ p, real string }{
		{"target.txt", "target.txt"},
		{"flink", "target.txt"},
		{"dlink", "realdir"},
		{"dlink/inner.txt", "realdir/inner.txt"},
		{"dlink/new.txt", "realdir/new.txt"},
		{"dlink/a/b/c", "realdir/a/b/c"},
		{"dlink/../target.txt", "target.txt"},
		{"out", outside},
		{"out/x/y", outside + "/x/y"},
		{"dangle", "missing/target.txt"},
		{"dangle-abs", "/nonexistent-massgen-test/file"},
		{"dangle2", "missing/target.txt"},
		{"self", "self"},
		{"harmless", ".env"},
		{"updown/inner.txt", "realdir/inner.txt"},
		{"nothere/deeper", "nothere/deeper"},
	} {
		want := tc.real
		if !filepath.IsAbs(want) {
			want = filepath.Join(root, want)
		}
		rp := Resolve(tc.p, root)
		if rp.Real != want || rp.Lexical != filepath.Join(root, tc.p) {
			t.Errorf("Resolve(%q) = {lexical %q, real %q}, want {%q, %q}", tc.p, rp.Lexical, rp.Real, filepath.Join(root, tc.p), want)
		}
		if again := Resolve(filepath.Join(root, tc.p), "/elsewhere"); again.Real != rp.Real || again.Lexical != rp.Lexical {
			t.Errorf("Resolve(absolute %q) = %+v, relative gave %+v", tc.p, again, rp)
		}
	}
}

// A Cache answers from what it saw: a folder swapped for a link after it
// was resolved is not seen through it, and is through a new one (or none).
func TestCacheRemembers(t *testing.T) {
	root := tree(t, []string{"a/x", "b/x"}, nil)
	cache := &Cache{}
	if got := cache.Resolve("a/x", root).Real; got != filepath.Join(root, "a/x") {
		t.Fatalf("Resolve(a/x) = %s", got)
	}
	if err := os.Rename(filepath.Join(root, "a"), filepath.Join(root, "old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b", filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	if got := cache.Resolve("a/x", root).Real; got != filepath.Join(root, "a/x") {
		t.Errorf("the same Cache, after the swap: %s, want the answer it first gave", got)
	}
	if got := cache.Real(filepath.Join(root, "a")); got != filepath.Join(root, "a") {
		t.Errorf("the same Cache's Real, after the swap: %s", got)
	}
	for name, rp := range map[string]Path{"a new Cache": (&Cache{}).Resolve("a/x", root), "no Cache": Resolve("a/x", root)} {
		if rp.Real != filepath.Join(root, "b/x") {
			t.Errorf("%s, after the swap: %s, want the link followed to b/x", name, rp.Real)
		}
	}
}

// Lead agrees with Resolve on where a path leads, whether it exists and
// whether its walk loops, for links of every kind, and asks nothing of
// case folding, which it does not report.
func TestLeadIsResolveWithoutTheCaseProbe(t *testing.T) {
	links := map[string]string{"flink": "target.txt", "dlink": "realdir", "dangle": "missing/target.txt",
		"self": "self", "updown": "realdir/../realdir", "abs": "$ROOT/realdir/inner.txt"}
	for i := range 41 {
		links[fmt.Sprintf("c%d", i)] = fmt.Sprintf("c%d", i+1)
	}
	links["c41"] = "target.txt"
	root := tree(t, []string{"target.txt", "realdir/inner.txt", "UPPER/x"}, links)
	probes := 0
	defer SetCaseProbe(func(string) bool { probes++; return false })()
	for _, p := range []string{"UPPER/x", "realdir/inner.txt", "nothere"} {
		(*Cache)(nil).Lead(root + "/" + p)
	}
	if probes != 0 {
		t.Errorf("Lead probed case folding %d times", probes)
	}
	for _, p := range []string{"target.txt", "flink", "dlink/inner.txt", "dlink/new/deeper", "dangle", "self", "self/x",
		"updown/inner.txt", "abs", "c2", "c1", "c0/x", "UPPER/x", "nothere", "target.txt/x", "dlink/../flink", "realdir/.."} {
		full := root + "/" + p
		for _, c := range []*Cache{nil, {}} {
			real, exists, loop := c.Lead(full)
			want := Resolve(full, "/")
			if real != want.Real || exists != want.Exists() || loop != want.Loop {
				t.Errorf("Lead(%s) = %q, exists %v, loop %v; Resolve says %q, %v, %v", p, real, exists, loop, want.Real, want.Exists(), want.Loop)
			}
		}
	}
}
