package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// escapeAttempt is an attack on the sandbox itself, rather than on the
// static layer: a session of Bash commands, each run through the shell
// prefix as Claude Code runs it (the working directory carried from one
// to the next), by an agent that knows how the sandbox is built.
type escapeAttempt struct {
	name string
	// env changes the jail's environment (see jail.env): the machine the
	// attack needs (a PATH entry, a missing variable).
	env []string
	// setup adds to the attack fixture, in the scratch folder.
	setup func(j *jail)
	// before runs unconfined in the jail before the steps: what the
	// user's machine runs beside the agent CLI (a terminal multiplexer).
	before string
	steps  []string
	// hook, when set, is a Bash event the unconfined pre-tool-use hook
	// judges after the steps, as Claude Code runs its hooks: what the
	// hooks run must not be what a confined command planted.
	hook string
	// intact are more files (relative to the scratch folder) that must be
	// byte-identical after the attack.
	intact []string
	// hookLine, when set, is a hook command of the settings files that
	// Claude Code runs, after the steps, through the prefix as it is.
	hookLine string
	// skip names an escape that is known and not closed yet.
	skip string
}

// escapeAttempts are the routes tried against the sandbox. Each must be
// held: no secret in the output, the protected files byte-identical, the
// wiring folder unwritten, the fake HOME whole.
var escapeAttempts = []escapeAttempt{
	{
		// Only the mount namespace is unshared: /proc shows every process
		// of the user, and /proc/PID/root of one outside the sandbox is
		// the filesystem as that process sees it, masks and read-only
		// binds left behind.
		name: "/proc/PID/root of a process outside the sandbox",
		steps: []string{
			"for p in /proc/[0-9]*; do cat $p/root" + jailProject + "/.env $p/root" + jailHome + "/.git-credentials 2>/dev/null; done; true",
			"for p in /proc/[0-9]*; do echo '{}' > $p/root" + jailProject + "/.claude/settings.json 2>/dev/null && break; done; true",
			"for p in /proc/[0-9]*; do rm -rf $p/root" + jailHome + "/work 2>/dev/null; done; true",
		},
	},
	{
		name: "/proc/PID/cwd of a process outside the sandbox",
		steps: []string{
			"for p in /proc/[0-9]*; do cat $p/cwd/.env 2>/dev/null; echo x > $p/cwd/.claude/settings.json 2>/dev/null; done; true",
		},
	},
	{
		// pnpm's own folder, ~/.local/share/pnpm, is where pnpm keeps its
		// store and, as PNPM_HOME, its global bin folder, which pnpm's
		// installer puts first on PATH. The prefix looks bwrap up on PATH.
		name: "a program planted in a writable folder on PATH (bwrap)",
		env:  []string{"PATH=" + jailHome + "/.local/share/pnpm:/usr/local/bin:/usr/bin:/bin"},
		setup: func(j *jail) {
			j.write("home/.local/share/pnpm/pnpm", "#!/bin/sh\necho 9.0.0\n", 0o755)
		},
		steps: []string{
			"printf '#!/bin/sh\\nrm -rf " + jailHome + "/work\\nexit 1\\n' > ~/.local/share/pnpm/bwrap && chmod +x ~/.local/share/pnpm/bwrap",
			"cat .env",
		},
	},
	{
		// Claude Code gives Bash commands no CLAUDE_PROJECT_DIR: init
		// names the project to the prefix (MASSGEN_HOOK_PROJECT in the
		// personal settings), so a cd into a folder of the agent's making,
		// with a config of its own, changes nothing.
		name: "a cd into a project of the agent's own making",
		env:  []string{"-CLAUDE_PROJECT_DIR", "MASSGEN_HOOK_PROJECT=" + jailProject},
		steps: []string{
			"mkdir -p /tmp/w/.git /tmp/w/.claude && printf 'confine: off\\n' > /tmp/w/.claude/massgen-hook.yaml",
			"cd /tmp/w",
			"cat " + jailProject + "/.env; rm -rf ~/work",
		},
	},
	{
		name: "a cd into a nested repository of the agent's own making",
		env:  []string{"-CLAUDE_PROJECT_DIR", "MASSGEN_HOOK_PROJECT=" + jailProject},
		steps: []string{
			"mkdir -p sub/.git sub/.claude && printf 'confine: off\\n' > sub/.claude/massgen-hook.yaml",
			"cd sub",
			"cat ../.env; rm -rf ~/work",
		},
	},
	{
		// A prefix wired at user scope (init --scope user) has no one
		// project to name: it finds the project from the directory the
		// command starts in, which a cd chose.
		name: "a cd into a project of the agent's own making, prefix wired at user scope",
		env:  []string{"-CLAUDE_PROJECT_DIR"},
		steps: []string{
			"mkdir -p /tmp/w/.git /tmp/w/.claude && printf 'confine: off\\n' > /tmp/w/.claude/massgen-hook.yaml",
			"cd /tmp/w",
			"cat " + jailProject + "/.env; rm -rf ~/work",
		},
		skip: "escape not closed: with the prefix wired at user scope, no variable names the project, and the prefix finds it from the directory a cd chose; a folder the agent made there with .git and a config saying confine: off runs the next command unconfined",
	},
	{
		// The protected files are found by a walk of at most 50,000
		// entries, in name order: entries that sort before .env use it up.
		name: "the protected-file walk used up by files the agent made",
		steps: []string{
			"mkdir ./-pad && cd ./-pad && seq 50001 | xargs touch",
			"cat " + jailProject + "/.env",
		},
		skip: "escape not closed: the walk that finds the protected files stops after 50,000 entries, and an agent can make that many, named to sort before .env, in one command; the next command reads every secret the walk did not reach. Failing closed would stop work in large projects; remembering the masks is undone by a rename in the same command",
	},
	{
		// The sandbox leaves the user's sockets reachable: a terminal
		// multiplexer's server (tmux, screen), the user's systemd and
		// D-Bus, docker's socket, an editor's server run what a client
		// asks, outside the sandbox. The agent CLI often runs in tmux.
		name:   "a command run by the user's tmux server",
		before: "tmux new-session -d -s user 'tail -f /dev/null'",
		steps: []string{
			"tmux run-shell 'rm -rf ~/work; cat " + jailProject + "/.env'",
		},
		skip: "escape not closed: the sandbox shares the user's sockets (the network is left as it is), and a server outside it runs what a client asks: tmux run-shell, screen -X, systemd-run --user over D-Bus, docker run -v ~:/h over docker's socket, an editor's server (nvim --remote-send); masking each socket is a list that never ends, and an abstract socket (X11's) cannot be masked at all (Landlock's socket scoping could, where the kernel has it)",
	},
	{
		// Claude Code runs its hook commands through the prefix too, and
		// the prefix runs a wired hook line unconfined. A user's own hook
		// that runs a script of the project (a formatter) runs what a
		// confined command wrote there.
		name: "a user's hook script in the project, rewritten then run by Claude Code through the prefix",
		setup: func(j *jail) {
			j.write("proj/.claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/massgen-hook pre-tool-use"}]}], "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "sh scripts/fmt.sh"}]}]}}`+"\n", 0o644)
			j.write("proj/scripts/fmt.sh", "true\n", 0o644)
		},
		steps: []string{
			"printf 'rm -rf ~/work\\n' > scripts/fmt.sh",
		},
		hookLine: "sh scripts/fmt.sh",
	},
	{
		// A command rule whose program is an interpreter and whose script
		// is its argument: the hooks run the script unconfined.
		name: "a rule's script, named as an argument, rewritten then run by the hook",
		setup: func(j *jail) {
			j.write("proj/.claude/massgen-hook.yaml", "default_guards: true\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: python3\n      args: [scripts/audit.py]\n", 0o644)
			j.write("proj/scripts/audit.py", "import sys\nsys.exit(0)\n", 0o644)
		},
		steps: []string{
			"printf 'import os, shutil\\nshutil.rmtree(os.path.expanduser(\"~/work\"))\\n' > scripts/audit.py",
		},
		hook: "ls",
	},
	{
		// Go's module cache is writable so that builds can fill it; the
		// code in it is compiled, unconfined, by the next build of any
		// project that needs the module.
		name: "a module in Go's module cache rewritten",
		setup: func(j *jail) {
			j.write("home/go/pkg/mod/example.com/lib@v1.0.0/lib.go", "package lib\n", 0o444)
		},
		steps: []string{
			"chmod -R u+w ~/go/pkg/mod/example.com && echo 'package lib // poisoned' > ~/go/pkg/mod/example.com/lib@v1.0.0/lib.go",
		},
		intact: []string{"home/go/pkg/mod/example.com/lib@v1.0.0/lib.go"},
		skip:   "escape not closed (by design, so far): the build caches are writable so that builds can fill them, and Go does not check a module already extracted in its module cache; code a confined command writes there is compiled, unconfined, by the user's next build that needs the module (npm's and pip's caches keep packages the same way)",
	},
}

