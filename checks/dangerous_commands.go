package checks

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/shellcmd"
)

// dangerousCommands denies Bash commands that destroy work or the machine
// (default on). It judges the commands the shell would run, read by a real
// shell parser and unwrapped from sudo, env, xargs, bash -c and the like,
// so the same words inside a quoted string or an echo are not a command.
//
//	options:
//	  off: [git-reset-hard]       # switch rules off
//	  on: [git-no-verify]         # switch optional rules on
//	  protected_branches: [main, master, "release/*"]
//	  extra:                      # rules of your own
//	    - id: terraform-destroy
//	      command: terraform      # program name, a glob
//	      args: [destroy]         # each must match one of its arguments (globs)
//	      reason: terraform destroy needs a human
type dangerousCommands struct {
	on       map[string]bool
	branches []string
	extra    []extraRule
}

// dangerRule is one rule of the pack: it returns what is wrong with c and
// what to do instead, or "".
type dangerRule struct {
	id, about string
	// optional rules are off unless switched on.
	optional bool
	check    func(ctx context.Context, d *dangerCall, c *shellcmd.Command) (what, instead string)
}

// dangerRules is the pack, in the order they are tried.
var dangerRules = []dangerRule{
	{id: "recursive-delete", about: "rm -r of /, ~, the project root, a parent of it, or a path outside the project", check: recursiveDelete},
	{id: "git-push-protected", about: "git push --force or --delete (or +refspec, :refspec, --mirror) to a protected branch", check: pushProtected},
	{id: "git-reset-hard", about: "git reset --hard with uncommitted changes", check: resetHard},
	{id: "git-clean", about: "git clean -f that would delete untracked (with -x, ignored) files", check: gitClean},
	{id: "pipe-to-shell", about: "curl or wget output run by a shell or interpreter", check: pipeToShell},
	{id: "chmod-777-recursive", about: "chmod -R 777 (or a+rwx)", check: chmodRecursive777},
	{id: "fork-bomb", about: "a function that runs itself piped or in the background", check: forkBomb},
	{id: "device-write", about: "dd of=/dev/..., a redirection to a disk device, mkfs or wipefs", check: deviceWrite},
	{id: "git-no-verify", about: "git commit/push/merge --no-verify (skips the project's git hooks)", optional: true, check: noVerify},
}

type extraRule struct {
	ID      string   `yaml:"id"`
	Command string   `yaml:"command"`
	Args    []string `yaml:"args"`
	Reason  string   `yaml:"reason"`
}

type dangerOptions struct {
	Off               []string    `yaml:"off"`
	On                []string    `yaml:"on"`
	ProtectedBranches *[]string   `yaml:"protected_branches"`
	Extra             []extraRule `yaml:"extra"`
}

func newDangerousCommands(options *yaml.Node) (engine.Builtin, error) {
	var o dangerOptions
	if err := decodeOptions(options, &o); err != nil {
		return nil, err
	}
	d := &dangerousCommands{on: map[string]bool{}, branches: []string{"main", "master"}, extra: o.Extra}
	known := map[string]bool{}
	for _, r := range dangerRules {
		known[r.id] = true
		d.on[r.id] = !r.optional
	}
	// off first, then on: a rule in both is on.
	for _, l := range []struct {
		key string
		ids []string
	}{{"off", o.Off}, {"on", o.On}} {
		for _, id := range l.ids {
			if !known[id] {
				return nil, fmt.Errorf("%s: unknown rule %q (known: %s)", l.key, id, strings.Join(sortedKeys(known), ", "))
			}
			d.on[id] = l.key == "on"
		}
	}
	if o.ProtectedBranches != nil {
		d.branches = *o.ProtectedBranches
	}
	for _, b := range d.branches {
		if !doublestar.ValidatePattern(b) {
			return nil, fmt.Errorf("protected_branches: %q is not a valid glob", b)
		}
	}
	for i, e := range o.Extra {
		switch {
		case e.ID == "" || e.Command == "":
			return nil, fmt.Errorf("extra[%d]: give id and command", i)
		case known[e.ID]:
			return nil, fmt.Errorf("extra[%d]: id %q is a built-in rule", i, e.ID)
		}
		for _, p := range append([]string{e.Command}, e.Args...) {
			if _, err := path.Match(p, ""); err != nil {
				return nil, fmt.Errorf("extra[%d]: %q is not a valid glob", i, p)
			}
		}
		known[e.ID] = true
	}
	return d, nil
}

