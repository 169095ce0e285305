package guard

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

func TestNewProject(t *testing.T) {
	root := checktest.RealTempDir(t)
	checktest.WriteFiles(t, root, "real/x")
	checktest.Symlink(t, filepath.Join(root, "real"), filepath.Join(root, "link"))
	for _, tc := range []struct{ given, root, real string }{
		{root + "/real/", root + "/real", root + "/real"},
		{root + "/link", root + "/link", root + "/real"},
		{root + "/link/../real", root + "/real", root + "/real"},
		{"/nonexistent-massgen-test/p", "/nonexistent-massgen-test/p", "/nonexistent-massgen-test/p"},
	} {
		if got := newProject(tc.given, nil); got.Root != tc.root || got.real != tc.real {
			t.Errorf("newProject(%q) = %+v, want {%q %q}", tc.given, got, tc.root, tc.real)
		}
	}
}

func TestProjectInsideFormsDisplay(t *testing.T) {
	base := checktest.RealTempDir(t)
	proj := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	checktest.WriteFiles(t, base, "proj/.env", "proj/sub/a.txt", "outside/secret.txt")
	checktest.Symlink(t, outside, filepath.Join(proj, "escape"))
	checktest.Symlink(t, ".env", filepath.Join(proj, "harmless"))
	checktest.Symlink(t, proj, filepath.Join(base, "projlink"))
	checktest.Symlink(t, filepath.Join(proj, "sub"), filepath.Join(outside, "back"))

	pr := newProject(proj, nil)
	for _, tc := range []struct {
		p       string
		inside  bool
		forms   []string
		display string
	}{
		{".env", true, []string{".env"}, ".env"},
		{"sub/a.txt", true, []string{"sub/a.txt"}, "sub/a.txt"},
		{"sub/../.env", true, []string{".env"}, ".env"},
		{".", true, []string{"."}, "."},
		{"new/file.go", true, []string{"new/file.go"}, "new/file.go"},
		// A link named harmlessly is matched as what it points at too.
		{"harmless", true, []string{"harmless", ".env"}, "harmless"},
		// A link in the project that points out of it leads out of it.
		{"escape", false, []string{"escape", outside}, "escape"},
		{"escape/secret.txt", false, []string{"escape/secret.txt", outside + "/secret.txt"}, "escape/secret.txt"},
		{"escape/new.txt", false, []string{"escape/new.txt", outside + "/new.txt"}, "escape/new.txt"},
		// Outside: absolute; a link outside into the project leads in.
		{"/etc/passwd", false, []string{"/etc/passwd"}, "/etc/passwd"},
		{outside + "/back/a.txt", true, []string{outside + "/back/a.txt", "sub/a.txt"}, outside + "/back/a.txt"},
		{"..", false, []string{base}, base},
		// /a vs /ab: a sibling whose name starts with the project's is outside.
		{proj + "x/file", false, []string{proj + "x/file"}, proj + "x/file"},
	} {
		rp := fspath.Resolve(tc.p, proj)
		if got := pr.inside(rp); got != tc.inside {
			t.Errorf("inside(%q) = %v, want %v", tc.p, got, tc.inside)
		}
		if got := pr.Forms(rp); !reflect.DeepEqual(got, tc.forms) {
			t.Errorf("forms(%q) = %q, want %q", tc.p, got, tc.forms)
		}
		if got := pr.Display(rp); got != tc.display {
			t.Errorf("display(%q) = %q, want %q", tc.p, got, tc.display)
		}
	}

	// A project given through a link: paths written through the link and
	// through the real directory are both inside, and relative forms.
	linked := newProject(filepath.Join(base, "projlink"), nil)
	for _, tc := range []struct {
		p     string
		forms []string
	}{
		{filepath.Join(base, "projlink", ".env"), []string{".env"}},
		{filepath.Join(proj, ".env"), []string{proj + "/.env", ".env"}},
	} {
		rp := fspath.Resolve(tc.p, "/")
		if !linked.inside(rp) {
			t.Errorf("linked project: inside(%q) = false", tc.p)
		}
		if got := linked.Forms(rp); !reflect.DeepEqual(got, tc.forms) {
			t.Errorf("linked project: forms(%q) = %q, want %q", tc.p, got, tc.forms)
		}
	}
	if got := linked.Display(fspath.Resolve(filepath.Join(base, "projlink", "sub/a.txt"), "/")); got != "sub/a.txt" {
		t.Errorf("linked project: display = %q, want sub/a.txt", got)
	}
}

// A guard resolves each path once per call: a folder that becomes a link
// mid-call keeps the answer the call started with, and the next call (a new
// guard) sees the link.
func TestGuardResolvesOncePerCall(t *testing.T) {
	root := checktest.RealTempDir(t)
	home, elsewhere := filepath.Join(root, "home"), filepath.Join(root, "elsewhere")
	for _, d := range []string{home, elsewhere} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	g := &guard{shellCall: shellCall{Home: home, paths: &fspath.Cache{}}}
	if got := g.realHome(); got != home {
		t.Fatalf("realHome = %s, want %s", got, home)
	}
	if err := os.Remove(home); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, home); err != nil {
		t.Fatal(err)
	}
	if got := g.realHome(); got != home {
		t.Errorf("realHome resolved again within the call: %s", got)
	}
	if got := g.fullPatterns("~/.kube/config"); len(got) != 2 || got[1] != filepath.Join(home, ".kube/config") {
		t.Errorf("fullPatterns(~/.kube/config) = %q, want the home resolved once, as the call started", got)
	}
	next := &guard{shellCall: shellCall{Home: home, paths: &fspath.Cache{}}}
	if got := next.realHome(); got != elsewhere {
		t.Errorf("a new call's realHome = %s, want %s (the link followed)", got, elsewhere)
	}
}

// TestGuardsShareTheCallsPaths: the guards of one call (protected_paths,
// dangerous_commands) resolve through the one cache ShellCallOf gives, the
// project's folders with the rest: each name is asked about once per call,
// and every guard sees the filesystem as the call's first look found it.
func TestGuardsShareTheCallsPaths(t *testing.T) {
	env := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, env.Project, "a/f", "b/f")
	link := filepath.Join(env.Project, "link")
	checktest.Symlink(t, "a", link)
	call := env.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput("cat link/f")})
	p := newProtected(t, "")
	checkVerdict(t, p, call, "")
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	checktest.Symlink(t, "b", link)
	sc := ShellCallOf(call)
	if sc.paths == nil || p.(*protectedPaths).guardFor(call).paths != sc.paths {
		t.Fatal("protected_paths does not resolve through the call's shared paths cache")
	}
	if got, want := sc.paths.Real(link), filepath.Join(env.Project, "a"); got != want {
		t.Errorf("the call's paths resolve link to %s after it changed, want %s: what protected_paths saw", got, want)
	}
	if got, want := sc.Project.real, env.Project; got != want {
		t.Errorf("Project.real = %s, want %s", got, want)
	}
}
