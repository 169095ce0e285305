package guard

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/analysis/shellcmd"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
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
	// rules is dangerRules: held here because a rule may judge a command
	// line inside another with the whole pack (git's pager, an alias).
	rules []dangerRule
	// switched holds the rules the options switch on or off; the others
	// are as the pack has them (see isOn).
	switched map[string]bool
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
	{id: unparsableRule, about: "a Bash command the parser cannot read (bash may still run it): rewrite it in plain form"},
	{id: "recursive-delete", about: "rm -r of /, ~, the project root, a parent of it, or a path outside the project", check: recursiveDelete},
	{id: "delete-uncommitted", about: "rm -r (or find -delete) of a folder whose tracked files have uncommitted changes", check: deleteUncommitted},
	{id: "git-push-protected", about: "git push --force or --delete (or +refspec, :refspec, --mirror) to a protected branch", check: pushProtected},
	{id: "git-reset-hard", about: "git reset --hard/--merge with uncommitted changes, or --hard/--merge/--keep leaving commits nothing else has", check: resetHard},
	{id: "git-clean", about: "git clean -f that would delete untracked (with -x, ignored) files", check: gitClean},
	{id: "git-discard-changes", about: "git checkout/restore of paths with uncommitted changes, git checkout -f/switch -f with changes, git rm -f of changed files", check: discardChanges},
	{id: "git-branch-delete", about: "git branch -D (or -f, -M), checkout -B, switch -C, update-ref -d, worktree add -B, a forced push or fetch to the repository itself (git push . :NAME) when commits only that branch has would be lost", check: branchDelete},
	{id: "git-stash-drop", about: "git stash drop/clear of stash entries that exist", check: stashDrop},
	{id: "git-worktree-remove", about: "git worktree remove --force of a worktree with changes or untracked files", check: worktreeRemove},
	{id: "git-expire-reflog", about: "git reflog expire/delete, gc --prune=DATE, prune when they would make commits unrecoverable", check: expireReflog},
	{id: "git-filter-branch", about: "git filter-branch and git filter-repo (rewrite every commit)", check: filterBranch},
	{id: "git-runs-command", about: "git configuration, environment and options that make git run a command line (-c core.pager=..., GIT_SSH_COMMAND, aliases with !, --upload-pack, rebase --exec): judged as commands, or denied when they cannot be read", check: gitRunsCommand},
	{id: "pipe-to-shell", about: "curl or wget output run by a shell or interpreter", check: pipeToShell},
	{id: "unknown-code", about: "a shell, eval or interpreter running code only known at run time (piped in, from a variable or a command's output, or a file the same command writes)", check: unknownCode},
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

