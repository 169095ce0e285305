package guard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

// treeDenial is the reason for a folder read that reaches a protected
// file.
func treeDenial(reader, folder, file, pattern, how string) string {
	return fmt.Sprintf("⚠️ BLOCKED: %s reads the files below '%s', and would read %s, a protected path (rule %q). Leave it alone: %s; if you really need what is in it, ask the user.",
		reader, folder, file, pattern, how)
}

const othersHow = "search or pack named files, or a folder that does not hold it"

func tooBigDenial(reader, folder, pattern string) string {
	return fmt.Sprintf("⚠️ BLOCKED: %s reads the files below '%s', and that folder is too big to check for protected files (more than %d entries, or %s) such as those of rule %q. "+
		"Search named files or a smaller folder instead, or leave protected files out with the reader's options.", reader, folder, treeBudget, treeTime, pattern)
}

// gitIn runs git in dir, skipping the test where there is no git.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestProtectedTreeReads: a folder read is denied for the first protected
// file its reader selects, and passes when its options, its folder or the
// reader's defaults leave every one out.
func TestProtectedTreeReads(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	p := newProtected(t, "")
	checktest.WriteFiles(t, g.Project, "README.md", "src/a.go", "src/conf/.env", "keys/.hidden/id_rsa", "lib/x.go")
	checktest.Symlink(t, "../src/conf/.env", filepath.Join(g.Project, "lib/settings"))
	checktest.Symlink(t, "src/conf", filepath.Join(g.Project, "conflink"))
	checktest.Symlink(t, "looped", filepath.Join(g.Project, "looped"))
	for _, tc := range []struct {
		tool, input string
		want        string
	}{
		{"Bash", checktest.BashInput("grep -r KEY src"), treeDenial("grep -r", "src", "src/conf/.env", "**/.env", "leave it out with --exclude=.env, or "+othersHow)},
		{"Bash", checktest.BashInput("grep -r KEY src/conf/.."), treeDenial("grep -r", "src", "src/conf/.env", "**/.env", "leave it out with --exclude=.env, or "+othersHow)},
		{"Bash", checktest.BashInput("grep -r --exclude=.env KEY src"), ""},
		{"Bash", checktest.BashInput("grep -r --exclude-dir=conf KEY src"), ""},
		{"Bash", checktest.BashInput("grep -r KEY README.md src/a.go"), ""},
		// A link named on the command line is followed to its folder; a
		// loop of links is no folder (grep fails on it).
		{"Bash", checktest.BashInput("grep -r KEY conflink"), treeDenial("grep -r", "conflink", "conflink/.env", "**/.env", "leave it out with --exclude=.env, or "+othersHow)},
		{"Bash", checktest.BashInput("grep -r KEY looped"), ""},
		// A link below the folder: grep -r skips it, grep -R and zip -r
		// read its target; zip -y stores the link.
		{"Bash", checktest.BashInput("grep -r KEY lib"), ""},
		{"Bash", checktest.BashInput("grep -R KEY lib"), treeDenial("grep -r", "lib", "lib/settings", "**/.env", "leave it out with --exclude=settings, or "+othersHow)},
		{"Bash", checktest.BashInput("zip -r /tmp/out.zip lib"), treeDenial("zip -r", "lib", "lib/settings", "**/.env", "leave it out with -x 'settings', or "+othersHow)},
		{"Bash", checktest.BashInput("zip -ry /tmp/out.zip lib"), ""},
		// Hidden folders: rg skips them unless told.
		{"Bash", checktest.BashInput("rg KEY keys"), ""},
		{"Bash", checktest.BashInput("rg --hidden KEY keys"), treeDenial("rg", "keys", "keys/.hidden/id_rsa", "**/id_rsa", "leave it out with -g '!id_rsa', or "+othersHow)},
		// A glob reads what it names, hidden or ignored, but does not
		// open a hidden folder.
		{"Bash", checktest.BashInput("rg -g .env KEY src"), treeDenial("rg", "src", "src/conf/.env", "**/.env", "leave it out with -g '!.env', or "+othersHow)},
		{"Bash", checktest.BashInput("rg -g id_rsa KEY keys"), ""},
		// A git command outside a repository reads no tracked file.
		{"Bash", checktest.BashInput("git grep KEY"), ""},
		{"Bash", checktest.BashInput("git grep --no-index KEY -- src"), treeDenial("git grep", ".", "src/conf/.env", "**/.env", "leave it out with ':(exclude)"+".env', or "+othersHow)},
		// The agents' search tools.
		{"Grep", `{"pattern":"KEY"}`, treeDenial("Grep", ".", "keys/.hidden/id_rsa", "**/id_rsa", `leave it out with glob "!id_rsa", or `+othersHow)},
		{"Grep", `{"pattern":"KEY","path":"src"}`, treeDenial("Grep", "src", "src/conf/.env", "**/.env", `leave it out with glob "!.env", or `+othersHow)},
		{"Grep", `{"pattern":"KEY","path":"src","glob":"*.go"}`, ""},
		{"Grep", `{"pattern":"KEY","path":"src","glob":"!**/.env"}`, ""},
		// A glob with too many brace alternatives to try (2^40) selects
		// everything, and leaves nothing out.
		{"Grep", `{"pattern":"KEY","path":"src","glob":"` + strings.Repeat("{,}", 40) + `*.go"}`, treeDenial("Grep", "src", "src/conf/.env", "**/.env", `leave it out with glob "!.env", or `+othersHow)},
		{"Bash", checktest.BashInput("rg --hidden -g '!" + strings.Repeat("{,}", 40) + ".env' KEY src"), treeDenial("rg", "src", "src/conf/.env", "**/.env", "leave it out with -g '!.env', or "+othersHow)},
		{"Grep", `{"pattern":"KEY","path":"src","type":"go"}`, ""},
		{"Grep", `{"pattern":"KEY","path":"src","type":"sh"}`, treeDenial("Grep", "src", "src/conf/.env", "**/.env", `leave it out with glob "!.env", or `+othersHow)},
		{"Grep", `{"pattern":"KEY","paths":["lib","src/a.go"]}`, ""},
		// Gemini CLI's include selects and cannot leave a file out.
		{"Grep", `{"pattern":"KEY","path":"src","include":"**"}`, treeDenial("Grep", "src", "src/conf/.env", "**/.env", othersHow)},
		{"Grep", `{"pattern":"KEY","paths":"src"}`, treeDenial("Grep", "src", "src/conf/.env", "**/.env", `leave it out with glob "!.env", or `+othersHow)},
		{"read_many_files", `{"include":["src"]}`, treeDenial("read_many_files", "src", "src/conf/.env", "**/.env", othersHow)},
		{"read_many_files", `{"include":["src"],"exclude":["**/.env"]}`, ""},
		{"read_many_files", `{"include":["**/*.go"]}`, ""},
		// src/** matches src/conf/.env itself, so it is a read of it.
		{"read_many_files", `{"include":["src/**"]}`, "⚠️ BLOCKED: reading src/conf/.env is not allowed: it is a protected path (rule \"**/.env\"). Leave it alone and carry on without it; if you really need what is in it, ask the user."},
	} {
		t.Run(tc.tool+" "+tc.input, func(t *testing.T) {
			checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: tc.tool, Input: tc.input}), tc.want)
		})
	}
}

