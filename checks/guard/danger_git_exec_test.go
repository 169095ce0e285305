package guard

import (
	"fmt"
	"slices"
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

func TestDangerGitRunsCommand(t *testing.T) {
	t.Parallel()
	g := checktest.NewGuardEnv(t)
	repo := dirtyRepo(t, g)
	checktest.GitRun(t, repo, "config", "alias.wipe", "!rm -rf ~")
	checktest.GitRun(t, repo, "config", "alias.discard", "checkout --")
	checktest.GitRun(t, repo, "config", "alias.hello", "!echo hello")
	d := newDanger(t, "")
	const id = "git-runs-command"
	home := "would delete the home directory (rule recursive-delete)"
	runs := func(cmd, inner, where string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, instead: insteadDeleteSpecific,
			what: fmt.Sprintf("`%s` makes git run `%s` (%s), and `%s` %s", cmd, inner, where, inner, home)}
	}
	// A denial quotes the git command, without the assignments before it.
	runsEnv := func(cmd, quoted, inner, where string) dangerCase {
		tc := runs(quoted, inner, where)
		tc.command = cmd
		return tc
	}
	unknown := func(cmd, where, raw string) dangerCase {
		return dangerCase{command: cmd, cwd: "repo", id: id, instead: "Write the command literally, or run it yourself instead of through git.",
			what: fmt.Sprintf("`%s` makes git run a command (%s) that cannot be known here: %s", cmd, where, raw)}
	}
	pass := func(cmd string) dangerCase { return dangerCase{command: cmd, cwd: "repo"} }
	runGitCases(t, g, d, []dangerCase{
		// Aliases: "!" runs a shell command line, anything else a git one.
		runs("git -c alias.x='!rm -rf ~' x", "rm -rf ~", "alias.x"),
		runs("git -c 'alias.x=!rm -rf ~' x arg", "rm -rf ~", "alias.x"),
		pass("git -c alias.x='!rm -rf ~' status"), // defined, not run
		pass("git -c alias.x='!echo hi' x"),
		pass("git -c alias.st=status st"),
		{command: "git -c alias.nuke='reset --hard' nuke", cwd: "repo", id: id, instead: insteadReset,
			what: "`git -c alias.nuke='reset --hard' nuke` makes git run `git reset --hard` (alias.nuke), and `git reset --hard` would throw away uncommitted changes to 3 tracked file(s) (a.txt, b.txt, c.txt) (rule git-reset-hard)"},
		// Aliases from the repository's configuration.
		runs("git wipe", "rm -rf ~", "alias.wipe"),
		{command: "git discard a.txt", cwd: "repo", id: id, instead: insteadDiscardPaths,
			what: "`git discard a.txt` makes git run `git checkout -- a.txt` (alias.discard), and `git checkout -- a.txt` would overwrite uncommitted changes to 1 file(s) (a.txt) (rule git-discard-changes)"},
		pass("git discard keep.txt"),
		pass("git hello"),
		pass("git lfs pull"),
		// Configuration keys whose value git runs.
		runs("git -c core.pager='rm -rf ~' log", "rm -rf ~", "core.pager"),
		runs("git -c core.editor='rm -rf ~' commit", "rm -rf ~", "core.editor"),
		runs("git -c sequence.editor='rm -rf ~' rebase -i HEAD~1", "rm -rf ~", "sequence.editor"),
		runs("git -c core.sshCommand='rm -rf ~' fetch", "rm -rf ~", "core.sshCommand"),
		runs("git -c core.fsmonitor='rm -rf ~' status", "rm -rf ~", "core.fsmonitor"),
		runs("git -c diff.external='rm -rf ~' diff", "rm -rf ~", "diff.external"),
		runs("git -c diff.x.textconv='rm -rf ~' log -p", "rm -rf ~", "diff.x.textconv"),
		runs("git -c filter.lfs.smudge='rm -rf ~' checkout main", "rm -rf ~", "filter.lfs.smudge"),
		runs("git -c credential.helper='!rm -rf ~' push", "rm -rf ~", "credential.helper"),
		runs("git -c gpg.program='rm -rf ~' commit -S", "rm -rf ~", "gpg.program"),
		runs("git -c pager.log='rm -rf ~' log", "rm -rf ~", "pager.log"),
		{command: "git -c core.pager='curl x | sh' log", cwd: "repo", id: id, instead: insteadPipe,
			what: "`git -c core.pager='curl x | sh' log` makes git run `curl x | sh` (core.pager), and curl | sh runs code downloaded by curl without anyone reading it (rule pipe-to-shell)"},
		pass("git -c core.pager=less log"),
		pass("git -c core.pager='less -R' log"),
		pass("git -c pager.log=false log"),
		pass("git -c core.fsmonitor=true status"),
		pass("git -c credential.helper=store push"),
		pass("git -c core.sshCommand='ssh -i ~/.ssh/deploy' fetch"),
		pass("git -c user.name='rm -rf ~' commit -m x"),
		unknown(`git -c core.pager="$P" log`, "core.pager", "$P"),
		// The environment.
		runsEnv("GIT_SSH_COMMAND='rm -rf ~' git fetch", "git fetch", "rm -rf ~", "GIT_SSH_COMMAND"),
		runsEnv("env GIT_PAGER='rm -rf ~' git log", "git log", "rm -rf ~", "GIT_PAGER"),
		runsEnv("GIT_EDITOR='rm -rf ~' git commit", "git commit", "rm -rf ~", "GIT_EDITOR"),
		runsEnv("GIT_EXTERNAL_DIFF='rm -rf ~' git diff", "git diff", "rm -rf ~", "GIT_EXTERNAL_DIFF"),
		runsEnv("sudo GIT_SEQUENCE_EDITOR='rm -rf ~' git rebase -i HEAD~1", "git rebase -i HEAD~1", "rm -rf ~", "GIT_SEQUENCE_EDITOR"),
		{command: "export GIT_PAGER='rm -rf ~'; git log", cwd: "repo", id: id, instead: insteadDeleteSpecific,
			what: "`git log` makes git run `rm -rf ~` (GIT_PAGER), and `rm -rf ~` " + home},
		runsEnv("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~' git log", "git log", "rm -rf ~", "core.pager"),
		runsEnv("P='rm -rf ~' git --config-env=core.pager=P log", "git --config-env=core.pager=P log", "rm -rf ~", "core.pager"),
		unknown("git --config-env core.pager=PAGER_OF_AGENT log", "core.pager", "$PAGER_OF_AGENT"),
		pass("GIT_EDITOR=true git commit"),
		pass("GIT_PAGER=cat git log"),
		pass("GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=no' git fetch"),
		pass("GIT_AUTHOR_NAME='rm -rf ~' git commit -m x"),
		{command: "GIT_CONFIG_PARAMETERS=\"'core.pager'='less'\" git log", cwd: "repo", id: id, instead: "Use git -c NAME=VALUE.",
			what: "`git log` sets git configuration through GIT_CONFIG_PARAMETERS, which is not read here"},
		{command: "GIT_EXEC_PATH=/tmp/x git status", cwd: "repo", id: id, instead: "Leave GIT_EXEC_PATH alone; run the program you mean directly.",
			what: "`git status` makes git run its own programs from /tmp/x (GIT_EXEC_PATH)"},
		{command: "git --exec-path=/tmp/x status", cwd: "repo", id: id, instead: "Leave --exec-path alone; run the program you mean directly.",
			what: "`git --exec-path=/tmp/x status` makes git run its own programs from /tmp/x"},
		pass("git --exec-path"),
		// Settings written for later commands.
		runs("git config alias.x '!rm -rf ~'", "rm -rf ~", "alias.x"),
		runs("git config --global core.editor 'rm -rf ~'", "rm -rf ~", "core.editor"),
		runs("git config --add core.pager 'rm -rf ~'", "rm -rf ~", "core.pager"),
		runs("git clone -c core.fsmonitor='rm -rf ~' https://example.com/r.git", "rm -rf ~", "core.fsmonitor"),
		pass("git config core.pager less"),
		pass("git config --get core.pager"),
		pass("git config --unset alias.wipe"),
		pass("git config user.name 'rm -rf ~'"),
		// Options whose argument git runs.
		runs("git fetch --upload-pack='rm -rf ~' origin", "rm -rf ~", "--upload-pack"),
		runs("git clone -u 'rm -rf ~' https://example.com/r.git", "rm -rf ~", "--upload-pack"),
		runs("git push --receive-pack='rm -rf ~' origin", "rm -rf ~", "--receive-pack"),
		runs("git push --exec='rm -rf ~' origin", "rm -rf ~", "--exec"),
		runs("git ls-remote --upload-pack 'rm -rf ~' origin", "rm -rf ~", "--upload-pack"),
		runs("git archive --remote=origin --exec='rm -rf ~' HEAD", "rm -rf ~", "--exec"),
		runs("git rebase -x 'rm -rf ~' main", "rm -rf ~", "--exec"),
		runs("git rebase --exec='rm -rf ~' main", "rm -rf ~", "--exec"),
		runs("git difftool -x 'rm -rf ~'", "rm -rf ~", "--extcmd"),
		runs("git grep -O'rm -rf ~' x", "rm -rf ~", "--open-files-in-pager"),
		runs("git submodule foreach 'rm -rf ~'", "rm -rf ~", "git submodule foreach"),
		runs("git submodule foreach --recursive rm -rf ~", "rm -rf ~", "git submodule foreach"),
		runs("git bisect run rm -rf ~", "rm -rf ~", "git bisect run"),
		pass("git rebase -x 'make test' main"),
		pass("git submodule foreach git pull"),
		pass("git bisect run make test"),
		pass("git fetch --upload-pack=git-upload-pack origin"),
		{command: "git -c protocol.ext.allow=always fetch origin", cwd: "repo", id: id, instead: "Leave the ext transport off; use an ssh or https remote.",
			what: "`git -c protocol.ext.allow=always fetch origin` lets ext:: remote URLs run commands (protocol.ext.allow)"},
		// Nested: a git command line inside one.
		{command: `git -c alias.x='!git -c alias.y="!rm -rf ~" y' x`, cwd: "repo", id: id, instead: insteadDeleteSpecific,
			what: "`git -c alias.x='!git -c alias.y=\"!rm -rf ~\" y' x` makes git run `git -c alias.y=\"!rm -rf ~\" y` (alias.x), and `git -c alias.y=\"!rm -rf ~\" y` makes git run `rm -rf ~` (alias.y), and `rm -rf ~` " + home + " (rule git-runs-command)"},
		{command: "git -c core.pager='rm -rf ~ (' log", cwd: "repo", id: id, instead: "Write the command in plain form, or run it yourself instead of through git.",
			what: "`git -c core.pager='rm -rf ~ (' log` makes git run a command (core.pager) that cannot be parsed: 1:10: a command can only contain words and redirects; encountered `(`"},
	})
	runDanger(t, g, newDanger(t, "off: [git-runs-command]"), dangerCase{command: "git -c core.pager='rm -rf ~' log", cwd: "repo"})
	runDanger(t, g, newDanger(t, "off: [recursive-delete]"), dangerCase{command: "git -c core.pager='rm -rf ~' log", cwd: "repo"})
}

// gitCommands is searched by halves: it must stay sorted, or a command
// added out of place is taken for an alias.
func TestGitCommands(t *testing.T) {
	if !slices.IsSorted(gitCommands) {
		t.Fatal("gitCommands is not sorted")
	}
	for _, c := range []string{"add", "status", "web--browse", "write-tree", "cherry-pick"} {
		if !isGitCommand(c) {
			t.Errorf("isGitCommand(%q) = false", c)
		}
	}
	for _, c := range []string{"", "st", "lg", "Status", "zzz", "a"} {
		if isGitCommand(c) {
			t.Errorf("isGitCommand(%q) = true", c)
		}
	}
}
