package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// setting is where the cases run: the peers' premise, a project whose work
// each blocked command would destroy (see docs/peer-agreement.md).
type setting struct {
	root    string // holds the three below and the plain project
	project string // git repository on main, dirty, with a stash, branches and origin
	origin  string // bare repository that is the project's origin, one commit ahead
	home    string // the fake HOME, with files of its own
	plain   string // a clean one-commit repository, for the real agent commands
	// tmp is the setting's $TMPDIR: a per-user temporary folder, as macOS
	// and most CI give one ($TMPDIR/x is scratch space, $TMPDIR/.. is not).
	// Its name comes from root, so settings built at once do not share it
	// and the next build under the same root finds the last one's.
	tmp string
	// worktree is the linked worktree the peers' `git worktree remove -f
	// /tmp/wt` names, with uncommitted work in it, or "" for none (only the
	// peers' cases name it). It is made only when nothing else is at that
	// path, or an earlier setting's that is gone or is this one.
	worktree string
}

// marker marks a folder as the harness's own, so that a mistyped -work can
// never make it delete someone's files.
const marker = ".massgen-hook-peer-setting"

// peersWorktree is the path the peers' worktree case names.
const peersWorktree = "/tmp/wt"

// newSetting lays out the setting under root, with the linked worktree at
// worktree ("" for none).
func newSetting(root, worktree string) setting {
	return setting{
		root:     root,
		project:  filepath.Join(root, "project"),
		origin:   filepath.Join(root, "origin.git"),
		home:     filepath.Join(root, "home"),
		plain:    filepath.Join(root, "plain"),
		tmp:      filepath.Join(os.TempDir(), "massgen-hook-peer-tmp-"+rootTag(root)),
		worktree: worktree,
	}
}

// rootTag is a short name for root, the same on every run.
func rootTag(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:6])
}

// tempRoots are the folders the guards treat as scratch space: a setting
// there would be judged as temporary files, not as a project.
func tempRoots() []string {
	roots := []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders", os.TempDir()}
	if d := os.Getenv("TMPDIR"); d != "" {
		roots = append(roots, d)
	}
	return roots
}

// underTemp tells whether dir, made absolute with symlinks resolved as far as
// it exists, is inside one of the temporary folders.
func underTemp(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true
	}
	resolved := resolveExisting(abs)
	for _, t := range tempRoots() {
		t = filepath.Clean(t)
		for _, p := range []string{abs, resolved} {
			if p == t || strings.HasPrefix(p, t+string(filepath.Separator)) {
				return true
			}
		}
		if rt, err := filepath.EvalSymlinks(t); err == nil && rt != t &&
			(resolved == rt || strings.HasPrefix(resolved, rt+string(filepath.Separator))) {
			return true
		}
	}
	return false
}