// TestProtectedTreeTooBig: a walk that runs out of entries or time
// denies, saying so, when the reader could select a file a pattern
// protects, and passes when its options leave every such file out.
func TestProtectedTreeTooBig(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	p := newProtected(t, "")
	checktest.WriteFiles(t, g.Project, "a/1.go", "a/2.go", "b/1.go", "b/2.go")
	for _, run := range []struct {
		name string
		set  func()
	}{
		{"entries", func() { treeBudget = 3 }},
		{"time", func() { treeExpired = func() func() bool { return func() bool { return true } } }},
	} {
		t.Run(run.name, func(t *testing.T) {
			budget, expired := treeBudget, treeExpired
			t.Cleanup(func() { treeBudget, treeExpired = budget, expired })
			run.set()
			for _, tc := range []struct{ command, want string }{
				{"grep -r KEY .", tooBigDenial("grep -r", ".", "**/.env")},
				{"rg KEY", tooBigDenial("rg", ".", "**/*.pem")}, // .env is hidden: x.pem is not
				{"grep -r --include=*.go KEY .", ""},
				{"rg -g '*.go' KEY", ""},
				{"grep -r KEY a/1.go", ""},
			} {
				checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(tc.command)}), tc.want)
			}
		})
	}
}

// The walks' time limit is the real clock's; a test that is not about it
// must not depend on how loaded the machine is, so in tests the clock of a
// call's walks never runs out unless the test says so (TestProtectedTreeTooBig).
func init() {
	treeExpired = func() func() bool { return func() bool { return false } }
}

