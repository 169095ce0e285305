package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/analysis/fspath"
	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

// The path guards judge a path where the kernel takes it: a .. after a
// symlink, a symlink rm removes rather than follows, a hard link, a
// case-insensitive folder.

// hardlink makes name a hard link of target, both relative to root.
func hardlink(t *testing.T, root, target, name string) {
	t.Helper()
	if err := os.Link(filepath.Join(root, target), filepath.Join(root, name)); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
}

// linkDenial is protectedDenial for a hard link of same.
func linkDenial(write bool, path, pattern, same string) string {
	d := protectedDenial(write, path, pattern)
	return strings.Replace(d, fmt.Sprintf("(rule %q).", pattern), fmt.Sprintf("(rule %q): it is the same file as %s (a hard link).", pattern, same), 1)
}

// TestProtectedDotDotAfterLink: .. after a symlink goes to the parent of
// the link's target. With h a link to .git/hooks, h/../config is
// .git/config to the kernel, though it reads as ./config.
func TestProtectedDotDotAfterLink(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, ".git/config", ".git/hooks/pre-commit.sample", "sub/deeper/x", "config")
	checktest.Symlink(t, ".git/hooks", filepath.Join(g.Project, "h"))
	checktest.Symlink(t, "sub/deeper", filepath.Join(g.Project, "d"))
	p := newProtected(t, "")
	for _, tc := range []struct{ command, want string }{
		{"echo x > h/../config", protectedDenial(true, "config", "**/.git/**")},
		{"sed -i s/a/b/ h/../config", protectedDenial(true, "config", "**/.git/**")},
		// Near misses: a plain .. and a .. through a link that stays out of .git.
		{"echo x > sub/../config", ""},
		{"echo x > d/../x", ""},
	} {
		t.Run(tc.command, func(t *testing.T) {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(tc.command)}), tc.want)
		})
	}
}

// TestProtectedCleanedPath: the CLIs' file tools clean a path before they
// open it, so Write's file_path L/../out writes ./out, which here is a
// link to /etc: outside, though the kernel's own walk of L/../out stays in.
func TestProtectedCleanedPath(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "deep/dir/x")
	checktest.Symlink(t, "deep/dir", filepath.Join(g.Project, "L"))
	checktest.Symlink(t, "/etc", filepath.Join(g.Project, "out"))
	p := newProtected(t, "")
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Write", Input: checktest.JsonInput("file_path", "L/../out/motd")}),
		outsideDenial("out/motd", g.Project))
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Write", Input: checktest.JsonInput("file_path", "L/../deep/new.txt")}), "")
}

// TestProtectedRemoveLink: rm removes a symlink itself, so removing a
// link to .env or to a folder outside is no write to them; a trailing
// slash follows the link, and a redirection on the same rm writes through
// it.
func TestProtectedRemoveLink(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, ".env")
	checktest.Symlink(t, ".env", filepath.Join(g.Project, "harmless"))
	checktest.Symlink(t, "/etc/ssl", filepath.Join(g.Project, "e"))
	p := newProtected(t, "")
	for _, tc := range []struct{ command, want string }{
		{"rm harmless", ""},
		{"unlink harmless", ""},
		{"rm -rf e", ""},
		{"rm -rf e/", outsideDenial("e", g.Project)},
		{"rm -rf e/certs", outsideDenial("e/certs", g.Project)},
		{"rm -f nothing > harmless", protectedDenial(true, "harmless", "**/.env")},
		// Writers other than rm act through the link.
		{"truncate -s0 harmless", protectedDenial(true, "harmless", "**/.env")},
		{"rm .env", protectedDenial(true, ".env", "**/.env")},
	} {
		t.Run(tc.command, func(t *testing.T) {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(tc.command)}), tc.want)
		})
	}
}