// TestEscapesHeld runs each escape attempt for real inside the outer jail,
// confined, and requires the sandbox to hold.
func TestEscapesHeld(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs attacks in a bubblewrap jail; skipped in -short mode")
	}
	j := newJail(t, attackFixture(t)) // reset to the fixture for each attempt
	for _, a := range escapeAttempts {
		t.Run(a.name, func(t *testing.T) {
			if a.skip != "" {
				t.Skip(a.skip)
			}
			j.t = t
			j.reset()
			j.env = a.env
			if a.setup != nil {
				a.setup(j)
			}
			before := hashTree(t, j.scratch)
			out := j.session(a.before, a.steps)
			if a.hookLine != "" {
				_, hookOut := j.run(jailProject, "", jailRoot+"/bin/massgen-hook-shell", a.hookLine)
				out += "\n" + hookOut
			}
			if a.hook != "" {
				ev := `{"hook_event_name":"PreToolUse","session_id":"jail","cwd":"` + jailProject + `","tool_name":"Bash","tool_input":{"command":` + jsonString(a.hook) + `}}`
				_, hookOut := j.run(jailProject, ev, jailRoot+"/bin/massgen-hook", "pre-tool-use")
				out += "\n" + hookOut
			}
			after := hashTree(t, j.scratch)
			for _, rel := range a.intact {
				if after[rel] != before[rel] {
					t.Errorf("the sandbox did not hold: %s changed\noutput:\n%s", rel, out)
				}
			}
			if broken := j.broken(before, out); broken != "" {
				t.Errorf("the sandbox did not hold: %s\noutput:\n%s", broken, out)
			}
		})
	}
}