// dangerCall is the pack applied to one call.
type dangerCall struct {
	*dangerousCommands
	shellCall
	script *shellcmd.Script
	// notes says what went unchecked: a git that failed or hung must not
	// pass a command in silence.
	notes []string
}

// unchecked notes that rule could not look at git's state for c.
func (d *dangerCall) unchecked(c *shellcmd.Command, err error) {
	d.notes = append(d.notes, fmt.Sprintf("could not run git status for %s (%v); it went unchecked", quoteCmd(c), err))
}

func (d *dangerousCommands) Check(ctx context.Context, call *engine.Call) (engine.Verdict, error) {
	sc := shellCallOf(call)
	script, ok, err := bashScript(call, sc)
	if !ok {
		return engine.Verdict{}, nil
	}
	if err != nil {
		return engine.Verdict{Notes: []string{fmt.Sprintf("could not read the Bash command (%v); it went unchecked", err)}}, nil
	}
	dc := &dangerCall{dangerousCommands: d, shellCall: sc}
	dc.script = script
	for _, c := range script.Commands {
		for _, r := range dangerRules {
			if !d.on[r.id] {
				continue
			}
			if what, instead := r.check(ctx, dc, c); what != "" {
				return denyDanger(r.id, what, instead), nil
			}
		}
		for _, e := range d.extra {
			if e.matches(c) {
				reason := e.Reason
				if reason == "" {
					reason = "the project's rules forbid this command"
				}
				return denyDanger(e.ID, reason, "Find another way, or ask the user to run it."), nil
			}
		}
	}
	return engine.Verdict{Notes: dc.notes}, nil
}

func denyDanger(id, what, instead string) engine.Verdict {
	return engine.Verdict{Decision: engine.Deny,
		Reason:        fmt.Sprintf("⚠️ BLOCKED (dangerous command, rule %s): %s. %s", id, what, instead),
		SystemMessage: fmt.Sprintf("massgen-hook: blocked a dangerous command (%s).", id)}
}

