package shellcmd

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// lastGit parses src and reads its last command as git.
func lastGit(t *testing.T, src string) (Git, bool) {
	t.Helper()
	s := mustParse(t, src, testOpts)
	c := s.Commands[len(s.Commands)-1]
	return c.Git("")
}

// TestGitOwnOptions: git's own options are read as git 2.39 reads them:
// exactly (no prefixes), -C and -c only as a separate word, and an option
// git does not know leaves the directory unknown.
func TestGitOwnOptions(t *testing.T) {
	for _, tc := range []struct {
		src                 string
		sub, verb, dir      string
		repo, repoEnv, conf []string
		unknown, help       bool
	}{
		{src: "git status", sub: "status", dir: "/w"},
		{src: "git -C repo status", sub: "status", dir: "/w/repo"},
		{src: "git -C .. -C repo status", sub: "status", dir: "/repo"},
		{src: "git -C $R status", sub: "status"},
		{src: "cd $R && git status", sub: "status"},
		{src: "git -Crepo status", sub: "status", unknown: true},
		{src: "git -- reset --hard", sub: "reset", unknown: true},
		{src: "git --git-d=x status", sub: "status", unknown: true},
		{src: "git -c a.b=1 -c core.pager=less log", sub: "log", dir: "/w", conf: []string{"a.b=1", "core.pager=less"}},
		{src: "git -cfoo=bar reset --hard", sub: "reset", unknown: true},
		{src: "git --git-dir=repo/.git --work-tree repo reset --hard", sub: "reset", dir: "/w",
			repo: []string{"--git-dir=repo/.git", "--work-tree=repo"}},
		{src: "git --git-dir $G status", sub: "status"},
		{src: "git --git-dir=$G status", sub: "status"},
		{src: "git -c \"$K\" status", sub: "status", dir: "/w", conf: []string{"$K"}},
		{src: "git --bare --namespace=n log", sub: "log", dir: "/w", repo: []string{"--bare", "--namespace=n"}},
		{src: "GIT_DIR=.git GIT_WORK_TREE=$W git reset --hard", sub: "reset", repoEnv: []string{"GIT_DIR=.git"}},
		{src: "env GIT_DIR=x/.git git status", sub: "status", dir: "/w", repoEnv: []string{"GIT_DIR=x/.git"}},
		{src: "git --no-pager -P --literal-pathspecs log", sub: "log", dir: "/w"},
		{src: "git --help reset", sub: "help", help: true},
		{src: "git help reset", sub: "help", dir: "/w", help: true},
		{src: "git checkout -h", sub: "checkout", dir: "/w", help: true},
		{src: "git restore --help", sub: "restore", dir: "/w", help: true},
		{src: "git grep -h x", sub: "grep", dir: "/w"}, // grep's -h is its own
		{src: "git stash", sub: "stash", verb: "push", dir: "/w"},
		{src: "git stash -p", sub: "stash", verb: "push", dir: "/w"},
		{src: "git stash drop stash@{1}", sub: "stash", verb: "drop", dir: "/w"},
		{src: "git worktree remove -f ../wt", sub: "worktree", verb: "remove", dir: "/w"},
		{src: "git submodule --quiet foreach 'git pull'", sub: "submodule", verb: "foreach", dir: "/w"},
		{src: "git reflog", sub: "reflog", verb: "show", dir: "/w"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			g, ok := lastGit(t, tc.src)
			if !ok {
				t.Fatalf("not read as git")
			}
			if g.Sub != tc.sub || g.Verb != tc.verb || g.Dir != tc.dir || g.Unknown != tc.unknown || g.Help != tc.help {
				t.Errorf("sub %q verb %q dir %q unknown %v help %v; want %q %q %q %v %v",
					g.Sub, g.Verb, g.Dir, g.Unknown, g.Help, tc.sub, tc.verb, tc.dir, tc.unknown, tc.help)
			}
			if !slices.Equal(g.Repo, tc.repo) || !slices.Equal(g.RepoEnv, tc.repoEnv) {
				t.Errorf("repo %q env %q; want %q %q", g.Repo, g.RepoEnv, tc.repo, tc.repoEnv)
			}
			var conf []string
			for _, w := range g.Config {
				conf = append(conf, w.Value)
			}
			if !slices.Equal(conf, tc.conf) {
				t.Errorf("config %q, want %q", conf, tc.conf)
			}
		})
	}
	for _, src := range []string{"git", "git --exec-path", "git --version", "git $X reset --hard", "echo git reset"} {
		if g, ok := lastGit(t, src); ok && !g.Help {
			t.Errorf("%q read as git %q", src, g.Sub)
		}
	}
	g, ok := lastGit(t, "git --exec-path=/tmp/x status")
	if !ok || !g.HasExecPath || g.ExecPath.Value != "/tmp/x" {
		t.Errorf("--exec-path=DIR: %+v", g)
	}
}

