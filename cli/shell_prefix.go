package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
	"github.com/massgen/massgen-hook/install/wiring"
)

// ShellPrefixName is the file name of the copy of massgen-hook that Claude
// Code runs as CLAUDE_CODE_SHELL_PREFIX: started under that name, the
// binary is the prefix (it takes no subcommand: Claude Code passes the
// whole shell command as the one argument).
const ShellPrefixName = "massgen-hook-shell"

// ShellPrefixMain runs the prefix: args are what follows the program name.
// It replaces the process with the command (under bwrap, or not), so the
// command's exit code, output, working directory and background jobs are
// its own; it returns only when that fails.
func ShellPrefixMain(args []string) int {
	a := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, environ: os.Environ}
	return a.runShellPrefix(args)
}

func (a *app) runShellPrefix(args []string) int {
	if isExecForm(args) {
		return a.runShellExec(args[1:])
	}
	// The rewritten form (agentCommandFlag COMMAND) comes from a hook's
	// answer, never from a CLI running its own hooks: no hook line runs
	// unconfined there.
	hookLines := true
	if len(args) == 2 && args[0] == agentCommandFlag {
		args, hookLines = args[1:], false
	}
	if len(args) == 2 && args[0] == agentLineFlag {
		command, ok := keptCommand(args[1])
		if !ok {
			fmt.Fprintf(a.stderr, "%s: %s takes the line the pre-tool-use hook wrote, which this is not; the command did not run\n", ShellPrefixName, agentLineFlag)
			return 2
		}
		args, hookLines = []string{command}, false
	}
	if len(args) != 1 {
		fmt.Fprintf(a.stderr, "%s: want the shell command as one argument, got %d arguments\n", ShellPrefixName, len(args))
		return 2
	}
	argv, keep, notes := a.shellPrefixArgv(args[0], hookLines)
	for _, n := range notes {
		fmt.Fprintln(a.stderr, n)
	}
	err := syscall.Exec(argv[0], argv, a.environ())
	// The seccomp pipe must stay open up to the exec: a collected *os.File
	// closes its descriptor.
	runtime.KeepAlive(keep)
	fmt.Fprintf(a.stderr, "%s: cannot run %s: %v; the command did not run\n", ShellPrefixName, argv[0], err)
	return 126
}

// shellPrefixArgv decides how command runs: confined by bwrap, or as the
// shell alone where confinement is off, unavailable, or (hookLines: the
// prefix form, which Claude Code also runs its hooks through) the command
// is one of the hook commands the settings files wire. notes go to
// stderr.
//
// keep is the file whose descriptor argv hands to bwrap: the caller keeps
// it alive until the exec.
func (a *app) shellPrefixArgv(command string, hookLines bool) (argv []string, keep *os.File, notes []string) {
	shell := "/bin/bash"
	if _, err := os.Stat(shell); err != nil {
		if p, err := exec.LookPath("bash"); err == nil {
			shell = p
		} else {
			shell = "/bin/sh"
		}
	}
	plain := []string{shell, "-c", command}
	// The project init named in the settings (projectVar), never one
	// found from the directory the command starts in, which a cd chose.
	if named := a.getenv(projectVar); named != "" && a.projectDir == "" {
		a.projectDir = named
	}
	project, err := a.resolveProject("")
	if err != nil {
		return plain, nil, []string{fmt.Sprintf("%s: %v; the command runs unconfined", ShellPrefixName, err)}
	}
	home := a.getenv("HOME")
	// A command that is, byte for byte, a massgen-hook command wired in
	// Claude Code's settings files (user, project, local, managed) is
	// Claude Code running massgen-hook's hooks through the prefix: they
	// must write their runtime folder, so they run unconfined (the user's
	// other hooks run confined, see runsMassgenHook). An agent cannot use this to escape: Claude Code hands
	// the prefix a Bash command wrapped in its own text (the shell
	// snapshot it sources, eval of the command, then its pwd capture),
	// which no hook line equals; and were a command to arrive bare, what
	// runs is still only a line the user wrote, with the environment
	// Claude Code gives it (the agent's exports do not carry over).
	hooks := a.claudeHookCommands(project, home)
	if hookLines && slices.Contains(hooks, command) && runsMassgenHook(command) {
		return plain, nil, nil
	}
	path, required := config.Locate("", a.getenv("MASSGEN_HOOK_CONFIG"), project)
	cfg, err := config.Load(path, required)
	if err != nil {
		// The guards keep their defaults when the config is broken; so
		// does the sandbox.
		notes = append(notes, fmt.Sprintf("%s: %v; the command runs confined by the default policy", ShellPrefixName, err))
		cfg = config.Default()
	}
	if cfg.Confine.Off {
		return plain, nil, notes
	}
	p, err := confine.PolicyFor(&cfg, project, home, a.environ())
	if err != nil {
		notes = append(notes, fmt.Sprintf("%s: %v; the command runs confined by the default policy", ShellPrefixName, err))
		def := config.Default()
		p, _ = confine.PolicyFor(&def, project, home, a.environ())
	}
	st := a.stateDir(project)
	defer st.Close()
	avail := confine.Remembered(st, confine.LookupOutside(a.getenv, &p))
	if !avail.OK {
		return plain, nil, notes
	}
	// Inside another sandbox bubblewrap cannot nest in (Codex's own, in
	// its read-only and workspace-write modes), the command runs in that
	// one, as it would without massgen-hook: bwrap would only fail it.
	// Session start and doctor say which sandbox holds Codex's commands.
	if confine.InsideAnother(avail.Bwrap) {
		return plain, nil, notes
	}
	p.GuardFiles = append(p.GuardFiles, hookBinaries(hooks, project)...)
	p.Found = confine.FoundBefore(st)
	pl := p.Plan()
	confine.RememberFound(st, p.Found, pl)
	notes = append(notes, pl.Notes...)
	mask, err := confine.MaskFile(filepath.Join(st.Path, "confine"))
	if err != nil {
		mask = os.DevNull // reads as empty all the same
	}
	fd := -1
	if confine.UsesSeccomp(avail.Bwrap) {
		filter, err := confine.SeccompFile()
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("%s: %v; the command runs without the terminal filter", ShellPrefixName, err))
		case filter != nil:
			// Kept open across exec, for bwrap to read.
			if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, filter.Fd(), syscall.F_SETFD, 0); errno == 0 {
				fd, keep = int(filter.Fd()), filter
			}
		}
	}
	return confine.Argv(avail.Bwrap, pl, mask, fd, shell, command), keep, notes
}