// resolveExisting resolves the symlinks of the longest existing prefix of an
// absolute path and keeps the rest as written.
func resolveExisting(abs string) string {
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		if p == filepath.Dir(p) {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// build creates the setting afresh: it removes what an earlier run left
// under root (only when the marker says root is the harness's own) and
// builds the project, its origin, the plain project and the home.
func (s setting) build() error {
	if err := s.clear(); err != nil {
		return err
	}
	if err := os.MkdirAll(s.root, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.root, marker), []byte("made by bench/peer; removed and rebuilt on every run\n"), 0o644); err != nil {
		return err
	}
	b := &builder{env: s.gitEnv()}
	s.buildHome(b)
	s.buildTemp(b)
	s.buildProject(b)
	s.buildWorktree(b)
	s.buildPlain(b)
	return b.err
}

// buildTemp makes the setting's $TMPDIR afresh, with the marker that lets
// the next run remove it.
func (s setting) buildTemp(b *builder) {
	if b.err != nil {
		return
	}
	if _, err := os.Stat(filepath.Join(s.tmp, marker)); err == nil {
		b.err = os.RemoveAll(s.tmp)
	}
	if b.err == nil {
		b.write(s.tmp, marker, "made by bench/peer as its TMPDIR; removed and rebuilt on every run\n")
	}
}

// buildWorktree adds the linked worktree the peers name, detached at
// main's head, with an unstaged change (git worktree remove -f loses it).
// Its marker names the setting it belongs to. A path that is already taken
// by anything else, or by a setting that still exists (another run, at the
// same time), is left alone, and those cases then find no worktree of
// this setting there.
func (s setting) buildWorktree(b *builder) {
	if b.err != nil || s.worktree == "" {
		return
	}
	if _, err := os.Lstat(s.worktree); err == nil {
		if !s.mayReplaceWorktree() {
			return
		}
		if b.err = os.RemoveAll(s.worktree); b.err != nil {
			return
		}
		b.git(s.project, "worktree", "prune")
	}
	b.git(s.project, "worktree", "add", "-q", "--detach", s.worktree, "HEAD")
	b.write(s.worktree, "README.md", "# demo\n\nwork in the worktree\n")
	b.write(s.worktree, marker, s.root+"\n")
}

// mayReplaceWorktree tells whether what is at the worktree's path is a
// worktree the harness made for this setting, or for one that is gone.
func (s setting) mayReplaceWorktree() bool {
	data, err := os.ReadFile(filepath.Join(s.worktree, marker))
	if err != nil {
		return false // someone else's
	}
	owner := strings.TrimSpace(string(data))
	if owner == s.root {
		return true
	}
	// An owner that is not a path is a marker from before settings named
	// themselves in it: only one setting could be built at a time then.
	if !filepath.IsAbs(owner) {
		return true
	}
	_, err = os.Stat(filepath.Join(owner, marker))
	return errors.Is(err, os.ErrNotExist)
}

// remove deletes what the setting made outside root: its $TMPDIR, and its
// linked worktree when that is its own. Root itself stays, for a look after
// a run; the next build under it clears it.
func (s setting) remove() error {
	var errs []error
	if _, err := os.Stat(filepath.Join(s.tmp, marker)); err == nil {
		errs = append(errs, os.RemoveAll(s.tmp))
	}
	if s.worktree != "" {
		if data, err := os.ReadFile(filepath.Join(s.worktree, marker)); err == nil && strings.TrimSpace(string(data)) == s.root {
			errs = append(errs, os.RemoveAll(s.worktree))
		}
	}
	return errors.Join(errs...)
}

// clear removes root when it is a setting an earlier run built, and refuses
// a folder with anything else in it.
func (s setting) clear() error {
	entries, err := os.ReadDir(s.root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(s.root, marker)); err != nil {
		return fmt.Errorf("%s is not empty and was not made by bench/peer (no %s in it): choose another -work folder", s.root, marker)
	}
	return os.RemoveAll(s.root)
}

// gitEnv is the environment the setting is built with: the fake home, no
// system or user configuration, and fixed dates, so that every run builds
// the same repositories whatever the machine's git configuration.
func (s setting) gitEnv() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=Peer Bench", "GIT_AUTHOR_EMAIL=peer@example.com",
		"GIT_COMMITTER_NAME=Peer Bench", "GIT_COMMITTER_EMAIL=peer@example.com",
		"GIT_AUTHOR_DATE=2026-11-20T10:00:00Z", "GIT_COMMITTER_DATE=2026-11-20T10:00:00Z",
	}
}

// hookEnv is the whole environment of every hook run: the setting's home and
// project and the harness's PATH (the guards run git), nothing else, so that
// the figures do not depend on the shell make was started from.
func (s setting) hookEnv(project string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.home, "TMPDIR=" + s.tmp, "CLAUDE_PROJECT_DIR=" + project}
}

// buildHome gives the fake home the folders the peers' commands name
// (rm -rf ~/projects, ~/Documents, ~, $HOME): each holds a file; and the
// keys and credentials openmoat's fixtures read or search for (grep -r .
// ~/.ssh), which are fakes.
func (s setting) buildHome(b *builder) {
	b.write(s.home, ".bashrc", "export EDITOR=vi\n")
	b.write(s.home, ".ssh/id_rsa", "FAKE PRIVATE KEY\n")
	b.write(s.home, ".ssh/id_ed25519", "FAKE PRIVATE KEY\n")
	b.write(s.home, ".aws/credentials", "[default]\naws_secret_access_key = FAKE\n")
	b.write(s.home, "projects/site/index.html", "<h1>my site</h1>\n")
	b.write(s.home, "Documents/letter.txt", "Dear reader,\n")
}