func NewDangerousCommands(options *yaml.Node) (engine.Builtin, error) {
	var o dangerOptions
	if err := hookenv.DecodeOptions(options, &o); err != nil {
		return nil, err
	}
	d := &dangerousCommands{rules: dangerRules, branches: defaultProtectedBranches, extra: o.Extra}
	// The rule ids are looked up only for options that name rules: the
	// default pack, on every call of every project, builds no set of them.
	var known map[string]bool
	if len(o.Off) > 0 || len(o.On) > 0 || len(o.Extra) > 0 {
		known = packIDs()
	}
	// off first, then on: a rule in both is on.
	for _, l := range []struct {
		key string
		ids []string
	}{{"off", o.Off}, {"on", o.On}} {
		for _, id := range l.ids {
			if !known[id] {
				return nil, fmt.Errorf("%s: unknown rule %q (known: %s)", l.key, id, strings.Join(hookenv.SortedKeys(known), ", "))
			}
			if d.switched == nil {
				d.switched = map[string]bool{}
			}
			d.switched[id] = l.key == "on"
		}
	}
	if o.ProtectedBranches != nil {
		d.branches = *o.ProtectedBranches
		for _, b := range d.branches {
			if !doublestar.ValidatePattern(b) {
				return nil, fmt.Errorf("protected_branches: %q is not a valid glob", b)
			}
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

// defaultProtectedBranches are protected when protected_branches is not
// given. Every check shares them: never appended to.
var defaultProtectedBranches = []string{"main", "master"}

// packIDs is the set of the pack's rule ids.
func packIDs() map[string]bool {
	ids := make(map[string]bool, len(dangerRules))
	for _, r := range dangerRules {
		ids[r.id] = true
	}
	return ids
}

// isOn reports whether rule r of the pack runs: as the options switch it,
// else unless it is optional.
func (d *dangerousCommands) isOn(r *dangerRule) bool {
	if on, ok := d.switched[r.id]; ok {
		return on
	}
	return !r.optional
}

// ruleOn reports whether the pack's rule id runs.
func (d *dangerousCommands) ruleOn(id string) bool {
	for i := range d.rules {
		if d.rules[i].id == id {
			return d.isOn(&d.rules[i])
		}
	}
	return false
}

// dangerCall is the pack applied to one call.
type dangerCall struct {
	*dangerousCommands
	shellCall
	script *shellcmd.Script
	// notes says what went unchecked: a git that failed or hung must not
	// pass a command in silence.
	notes []string
	// depth counts the command lines judged inside one another (a git
	// alias or pager running commands).
	depth int
	// refused says why the rule being judged cannot look up what it
	// needs (failed): a denial of that rule, with what to do instead.
	refused, refusedInstead string
}

// failed reports whether a look at the repository for c failed. Outside
// any repository git would refuse c too, so that is a quiet pass. Any
// other failure is the rule's denial (refused): what c would throw away
// cannot be seen, and the agent can make the guard's git fail on purpose
// (a display setting git status refuses, which git reset never reads; more
// changes than a listing holds), so a failure must not pass c.
func (d *dangerCall) failed(c *shellcmd.Command, err error) bool {
	switch {
	case err == nil:
		return false
	case hookenv.NoRepo(err):
		return true
	}
	var search *hookenv.SearchRevError
	if errors.As(err, &search) {
		d.refuse(fmt.Sprintf("%s names a commit by searching commit messages (%s), which git matches as a regular expression by backtracking, so what it would throw away is not looked up", quoteCmd(c), search.Rev),
			"Name the commit by its hash, branch or tag.")
		return true
	}
	run := "git"
	var ge *hookenv.GitErr
	if errors.As(err, &ge) {
		run = "git " + ge.Sub
	}
	d.refuse(fmt.Sprintf("%s cannot be checked: %s, run to see what it would throw away, failed (%v)", quoteCmd(c), run, err),
		"Fix what makes git fail (git status shows it), or ask the user to run it.")
	return true
}

// refuse records the denial of the rule being judged, once.
func (d *dangerCall) refuse(what, instead string) {
	if d.refused == "" {
		d.refused, d.refusedInstead = what, instead
	}
}

func (d *dangerousCommands) Check(ctx context.Context, call *engine.Call) (engine.Verdict, error) {
	if v, found, err := d.dangerousTool(ctx, call); found {
		return v, err
	}
	sc := ShellCallOf(call)
	script, ok, err := bashScript(call, sc)
	if !ok {
		return engine.Verdict{}, nil
	}
	if err != nil {
		if d.ruleOn(unparsableRule) {
			return denyDanger(unparsableRule, unparsableWhat(err), unparsableInstead), nil
		}
		return engine.Verdict{Notes: []string{uncheckedNote(err)}}, nil
	}
	dc := &dangerCall{dangerousCommands: d, shellCall: sc}
	dc.script = script
	if id, what, instead := dc.judge(ctx); id != "" {
		return denyDanger(id, what, instead), nil
	}
	return engine.Verdict{Notes: dc.notes}, nil
}

// judge runs the pack on every command of d.script and returns the first
// denial: the rule's id, what is wrong and what to do instead.
func (d *dangerCall) judge(ctx context.Context) (id, what, instead string) {
	for _, c := range d.script.Commands {
		if ranByGitConfig(c) {
			continue // git-runs-command judges it, saying git runs it
		}
		for i := range d.rules {
			r := &d.rules[i]
			if !d.isOn(r) || r.check == nil {
				continue
			}
			if what, instead := r.check(ctx, d, c); what != "" {
				return r.id, what, instead
			}
			if d.refused != "" {
				return r.id, d.refused, d.refusedInstead
			}
		}
		for _, e := range d.extra {
			if e.matches(c) {
				reason := e.Reason
				if reason == "" {
					reason = "the project's rules forbid this command"
				}
				return e.ID, reason, "Find another way, or ask the user to run it."
			}
		}
	}
	return "", "", ""
}

// ranByGitConfig reports whether c is a command line git runs for a -c
// setting of its command line (shellcmd's gitLines).
func ranByGitConfig(c *shellcmd.Command) bool {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, shellcmd.GitConfigWrapper) {
			return true
		}
	}
	return false
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
// A rule that judges paths must not use it for a relative path when
// c.Dir is unknown (recursive-delete does not): it is a guess.
func (d *dangerCall) dir(c *shellcmd.Command) string {
	if c.Dir != "" {
		return c.Dir
	}
	return d.Cwd
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
	return "`" + hookenv.OneLine(strings.Join(parts, " "), 120) + "`"
}