// TestGitOptionTables: the subcommands' options are read as parse-options
// reads them: unique prefixes, bundles, attached values, optional values
// only attached, "no-" forms, options after operands, "--".
func TestGitOptionTables(t *testing.T) {
	type check struct {
		short byte
		long  string
		want  bool
	}
	for _, tc := range []struct {
		src      string
		checks   []check
		operands []string
		dashAt   int
	}{
		{src: "git reset --har", checks: []check{{0, "hard", true}}, dashAt: -1},
		{src: "git reset --m", checks: []check{{0, "mixed", true}, {0, "merge", true}}, dashAt: -1},
		{src: "git push --force-w origin main", checks: []check{{0, "force-with-lease", true}, {'f', "force", false}},
			operands: []string{"origin", "main"}, dashAt: -1},
		{src: "git push --del origin main", checks: []check{{'d', "delete", true}}, operands: []string{"origin", "main"}, dashAt: -1},
		{src: "git push -f --no-force origin main", checks: []check{{'f', "force", false}}, operands: []string{"origin", "main"}, dashAt: -1},
		{src: "git push --no-fo origin main", checks: []check{{'f', "force", false}}, operands: []string{"origin", "main"}, dashAt: -1},
		{src: "git clean --forc -d", checks: []check{{'f', "force", true}, {'d', "", true}}, dashAt: -1},
		{src: "git checkout -qf main", checks: []check{{'q', "quiet", true}, {'f', "force", true}}, operands: []string{"main"}, dashAt: -1},
		// -t takes an optional value, attached: -tf is --track=f, not -t -f.
		{src: "git checkout -tf main", checks: []check{{'t', "track", true}, {'f', "force", false}}, operands: []string{"main"}, dashAt: -1},
		{src: "git checkout --track direct main", checks: []check{{'t', "track", true}}, operands: []string{"direct", "main"}, dashAt: -1},
		{src: "git checkout --conflict merge main", checks: []check{{0, "conflict", true}}, operands: []string{"main"}, dashAt: -1},
		{src: "git checkout -bnew", checks: []check{{'b', "", true}}, dashAt: -1},
		{src: "git checkout HEAD -- a -f", operands: []string{"HEAD", "a", "-f"}, dashAt: 1},
		{src: "git checkout 2>/dev/null -- foo", operands: []string{"foo"}, dashAt: 0},
		{src: "git branch -Dv feature", checks: []check{{'D', "", true}, {'v', "verbose", true}}, operands: []string{"feature"}, dashAt: -1},
		{src: "git branch --contains x -d y", checks: []check{{'d', "delete", true}}, operands: []string{"y"}, dashAt: -1},
		{src: "git branch --with x y", operands: []string{"y"}, dashAt: -1},
		{src: "git restore -SW a", checks: []check{{'S', "staged", true}, {'W', "worktree", true}}, operands: []string{"a"}, dashAt: -1},
		{src: "git rm -rf --cached .", checks: []check{{'f', "force", true}, {0, "cached", true}}, operands: []string{"."}, dashAt: -1},
		{src: "git commit --no-verify --verify -m x", checks: []check{{0, "no-verify", false}}, dashAt: -1},
		{src: "git worktree remove --forc wt", checks: []check{{'f', "force", true}}, operands: []string{"wt"}, dashAt: -1},
		{src: "git gc --prune=now", checks: []check{{0, "prune", true}}, dashAt: -1},
		{src: "git gc --prune now", checks: []check{{0, "prune", true}}, operands: []string{"now"}, dashAt: -1},
		{src: "git grep -O'vim -c x' y", checks: []check{{'O', "open-files-in-pager", true}}, operands: []string{"y"}, dashAt: -1},
	} {
		t.Run(tc.src, func(t *testing.T) {
			g, ok := lastGit(t, tc.src)
			if !ok || !g.Known {
				t.Fatalf("not read with a table: %+v", g)
			}
			for _, ch := range tc.checks {
				if got := g.Line.On(ch.short, ch.long); got != ch.want {
					t.Errorf("On(%q, %q) = %v, want %v", ch.short, ch.long, got, ch.want)
				}
			}
			if got := showWords(g.Line.Operands); !slices.Equal(got, tc.operands) && len(got)+len(tc.operands) > 0 {
				t.Errorf("operands %q, want %q", got, tc.operands)
			}
			if g.Line.DashAt != tc.dashAt {
				t.Errorf("DashAt %d, want %d", g.Line.DashAt, tc.dashAt)
			}
		})
	}
	g, _ := lastGit(t, "git grep -O'vim -c x' y")
	if v := g.Line.Vals('O', "open-files-in-pager"); len(v) != 1 || v[0].Value != "vim -c x" {
		t.Errorf("grep -O value %q", showWords(v))
	}
}