// TestProtectedHardLinks: a hard link of a protected file is that file:
// one in the project (found by the patterns), one in the home directory's
// credential folders, one a pattern names literally, the guard's own
// config. Near misses: links of ordinary files and of an exception, and of
// a secret inside node_modules, which the search does not enter.
func TestProtectedHardLinks(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	home := checktest.RealTempDir(t)
	checktest.WriteFiles(t, home, ".aws/credentials", ".ssh/id_ed25519", ".config/gh/hosts.yml", "notes.txt")
	checktest.WriteFiles(t, g.Project, ".env", ".env.example", "sub/key.pem", ".claude/massgen-hook.yaml", "README.md",
		"node_modules/pkg/.env", "docs/")
	for _, l := range []struct{ target, name string }{
		{g.Project + "/.env", "x"},
		{g.Project + "/sub/key.pem", "docs/k"},
		{g.Project + "/.env.example", "template"},
		{g.Project + "/.claude/massgen-hook.yaml", "cfg"},
		{g.Project + "/README.md", "readme-link"},
		{g.Project + "/node_modules/pkg/.env", "pkg-env"},
		{home + "/.aws/credentials", "creds"},
		{home + "/.ssh/id_ed25519", "key"},
		{home + "/.config/gh/hosts.yml", "gh"},
		{home + "/notes.txt", "home-notes"},
	} {
		if err := os.Link(l.target, filepath.Join(g.Project, l.name)); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	p := newProtected(t, `add: {read: ["~/.config/gh/hosts.yml"]}`)
	for _, tc := range []struct{ tool, input, want string }{
		{"Bash", checktest.BashInput("cat x"), linkDenial(false, "x", "**/.env", ".env")},
		{"Read", checktest.JsonInput("file_path", "x"), linkDenial(false, "x", "**/.env", ".env")},
		{"Grep", checktest.JsonInput("path", "x"), linkDenial(false, "x", "**/.env", ".env")},
		{"Write", checktest.JsonInput("file_path", "x"), linkDenial(true, "x", "**/.env", ".env")},
		{"Bash", checktest.BashInput("head -1 docs/k"), linkDenial(false, "docs/k", "**/*.pem", "sub/key.pem")},
		{"Write", checktest.JsonInput("file_path", "cfg"), linkDenial(true, "cfg", ".claude/massgen-hook.yaml", ".claude/massgen-hook.yaml")},
		{"Bash", checktest.BashInput("echo 'default_guards: false' > cfg"), linkDenial(true, "cfg", ".claude/massgen-hook.yaml", ".claude/massgen-hook.yaml")},
		{"Bash", checktest.BashInput("cat creds"), linkDenial(false, "creds", "**/.aws/credentials", home+"/.aws/credentials")},
		{"Bash", checktest.BashInput("cat key"), linkDenial(false, "key", "**/id_ed25519", home+"/.ssh/id_ed25519")},
		{"Bash", checktest.BashInput("cat gh"), linkDenial(false, "gh", "~/.config/gh/hosts.yml", home+"/.config/gh/hosts.yml")},
		// Near misses.
		{"Bash", checktest.BashInput("cat readme-link"), ""},
		{"Write", checktest.JsonInput("file_path", "readme-link"), ""},
		{"Bash", checktest.BashInput("cat template"), ""},
		{"Bash", checktest.BashInput("cat home-notes"), ""},
		{"Bash", checktest.BashInput("cat pkg-env"), ""},
		// Only writes are judged against the write list: README's link
		// may be read, cfg may be read.
		{"Read", checktest.JsonInput("file_path", "cfg"), ""},
	} {
		t.Run(tc.tool+" "+tc.input, func(t *testing.T) {
			call := g.MakeCall(t, checktest.CallSpec{Tool: tc.tool, Input: tc.input})
			call.Environ = []string{"HOME=" + home}
			checkVerdict(t, p, call, tc.want)
		})
	}
}

// TestProtectedHardLinkBudget: a project too big to search is let
// through, saying so on stderr (a note), never in silence.
func TestProtectedHardLinkBudget(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "a/b/c/.env", "one", "two", "three")
	hardlink(t, g.Project, "a/b/c/.env", "x")
	defer func(b int) { hardLinkBudget = b }(hardLinkBudget)
	hardLinkBudget = 3
	p := newProtected(t, "")
	v := checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput("cat x")}), "")
	want := "protected_paths: x has other names (hard links), and the project is too big to look through all of it (3 entries) for a protected file it could be; it was let through unchecked"
	if len(v.Notes) != 1 || v.Notes[0] != want {
		t.Errorf("notes = %q, want [%q]", v.Notes, want)
	}
	hardLinkBudget = 100
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput("cat x")}), linkDenial(false, "x", "**/.env", "a/b/c/.env"))
}