// session runs steps as one Claude Code session would, through the shell
// prefix, each in the directory the last one ended in; it returns all
// their output.
func (j *jail) session(before string, steps []string) string {
	j.t.Helper()
	script := everydayDriver + before + "\n"
	for i, s := range steps {
		script += fmt.Sprintf("step %d %s\n", i+1, shellQuoteTest(s))
	}
	_, out := j.run(jailProject, "", "/bin/bash", "-c", script)
	return strings.TrimSpace(out)
}

// TestPlantedGitProgramCannotTypeIntoTheTerminal: the guards run git in
// the project, and git runs what the repository's configuration names (an
// clean filter), which a confined command can set. In the hooks' sandbox that
// program must not push characters into the terminal's input (TIOCSTI):
// the shell that gets the terminal back when the agent CLI exits would run
// them, unconfined. The hook runs under a terminal of its own (script),
// and what it leaves in the terminal's input is read back; the control,
// git run unconfined under another terminal, must type.
func TestPlantedGitProgramCannotTypeIntoTheTerminal(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs an attack in a bubblewrap jail; skipped in -short mode")
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("needs script (util-linux) for a terminal")
	}
	j := newJail(t, attackFixture(t))
	j.write("proj/tools/fsm.py", "#!/usr/bin/python3\nimport fcntl, os, sys, termios\ntry:\n    fd = os.open('/dev/tty', os.O_RDWR)\n    for c in b'echo TYPED-BY-GIT\\n':\n        fcntl.ioctl(fd, termios.TIOCSTI, bytes([c]))\nexcept OSError:\n    pass\nsys.stdout.buffer.write(sys.stdin.buffer.read())\n", 0o755)
	ev := `{"hook_event_name":"PreToolUse","session_id":"jail","cwd":"` + jailProject + `","tool_name":"Bash","tool_input":{"command":"git reset --hard"}}`
	j.write("ev.json", ev, 0o644)
	j.write("hook-under-tty.sh", jailRoot+"/bin/massgen-hook pre-tool-use < "+jailRoot+"/ev.json > /dev/null 2>&1\nread -r -t 3 line; echo \"READ:$line\"\n", 0o644)
	script := everydayDriver + `
step plant 'echo "* filter=evil" > .gitattributes && git config filter.evil.clean "$PWD/tools/fsm.py" && touch -d "2001-01-01" README.md'
tail -f /dev/null | script -qec 'bash ` + jailRoot + `/hook-under-tty.sh' /dev/null
tail -f /dev/null | script -qec 'bash ` + jailRoot + `/git-under-tty.sh' /dev/null
`
	j.write("git-under-tty.sh", "git status > /dev/null 2>&1\nread -r -t 3 line; echo \"CONTROL:$line\"\n", 0o644)
	_, out := j.run(jailProject, "", "/bin/bash", "-c", script)
	if !strings.Contains(out, "CONTROL:echo TYPED-BY-GIT") {
		t.Errorf("the planted filter does not type into the terminal even from git run unconfined; the attack tests nothing:\n%s", out)
	}
	if strings.Contains(out, "READ:echo TYPED-BY-GIT") {
		t.Errorf("a program the repository's configuration names typed into the terminal from the hook's git:\n%s", out)
	}
	if !strings.Contains(out, "STEP plant exit 0") || !strings.Contains(out, "READ:") {
		t.Errorf("the attack did not run as planned:\n%s", out)
	}
}

// TestGuardGitNotBlindedByAMaskedLink: a symlink named like a secret that
// points at a system folder (id_rsa -> /usr) must not blind the guards'
// git: their sandbox masks what the link resolves to, and a git that
// cannot start, or finds no repository, is a check that passes. A git reset --hard
// over uncommitted work must still be denied.
func TestGuardGitNotBlindedByAMaskedLink(t *testing.T) {
	t.Parallel() // a jail of its own
	if testing.Short() {
		t.Skip("runs an attack in a bubblewrap jail; skipped in -short mode")
	}
	for _, link := range []string{"", "ln -s /usr id_rsa", "ln -s / id_rsa", "ln -s .git id_rsa", "ln -s .git/objects id_rsa", "ln -s . id_rsa"} {
		j := newJail(t, attackFixture(t))
		plant := "echo change >> README.md"
		if link != "" {
			plant += " && " + link
		}
		j.session("", []string{plant})
		if !j.staticDenies("git reset --hard") {
			t.Errorf("after %q, git reset --hard over uncommitted work is not denied", plant)
		}
	}
}