// runsMassgenHook reports whether a hook line is one command that runs a
// massgen-hook binary (massgen-hook, massgen-hook-v2, by any path). Only
// those run unconfined: they must write their runtime folder. The user's
// other hooks (a formatter, a script of the project) run confined, as the
// agent's commands do: what they run may be what a confined command wrote
// in the project (the script, node_modules, a Makefile).
func runsMassgenHook(command string) bool {
	name, _ := commandWords(command)
	return name != "" && strings.HasPrefix(filepath.Base(name), "massgen-hook")
}

// claudeHookCommands are the command hooks of Claude Code's settings
// files that apply to project.
func (a *app) claudeHookCommands(project, home string) []string {
	files := []string{
		filepath.Join(project, ".claude", "settings.json"),
		filepath.Join(project, ".claude", "settings.local.json"),
		"/etc/claude-code/managed-settings.json",
	}
	if dir := a.getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		files = append(files, filepath.Join(dir, "settings.json"))
	} else if home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	var out []string
	for _, path := range files {
		f, err := wiring.Read(path)
		if err != nil || f == nil {
			continue
		}
		hs, _ := wiring.List(f, wiring.Grouped)
		for _, h := range hs {
			if h.Type == "command" && h.Command != "" {
				out = append(out, h.Command)
			}
		}
	}
	return out
}

// hookBinaries are the massgen-hook binaries the wired hooks run (the
// project's copy, a user-scope binary named by its path): the guards'
// own files, read-only in the sandbox even where confine.writable would
// make their folder writable.
func hookBinaries(commands []string, project string) []string {
	var out []string
	for _, c := range commands {
		for _, v := range []string{`"$CLAUDE_PROJECT_DIR"`, `"${CLAUDE_PROJECT_DIR}"`, "${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"} {
			c = strings.ReplaceAll(c, v, project)
		}
		prog := c
		switch {
		case strings.HasPrefix(c, "'"):
			prog, _, _ = strings.Cut(c[1:], "'")
		case strings.HasPrefix(c, `"`):
			prog, _, _ = strings.Cut(c[1:], `"`)
		default:
			prog, _, _ = strings.Cut(c, " ")
		}
		if filepath.IsAbs(prog) && strings.HasPrefix(filepath.Base(prog), "massgen-hook") {
			out = append(out, prog)
		}
	}
	return out
}