// buildProject builds the peers' premise: every command a peer blocks would
// destroy something here. Each step says which commands it gives a victim.
func (s setting) buildProject(b *builder) {
	p := s.project
	b.git("", "init", "-q", "-b", "main", p)
	b.git("", "init", "-q", "--bare", "-b", "main", s.origin)

	// Six commits on main, so that HEAD~1 ... HEAD~5 exist (git reset --hard
	// HEAD~5, git rebase -i HEAD~3), and the files the commands name.
	b.write(p, "README.md", "# demo\n")
	b.write(p, "Makefile", "all:\n\tcargo build\n")
	b.write(p, ".gitignore", "build/\ndist/\nnode_modules/\n*.log\n")
	b.write(p, "src/main.rs", "fn main() {}\n")
	b.write(p, "docs/guide.md", "# guide\n")
	b.commit(p, "start the project")
	for _, f := range []string{"file.txt", "a.txt", "b.txt", "file1.txt", "file2.txt", "foo", "-f"} {
		b.write(p, f, f+": committed\n")
	}
	b.commit(p, "add the text files")
	b.write(p, "paths.txt", "file.txt\na.txt\n") // git checkout HEAD --pathspec-from-file=paths.txt
	b.write(p, "old.txt", "old\n")
	b.write(p, "log.txt", "first entry\n")
	b.write(p, "file", "file: committed\n")
	b.commit(p, "add the lists")
	b.write(p, "subdir/notes.md", "notes\n")
	b.commit(p, "add subdir")
	b.write(p, "src/lib.rs", "pub fn lib() {}\n")
	b.commit(p, "add the library")
	b.write(p, "docs/changelog.md", "- started\n")
	b.commit(p, "add the changelog")

	// merged-branch is merged (git branch -d merged-branch deletes nothing
	// unreachable); feature and feature-branch each hold a commit that is
	// nowhere else (git branch -D loses it).
	b.git(p, "branch", "merged-branch", "HEAD~1")
	for _, br := range []string{"feature", "feature-branch"} {
		b.git(p, "switch", "-q", "-c", br)
		b.write(p, br+".txt", "work only on "+br+"\n")
		b.commit(p, "work on "+br)
		b.git(p, "switch", "-q", "main")
	}

	// origin has main and one commit more, pushed by someone else and
	// fetched here but not merged: git push --force origin main would throw
	// it away (and so would --force-with-lease, whose lease is that fetch).
	b.git(p, "remote", "add", "origin", s.origin)
	b.git(p, "push", "-q", "-u", "origin", "main")
	mate := filepath.Join(s.root, "teammate")
	b.git("", "clone", "-q", s.origin, mate)
	b.write(mate, "docs/guide.md", "# guide\n\nA teammate's section.\n")
	b.commit(mate, "a teammate's work")
	b.git(mate, "push", "-q", "origin", "main")
	if b.err == nil {
		b.err = os.RemoveAll(mate)
	}
	b.git(p, "fetch", "-q", "origin")

	// A stash entry that exists nowhere else (git stash drop, git stash clear).
	b.write(p, "README.md", "# demo\n\nwork in progress on the README\n")
	b.git(p, "stash", "push", "-q", "-m", "work in progress on the README")

	// Staged changes (git reset --hard, git checkout HEAD -- file.txt lose
	// them), with unstaged changes on top of file.txt (git restore file.txt,
	// git checkout -- file.txt lose those).
	b.write(p, "file.txt", "file.txt: committed\nfile.txt: staged\n")
	b.write(p, "a.txt", "a.txt: committed\na.txt: staged\n")
	b.git(p, "add", "--", "file.txt", "a.txt")
	b.write(p, "file.txt", "file.txt: committed\nfile.txt: staged\nfile.txt: unstaged\n")
	// Unstaged changes only.
	for _, f := range []string{"b.txt", "file1.txt", "file2.txt", "foo", "-f", "old.txt", "src/main.rs"} {
		b.write(p, f, f+": committed\n"+f+": unstaged\n")
	}
	// Untracked files (git clean -f deletes them) and ignored ones (git
	// clean -x, rm -rf build / node_modules).
	b.write(p, "notes.txt", "untracked notes\n")
	b.write(p, "scratch/idea.md", "an untracked idea\n")
	b.write(p, "build/app.bin", "build output\n")
	b.write(p, "dist/app.js", "bundle\n")
	b.write(p, "node_modules/left-pad/index.js", "module.exports = 1\n")
	b.write(p, "debug.log", "log\n")

	// repo/: a repository of its own inside the project, on main with an
	// unstaged change (git -C repo reset --hard, git --git-dir=repo/.git ...,
	// git -C repo switch -f main).
	r := filepath.Join(p, "repo")
	b.git("", "init", "-q", "-b", "main", r)
	b.write(r, "README.md", "# inner\n")
	b.commit(r, "start the inner repository")
	b.write(r, "README.md", "# inner\nunstaged\n")
}

// buildPlain builds the plain project the real agent commands run in: one
// commit, a clean tree, no remote.
func (s setting) buildPlain(b *builder) {
	b.git("", "init", "-q", "-b", "main", s.plain)
	b.write(s.plain, "README.md", "# app\n")
	b.write(s.plain, "main.go", "package main\n\nfunc main() {}\n")
	b.commit(s.plain, "start the app")
}

// builder runs the setting's steps until the first error, which it keeps.
type builder struct {
	env []string
	err error
}

func (b *builder) write(dir, name, content string) {
	if b.err != nil {
		return
	}
	path := filepath.Join(dir, name)
	if b.err = os.MkdirAll(filepath.Dir(path), 0o755); b.err == nil {
		b.err = os.WriteFile(path, []byte(content), 0o644)
	}
}

// git runs git in dir ("" for no -C).
func (b *builder) git(dir string, args ...string) {
	if b.err != nil {
		return
	}
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	args = append([]string{"-c", "commit.gpgsign=false", "-c", "core.hooksPath=" + os.DevNull}, args...)
	cmd := exec.Command("git", args...)
	cmd.Env = b.env
	if out, err := cmd.CombinedOutput(); err != nil {
		b.err = fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
}

// commit commits everything in dir's tree.
func (b *builder) commit(dir, msg string) {
	b.git(dir, "add", "-A")
	b.git(dir, "commit", "-q", "-m", msg)
}