func (e extraRule) matches(c *shellcmd.Command) bool {
	if ok, _ := path.Match(e.Command, c.Base()); !ok {
		return false
	}
	for _, want := range e.Args {
		found := false
		for _, a := range c.Args {
			if ok, _ := path.Match(want, a.Value); ok && a.Known {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// dir is where c runs: its own directory when known, else the call's.
func (d *dangerCall) dir(c *shellcmd.Command) string {
	if c.Dir != "" {
		return c.Dir
	}
	return d.cwd
}

// hasFlag reports whether c has any of the short letters (alone or in a
// cluster like -rf) or long options, before a "--". takesArg lists the
// command's short options that take an argument: in -m"msg" or -am"msg"
// the letters after m are the argument, and after a lone -m the next word
// is, so neither can be read as options.
func hasFlag(c *shellcmd.Command, short, takesArg string, long ...string) bool {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if !a.Known {
			continue
		}
		v := a.Value
		switch {
		case v == "--":
			return false
		case strings.HasPrefix(v, "--"):
			for _, l := range long {
				if v == l || strings.HasPrefix(v, l+"=") {
					return true
				}
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j, r := range v[1:] {
				if strings.ContainsRune(short, r) {
					return true
				}
				if strings.ContainsRune(takesArg, r) {
					if j == len(v)-2 {
						i++ // the argument is the next word
					}
					break
				}
			}
		}
	}
	return false
}

// Short options that take an argument, for hasFlag.
const (
	gitCommitArgs = "mFcCtSu"
	gitPushArgs   = "o"
	gitCleanArgs  = "e"
)

// operands are c's arguments that are not options.
func operands(c *shellcmd.Command) []shellcmd.Word {
	var out []shellcmd.Word
	ended := false
	for _, a := range c.Args {
		switch {
		case ended:
			out = append(out, a)
		case a.Known && a.Value == "--":
			ended = true
		case a.IsFlag():
		default:
			out = append(out, a)
		}
	}
	return out
}

func recursiveDelete(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	if c.Base() != "rm" || !hasFlag(c, "rR", "", "--recursive") {
		return "", ""
	}
	for _, w := range operands(c) {
		if !w.Known || w.Value == "" {
			continue
		}
		for _, target := range deleteTargets(w, d.dir(c)) {
			if what, instead := d.judgeDelete(c, resolveOperand(target, d.dir(c))); what != "" {
				return what, instead
			}
		}
	}
	return "", ""
}

// resolveOperand resolves an rm operand as rm treats it: a symlink named
// without a trailing slash is removed itself, its target left alone, so
// only the folders above it are resolved.
func resolveOperand(target, dir string) resolvedPath {
	if strings.HasSuffix(target, "/") {
		return resolve(target, dir)
	}
	rp := resolve(target, dir)
	if info, err := os.Lstat(rp.lexical); err == nil && info.Mode()&os.ModeSymlink != 0 {
		rp.real = filepath.Join(resolveSymlinks(filepath.Dir(rp.lexical)), filepath.Base(rp.lexical))
	}
	return rp
}

// deleteTargets are the paths an rm operand deletes: itself; for a glob
// that takes everything in a folder (*, .*, dir/*), that folder; for any
// other glob, what it matches now, as the shell would expand it.
func deleteTargets(w shellcmd.Word, dir string) []string {
	if !w.Glob {
		return []string{w.Value}
	}
	if base := path.Base(w.Value); base == "*" || base == ".*" || base == "**" {
		// The folder's contents go: a link to it is followed, like dir/.
		return []string{strings.TrimSuffix(globDir(w.Value), "/") + "/"}
	}
	pattern := w.Value
	if !filepath.IsAbs(pattern) && dir != "" {
		pattern = filepath.Join(escapeGlob(dir), pattern)
	}
	matches, _ := filepath.Glob(pattern)
	return matches
}

// judgeDelete says what is wrong with deleting rp recursively.
func (d *dangerCall) judgeDelete(c *shellcmd.Command, rp resolvedPath) (string, string) {
	const instead = "Delete only the specific files or folders you mean, inside the project."
	switch {
	case rp.real == "/" || rp.lexical == "/":
		return fmt.Sprintf("%s would delete the whole filesystem", quoteCmd(c)), instead
	case d.home != "" && (rp.lexical == filepath.Clean(d.home) || rp.real == resolveSymlinks(d.home)):
		return fmt.Sprintf("%s would delete the home directory", quoteCmd(c)), instead
	case rp.lexical == d.project.root || rp.real == d.project.real:
		return fmt.Sprintf("%s would delete the project itself (%s)", quoteCmd(c), d.project.root), instead
	case within(d.project.root, rp.lexical) || within(d.project.real, rp.real):
		return fmt.Sprintf("%s would delete %s, which holds the project (%s)", quoteCmd(c), rp.lexical, d.project.root), instead
	case !d.project.inside(rp) && !isTemp(rp):
		return fmt.Sprintf("%s deletes %s, outside the project", quoteCmd(c), rp.lexical), "Only delete inside the project (or under /tmp); ask the user to remove anything outside it."
	}
	return "", ""
}

// globDir is the directory a glob's matches live in: "*" is ".",
// "build/*.o" is "build", "/*" is "/".
func globDir(pattern string) string {
	dir := pattern
	for strings.ContainsAny(path.Base(dir), "*?[{") {
		next := path.Dir(dir)
		if next == dir {
			break
		}
		dir = next
	}
	if strings.ContainsAny(dir, "*?[{") {
		return "."
	}
	return dir
}

// isTemp reports whether rp, symlinks resolved, is inside a temporary
// folder: a link in /tmp that points at /etc is /etc.
func isTemp(rp resolvedPath) bool {
	for _, t := range []string{"/tmp", "/private/tmp", "/var/tmp", "/var/folders"} {
		if rp.real != t && within(rp.real, t) {
			return true
		}
	}
	return false
}

// gitCall is a git command line: its subcommand, the subcommand's
// arguments, and the repository directory (-C applied).
type gitCall struct {
	name string
	args []shellcmd.Word
	dir  string
}

// gitArgs reads a git command, skipping git's own options (-C dir,
// -c key=value, --git-dir=...). A -C that cannot be known makes the
// directory unknown, and then nothing is claimed about the repository.
func (d *dangerCall) gitArgs(c *shellcmd.Command) gitCall {
	if c.Base() != "git" {
		return gitCall{}
	}
	dir := d.dir(c)
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if !a.Known {
			return gitCall{}
		}
		switch {
		case a.Value == "-C" && i+1 < len(c.Args):
			i++
			if next := c.Args[i]; next.Known && dir != "" {
				dir = resolve(next.Value, dir).lexical
			} else {
				dir = ""
			}
		case a.Value == "-c" || a.Value == "--git-dir" || a.Value == "--work-tree" || a.Value == "--namespace":
			i++
		case strings.HasPrefix(a.Value, "-"):
		default:
			return gitCall{name: a.Value, args: c.Args[i+1:], dir: dir}
		}
	}
	return gitCall{}
}

func sub(c *shellcmd.Command, args []shellcmd.Word) *shellcmd.Command {
	cp := *c
	cp.Args = args
	return &cp
}

func pushProtected(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g := d.gitArgs(c)
	if g.name != "push" {
		return "", ""
	}
	p := sub(c, g.args)
	force := hasFlag(p, "f", gitPushArgs, "--force", "--force-with-lease", "--mirror")
	del := hasFlag(p, "d", gitPushArgs, "--delete")
	ops := operands(p)
	var refspecs []shellcmd.Word
	if len(ops) > 1 {
		refspecs = ops[1:]
	}
	if hasFlag(p, "", gitPushArgs, "--all", "--mirror") && (force || del) {
		return fmt.Sprintf("%s force-pushes every branch, %s included", quoteCmd(c), strings.Join(d.branches, " and ")), "Push your own branch without --force, and open a pull request."
	}
	if len(refspecs) == 0 {
		if !force {
			return "", ""
		}
		branch := d.branchIn(g.dir)
		if d.protectedBranch(branch) != "" {
			return fmt.Sprintf("%s force-pushes the current branch %q, which is protected", quoteCmd(c), branch), "Never rewrite a protected branch's history: push a new branch and open a pull request."
		}
		return "", ""
	}
	for _, r := range refspecs {
		if !r.Known {
			continue
		}
		spec := r.Value
		plus := strings.HasPrefix(spec, "+")
		spec = strings.TrimPrefix(spec, "+")
		src, dst, hasColon := strings.Cut(spec, ":")
		if !hasColon {
			dst = src
		}
		if dst == "HEAD" || dst == "" && !hasColon {
			dst = d.branchIn(g.dir)
		}
		dst = strings.TrimPrefix(dst, "refs/heads/")
		deleting := del || (hasColon && src == "")
		hit := d.protectedBranch(dst)
		if hit == "" {
			continue
		}
		dst = hit
		switch {
		case deleting:
			return fmt.Sprintf("%s deletes the protected branch %q on the remote", quoteCmd(c), dst), "Protected branches are never deleted from here; ask the user."
		case force || plus:
			return fmt.Sprintf("%s force-pushes the protected branch %q, rewriting its history", quoteCmd(c), dst), "Push without --force (pull and rebase or merge first), or push a new branch and open a pull request."
		}
	}
	return "", ""
}

// branchIn is the branch checked out in dir, "" when unknown.
func (d *dangerCall) branchIn(dir string) string {
	if dir == "" {
		return ""
	}
	return currentBranch(dir)
}

// protectedBranch returns the protected branch a push to branch reaches,
// "" if none. A wildcard refspec (refs/heads/*) reaches every branch that
// matches it.
func (d *dangerousCommands) protectedBranch(branch string) string {
	if branch == "" {
		return ""
	}
	for _, b := range d.branches {
		if ok, _ := doublestar.Match(b, branch); ok {
			return branch
		}
		if strings.Contains(branch, "*") {
			if ok, _ := doublestar.Match(branch, b); ok {
				return b
			}
		}
	}
	return ""
}

func resetHard(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	g := d.gitArgs(c)
	if g.name != "reset" || g.dir == "" || !hasFlag(sub(c, g.args), "", "", "--hard") {
		return "", ""
	}
	lines, err := gitStatus(ctx, g.dir, "--untracked-files=no")
	if err != nil {
		d.unchecked(c, err)
	}
	if len(lines) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would throw away uncommitted changes to %d tracked file(s) (%s)", quoteCmd(c), len(lines), statusPreview(lines)),
		"Commit or stash them first (git stash), or discard only the files you mean with git restore <file>."
}

func gitClean(ctx context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	gc := d.gitArgs(c)
	if gc.name != "clean" || gc.dir == "" {
		return "", ""
	}
	g := sub(c, gc.args)
	if !hasFlag(g, "f", gitCleanArgs, "--force") || hasFlag(g, "ni", gitCleanArgs, "--dry-run", "--interactive") {
		return "", ""
	}
	extra := []string{"--untracked-files=all"}
	ignored := hasFlag(g, "xX", gitCleanArgs)
	if ignored {
		extra = append(extra, "--ignored")
	}
	lines, err := gitStatus(ctx, gc.dir, extra...)
	if err != nil {
		d.unchecked(c, err)
		return "", ""
	}
	var doomed []string
	for _, l := range lines {
		if strings.HasPrefix(l, "?? ") || ignored && strings.HasPrefix(l, "!! ") {
			doomed = append(doomed, l)
		}
	}
	if len(doomed) == 0 {
		return "", ""
	}
	return fmt.Sprintf("%s would delete %d untracked or ignored file(s) for good (%s)", quoteCmd(c), len(doomed), statusPreview(doomed)),
		"Run it with -n first to see the list, and delete only what you mean (ignored files often include .env and local config)."
}

func statusPreview(lines []string) string {
	const show = 3
	var names []string
	for i, l := range lines {
		if i == show {
			names = append(names, fmt.Sprintf("and %d more", len(lines)-show))
			break
		}
		names = append(names, strings.TrimSpace(l[min(3, len(l)):]))
	}
	return strings.Join(names, ", ")
}

var downloaders = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true}

// interpreters run a script from stdin when given no script operand. Each
// maps to the short options that give the program on the command line
// instead (sh -c, python -c/-m, perl -e, node -e/-p, php -r).
var interpreters = map[string]string{
	"sh": "c", "bash": "c", "zsh": "c", "dash": "c", "ksh": "c", "mksh": "c", "fish": "c",
	"python": "cm", "python3": "cm", "python2": "cm", "perl": "eE", "ruby": "e", "node": "ep", "php": "r",
}

func pipeToShell(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	base := c.Base()
	_, isInterpreter := interpreters[base]
	runsCode := isInterpreter || base == "eval" || base == "source" || base == "."
	if !runsCode {
		return "", ""
	}
	// An argument built from a download: bash <(curl ...), sh -c "$(curl ...)", eval "$(wget ...)".
	for _, a := range c.Args {
		for _, in := range a.Inner {
			if downloaders[in.Base()] {
				return fmt.Sprintf("%s runs code downloaded by %s without anyone reading it", quoteCmd(c), in.Base()), instead
			}
		}
	}
	// A pipeline: curl ... | sh.
	if c.Stage == 0 || !isInterpreter || !readsScriptFromStdin(c, interpreters[base]) {
		return "", ""
	}
	for _, o := range d.script.Commands {
		if o.Pipeline == c.Pipeline && o.Stage < c.Stage && downloaders[o.Base()] {
			return fmt.Sprintf("%s | %s runs code downloaded by %s without anyone reading it", o.Base(), base, o.Base()), instead
		}
	}
	return "", ""
}

const instead = "Download the script to a file, read it, and run it only if it is what you expect (or ask the user to)."

// readsScriptFromStdin reports whether an interpreter takes its program
// from stdin: no program option (programFlags) and no script operand, or
// an explicit "-" or -s. Other options, such as a shell's -e, -x or
// -o pipefail, do not change where the program comes from.
func readsScriptFromStdin(c *shellcmd.Command, programFlags string) bool {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if !a.Known {
			return false
		}
		v := a.Value
		switch {
		case v == "-" || v == "-s" || v == "--":
			return true
		case strings.HasPrefix(v, "--"):
			if v == "--eval" || v == "--print" || v == "--command" {
				return false
			}
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.ContainsAny(v[1:], programFlags) {
				return false
			}
			if programFlags == "c" && strings.ContainsAny(v[len(v)-1:], "oO") {
				i++ // -o pipefail, -euo pipefail: the next word is the option's name
			}
		default:
			return false // a script file
		}
	}
	return true
}

func chmodRecursive777(_ context.Context, _ *dangerCall, c *shellcmd.Command) (string, string) {
	if c.Base() != "chmod" || !hasFlag(c, "R", "", "--recursive") {
		return "", ""
	}
	for _, w := range operands(c) {
		switch w.Value {
		case "777", "0777", "a+rwx", "ugo+rwx", "a=rwx", "ugo=rwx", "+rwx":
			return fmt.Sprintf("%s makes every file under it writable and executable by everyone", quoteCmd(c)),
				"Give only the permission needed to the file that needs it (e.g. chmod u+x script.sh)."
		}
	}
	return "", ""
}

func forkBomb(_ context.Context, _ *dangerCall, c *shellcmd.Command) (string, string) {
	if c.Func == "" || c.Name.Value != c.Func || !(c.Stages > 1 || c.Background) {
		return "", ""
	}
	return fmt.Sprintf("function %q runs copies of itself without end (a fork bomb)", c.Func), "Do not run it."
}

// safeDevices may be written to freely.
var safeDevices = []string{"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/*", "/dev/shm/**", "/dev/pts/*"}

func deviceWrite(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	base := c.Base()
	if strings.HasPrefix(base, "mkfs") || base == "wipefs" {
		return fmt.Sprintf("%s erases a filesystem", quoteCmd(c)), "Never format disks from here; ask the user."
	}
	for _, w := range c.Writes() {
		if !w.Known || !strings.HasPrefix(w.Value, "/dev/") {
			continue
		}
		safe := false
		for _, s := range safeDevices {
			if ok, _ := doublestar.Match(s, path.Clean(w.Value)); ok {
				safe = true
			}
		}
		if !safe {
			return fmt.Sprintf("%s writes straight to the device %s, destroying what is on it", quoteCmd(c), w.Value), "Never write to disk devices from here; ask the user."
		}
	}
	return "", ""
}

func noVerify(_ context.Context, d *dangerCall, c *shellcmd.Command) (string, string) {
	gc := d.gitArgs(c)
	g := sub(c, gc.args)
	switch {
	case gc.name == "commit" && hasFlag(g, "n", gitCommitArgs, "--no-verify"),
		(gc.name == "push" || gc.name == "merge" || gc.name == "rebase" || gc.name == "am") && hasFlag(g, "", "", "--no-verify"):
		return fmt.Sprintf("%s skips the project's git hooks", quoteCmd(c)), "Run it without --no-verify and fix what the hooks report."
	}
	return "", ""
}

// quoteCmd names a command in a denial: its program and first arguments.
func quoteCmd(c *shellcmd.Command) string {
	parts := []string{c.Name.Raw}
	for i, a := range c.Args {
		if i == 6 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, a.Raw)
	}
	return "`" + oneLine(strings.Join(parts, " "), 120) + "`"
}