// TestProtectedTreeGit: readers that honour .gitignore pass over an
// ignored .env, and over a folder git ignores without spending the walk
// on it; git grep reads tracked files only.
func TestProtectedTreeGit(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	p := newProtected(t, "")
	gitIn(t, g.Project, "init", "-q")
	checktest.WriteFiles(t, g.Project, ".env", "src/a.go", ".gitignore")
	for i := range 40 {
		checktest.WriteFiles(t, g.Project, fmt.Sprintf("node_modules/m%d/index.js", i))
	}
	if err := os.WriteFile(filepath.Join(g.Project, ".gitignore"), []byte(".env\nnode_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	budget := treeBudget
	t.Cleanup(func() { treeBudget = budget })
	treeBudget = 30 // node_modules alone is over it
	bash := func(command, want string) {
		t.Helper()
		checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(command)}), want)
	}
	bash("rg --hidden KEY", "")
	bash("git grep --untracked KEY", "")
	bash("git grep KEY", "")
	bash("grep -r KEY src", "")
	// rg -uu reads ignored files: the walk finds .env before it runs out.
	bash("rg -uu KEY", treeDenial("rg", ".", ".env", "**/.env", "leave it out with -g '!.env', or "+othersHow))
	bash("rg -uu KEY node_modules", tooBigDenial("rg", "node_modules", "**/.env"))
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Grep", Input: `{"pattern":"KEY"}`}), "")
	treeBudget = budget
	bash("grep -r KEY .", treeDenial("grep -r", ".", ".env", "**/.env", "leave it out with --exclude=.env, or "+othersHow))
	gitIn(t, g.Project, "add", "-f", ".env")
	bash("git grep KEY", treeDenial("git grep", ".", ".env", "**/.env", "leave it out with ':(exclude).env', or "+othersHow))
	bash("git grep KEY -- src", "")
}

// BenchmarkProtectedTreeRead: `grep -r KEY .` in a project of 5,000 files
// (250 folders of 20) holding no protected file, walked whole each time.
func BenchmarkProtectedTreeRead(b *testing.B) {
	project, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for d := range 250 {
		dir := filepath.Join(project, fmt.Sprintf("pkg%d/sub", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 20 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	g := &checktest.GuardEnv{Project: project, Environ: []string{"HOME=" + checktest.TestHome}}
	t := &testing.T{}
	call := g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput("grep -r KEY .")})
	bi, err := NewProtectedPaths(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		v, err := bi.Check(context.Background(), call)
		if err != nil || v.Decision != "" {
			b.Fatalf("got %+v, %v; want a pass", v, err)
		}
	}
}

// git's list of names cut short at its cap is no answer: check-ignore,
// killed for printing too much, exits -1, which once read as an answer
// holding only the names before the cut.
func TestGitNamesCutShortIsNoAnswer(t *testing.T) {
	dir := checktest.RealTempDir(t)
	checktest.RealRepo(t, dir, map[string]string{".gitignore": "*.log\n"})
	names := make([]string, 0, 40000)
	for i := range 40000 {
		names = append(names, fmt.Sprintf("some/folder/name-%06d.log", i))
	}
	r := hookenv.GitRepo{Dir: dir}
	if out, ok := gitNames(t.Context(), r, names[:10], "check-ignore"); !ok || len(out) != 10 {
		t.Fatalf("10 ignored names: %d, %v", len(out), ok)
	}
	if out, ok := gitNames(t.Context(), r, names, "check-ignore"); ok {
		t.Errorf("40,000 ignored names (1.1 MB printed, past the 1 MiB cap): %d names, answered", len(out))
	}
}

// TestGitAddJudgedByGitNotWalk: what git add would stage is git's own list
// (ls-files), not a walk of the folder: a work tree past the walk's budget
// is judged as any other (a monorepo's git add . was denied as too big),
// and a committed key left as it is stages nothing new.
func TestGitAddJudgedByGitNotWalk(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	p := newProtected(t, "")
	checktest.WriteFiles(t, g.Project, "a/1.go", "a/2.go", "b/1.go", "certs/test.key", ".gitignore")
	if err := os.WriteFile(filepath.Join(g.Project, ".gitignore"), []byte(".env\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, g.Project, "init", "-q")
	gitIn(t, g.Project, "add", "-A")
	gitIn(t, g.Project, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "init")
	checktest.WriteFiles(t, g.Project, ".env", "a/3.go")
	budget := treeBudget
	t.Cleanup(func() { treeBudget = budget })
	treeBudget = 2
	for _, tc := range []struct{ command, want string }{
		{"git add .", ""},
		{"git add -A && git commit -m x", ""},
		{"git commit -am x", ""},
		{"git add -f .", treeDenial("git add", ".", ".env", "**/.env", "leave it out with ':(exclude).env', or "+othersHow)},
	} {
		checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(tc.command)}), tc.want)
	}
	if err := os.WriteFile(filepath.Join(g.Project, "certs/test.key"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput("git add .")}),
		treeDenial("git add", ".", "certs/test.key", "**/*.key", "leave it out with ':(exclude)test.key', or "+othersHow))
}