// TestProtectedLinkSource: making a hard link to a file is a write to it
// (shellcmd reports ln's sources as Link effects); a symlink source is
// followed, and a source that is itself a hard link of .env is .env.
func TestProtectedLinkSource(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, ".env", "notes.txt", ".git/config")
	hardlink(t, g.Project, ".env", "x")
	checktest.Symlink(t, ".env", filepath.Join(g.Project, "sym"))
	p := newProtected(t, "")
	for _, tc := range []struct{ command, want string }{
		{"ln .env y", protectedDenial(true, ".env", "**/.env")},
		{"ln sym y", protectedDenial(true, "sym", "**/.env")},
		{"ln x y", linkDenial(true, "x", "**/.env", ".env")},
		{"ln .git/config y", protectedDenial(true, ".git/config", "**/.git/**")},
		{"ln /etc/passwd y", outsideDenial("/etc/passwd", g.Project)},
		{"ln notes.txt y", ""},
	} {
		t.Run(tc.command, func(t *testing.T) {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(tc.command)}), tc.want)
		})
	}
	// SameFile is the plain question behind it.
	if !fspath.SameFile(filepath.Join(g.Project, "x"), filepath.Join(g.Project, ".env")) {
		t.Error("SameFile(x, .env) = false for a hard link")
	}
}

// TestProtectedCaseInsensitive: on a case-insensitive folder .ENV is .env
// and .CLAUDE/MASSGEN-HOOK.YAML the guard's config; on a case-sensitive one
// they are other files. fspath.TestCaseInsensitiveExFAT checks the probe on
// a real case-insensitive filesystem.
func TestProtectedCaseInsensitive(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, ".env", ".claude/massgen-hook.yaml")
	p := newProtected(t, "")
	cases := []struct{ tool, input, want string }{
		{"Read", checktest.JsonInput("file_path", ".ENV"), protectedDenial(false, ".ENV", "**/.env")},
		{"Bash", checktest.BashInput("cat .Env"), protectedDenial(false, ".Env", "**/.env")},
		{"Write", checktest.JsonInput("file_path", ".CLAUDE/MASSGEN-HOOK.YAML"), protectedDenial(true, ".CLAUDE/MASSGEN-HOOK.YAML", ".claude/massgen-hook.yaml")},
		{"Write", checktest.JsonInput("file_path", "SUB/ID_RSA"), protectedDenial(true, "SUB/ID_RSA", "**/id_rsa")},
		{"Read", checktest.JsonInput("file_path", ".ENV.EXAMPLE"), ""}, // still an exception
		{"Read", checktest.JsonInput("file_path", "README.md"), ""},
	}
	t.Run("insensitive", func(t *testing.T) {
		defer fspath.SetCaseProbe(func(string) bool { return true })()
		for _, tc := range cases {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: tc.tool, Input: tc.input}), tc.want)
		}
		// The project named in another case is the project.
		upper := strings.ToUpper(g.Project)
		checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Write", Input: checktest.JsonInput("file_path", upper+"/.claude/massgen-hook.yaml")}),
			protectedDenial(true, ".claude/massgen-hook.yaml", ".claude/massgen-hook.yaml"))
	})
	t.Run("sensitive", func(t *testing.T) {
		defer fspath.SetCaseProbe(func(string) bool { return false })()
		for _, tc := range cases[:4] {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: tc.tool, Input: tc.input}), "")
		}
	})
}

// TestDangerKernelPaths: rm -r judged where the kernel's walk ends.
func TestDangerKernelPaths(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "lib/sub/keep.txt", "lib/old/x", "src/app/x")
	checktest.Symlink(t, "/etc/ssl", filepath.Join(g.Project, "src/e"))
	checktest.Symlink(t, "../lib/sub", filepath.Join(g.Project, "src/l"))
	d := newDanger(t, "")
	const id = "recursive-delete"
	runDangerCases(t, g, d, []dangerCase{
		{command: "rm -rf src/e"},
		{command: "rm -rf src/e/", id: id, what: "`rm -rf src/e/` deletes /etc/ssl, outside the project", instead: insteadDeleteInside},
		{command: "rm -rf src/e/*", id: id, what: "`rm -rf src/e/*` deletes /etc/ssl, outside the project", instead: insteadDeleteInside},
		{command: "rm -rf src/e/../passwd", id: id, what: "`rm -rf src/e/../passwd` deletes /etc/passwd, outside the project", instead: insteadDeleteInside},
		{command: "rm -rf e/../passwd", cwd: "src", id: id, what: "`rm -rf e/../passwd` deletes /etc/passwd, outside the project", instead: insteadDeleteInside},
		{command: "rm -rf src/l/../old"},
		{command: "rm -rf src/app/../old"},
	})
}