// TestGitReadings: an option the table does not know may take the next
// word as its value, so both readings are offered.
func TestGitReadings(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want [][]string
	}{
		{"git checkout --unknown main file.txt", [][]string{{"main", "file.txt"}, {"file.txt"}}},
		{"git checkout --unknown -q main", [][]string{{"main"}, {"main"}}},
		{"git checkout --unknown=value main", [][]string{{"main"}}},
		{"git checkout -U3 main", [][]string{{"main"}}},
		{"git checkout -qU main a", [][]string{{"main", "a"}, {"a"}}},
		{"git checkout -q main a", [][]string{{"main", "a"}}},
	} {
		g, _ := lastGit(t, tc.src)
		var got [][]string
		for _, l := range g.Readings() {
			got = append(got, showWords(l.Operands))
		}
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%q: readings %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestGitTablesMatchGit: every option table lists exactly the long
// options the installed git 2.39 completes for the subcommand, and those
// that git completes with "=" take a value.
func TestGitTablesMatchGit(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("git", "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "git version 2.39.") {
		t.Skipf("the tables are git 2.39's; this is %q", strings.TrimSpace(string(out)))
	}
	repo := t.TempDir()
	if err := exec.Command("git", "init", "-q", repo).Run(); err != nil {
		t.Fatal(err)
	}
	for _, named := range gitOptions {
		key, table := named.name, named.table
		args := append(strings.Fields(key), "--git-completion-helper-all")
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		help, err := cmd.Output()
		if err != nil {
			t.Errorf("git %s: %v", strings.Join(args, " "), err)
			continue
		}
		table.compileLong()
		gits := map[string]bool{}
		for _, f := range strings.Fields(string(help)) {
			if f == "--" {
				continue
			}
			name, takes := strings.CutSuffix(strings.TrimPrefix(f, "--"), "=")
			gits[name] = true
			a, ok := table.long[name]
			switch {
			case !ok:
				t.Errorf("%s: git has --%s, the table does not", key, name)
			case takes && a != needArg:
				t.Errorf("%s: --%s takes a value", key, name)
			}
		}
		for _, name := range table.names {
			// git archive completes only the options it reads before
			// handing the rest to the archiver (--format, --prefix, ...).
			if !gits[name] && key != "archive" {
				t.Errorf("%s: the table has --%s, git does not", key, name)
			}
		}
	}
}