// TestDangerTempContents: emptying a temporary folder is allowed when the
// project is elsewhere; the folder itself is not.
func TestDangerTempContents(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	g.Project = "/srv/massgen-hook-test-project" // need not exist
	d := newDanger(t, "")
	const id = "recursive-delete"
	runDangerCases(t, g, d, []dangerCase{
		{command: "rm -rf /tmp/*"},
		{command: "rm -rf /tmp/.*"},
		{command: "rm -rf /var/tmp/*"},
		{command: "rm -rf /tmp/x"},
		{command: "rm -rf /tmp", id: id, what: "`rm -rf /tmp` deletes /tmp, outside the project", instead: insteadDeleteInside},
		{command: "rm -rf /tmp/", id: id, what: "`rm -rf /tmp/` deletes /tmp, outside the project", instead: insteadDeleteInside},
		{command: "rm -rf /var/tmp", id: id, what: "`rm -rf /var/tmp` deletes /var/tmp, outside the project", instead: insteadDeleteInside},
		{command: "rm -rf /var/*", id: id, what: "`rm -rf /var/*` deletes /var, outside the project", instead: insteadDeleteInside},
	})
	g.Project = "/tmp/massgen-hook-test-project"
	runDangerCases(t, g, d, []dangerCase{
		{command: "rm -rf /tmp/*", id: id, what: "`rm -rf /tmp/*` would delete /tmp, which holds the project (/tmp/massgen-hook-test-project)", instead: insteadDeleteSpecific},
	})
}

// BenchmarkHardLinkSearch: reading a file with a second name in a project
// of 2,000 files in 100 folders, none protected: the whole project is
// searched, each name matched against the default patterns.
func BenchmarkHardLinkSearch(b *testing.B) {
	project, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for d := range 100 {
		dir := filepath.Join(project, fmt.Sprintf("pkg%d/sub", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 20 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%d.go", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := os.Link(filepath.Join(project, "pkg0/sub/file0.go"), filepath.Join(project, "x")); err != nil {
		b.Skipf("no hard links here: %v", err)
	}
	pp, err := NewProtectedPaths(nil)
	if err != nil {
		b.Fatal(err)
	}
	p := pp.(*protectedPaths)
	g := &guard{protectedPaths: p, shellCall: shellCall{Project: newProject(project, nil), Cwd: project}}
	rp := fspath.Resolve("x", project)
	for b.Loop() {
		if same, _ := g.hardLinked(rp, p.read); same != "" || len(g.notes) > 0 {
			b.Fatalf("found %q, notes %q", same, g.notes)
		}
	}
}

func TestIsTemp(t *testing.T) {
	for _, tc := range []struct {
		real     string
		contents bool
		want     bool
	}{
		{"/tmp/x", false, true},
		{"/tmp", false, false},
		{"/tmp", true, true},
		{"/var/tmp", true, true},
		{"/var/tmp/x", false, true},
		{"/private/tmp", true, true},
		{"/private/var/tmp/cache", false, true}, // macOS: /var is /private/var
		{"/private/var/tmp", true, true},
		{"/private/var/folders/ab/T/x", false, true},
		{"/var/folders/ab", false, true},
		{"/var/folders", true, false},
		{"/private/var/folders", true, false},
		{"/var", true, false},
		{"/tmpx", false, false},
		{"/etc", true, false},
	} {
		if got := isTemp(tc.real, tc.contents, ""); got != tc.want {
			t.Errorf("isTemp(%s, contents %v) = %v, want %v", tc.real, tc.contents, got, tc.want)
		}
	}
}
