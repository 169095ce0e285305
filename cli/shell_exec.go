package cli

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"

	"github.com/massgen/massgen-hook/install/wiring"
)

// runShellExec is the wrapper's program form, for what is started with a
// program and its arguments rather than a command line (an MCP server a
// CLI starts, wired by init --confine-mcp):
//
//	massgen-hook-shell --exec [--project DIR] [--args-added] -- PROG ARGS...
//
// PROG runs with ARGS under the same sandbox plan as a confined Bash
// command of the project DIR (the one init named: a CLI starts an MCP
// server with its own small environment, without MASSGEN_HOOK_PROJECT),
// and replaces this process, so its stdin and stdout (the MCP stream) and
// exit code are its own. Where confinement is off or unavailable it runs
// unconfined, as a Bash command does, and says why on stderr (the CLI's
// log of the server). args follow --exec.
func (a *app) runShellExec(args []string) int {
	prog, project, err := parseShellExec(args)
	if err != nil {
		fmt.Fprintf(a.stderr, "%s --exec: %v; want --exec [--project DIR] -- PROG ARGS...\n", ShellPrefixName, err)
		return 2
	}
	if project != "" {
		a.projectDir = project
	}
	words := make([]string, len(prog))
	for i, w := range prog {
		words[i] = shellQuote(w)
	}
	// exec: the shell gives its process to PROG, as bwrap runs it.
	argv, keep, notes := a.shellPrefixArgv("exec "+strings.Join(words, " "), false) // no hook line: an MCP server
	for _, n := range notes {
		fmt.Fprintln(a.stderr, n)
	}
	err = syscall.Exec(argv[0], argv, a.environ())
	runtime.KeepAlive(keep) // the seccomp pipe stays open up to the exec
	fmt.Fprintf(a.stderr, "%s: cannot run %s: %v; %s did not start\n", ShellPrefixName, argv[0], err, prog[0])
	return 126
}

// parseShellExec reads the words after --exec: the program with its
// arguments, and the project named.
func parseShellExec(args []string) (prog []string, project string, err error) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--":
			if i+1 >= len(args) || args[i+1] == "" {
				return nil, "", fmt.Errorf("no program after --")
			}
			return args[i+1:], project, nil
		case wiring.ProjectFlag:
			if i+1 >= len(args) || args[i+1] == "" {
				return nil, "", fmt.Errorf("%s needs a folder", wiring.ProjectFlag)
			}
			project = args[i+1]
			i++
		case wiring.ArgsAdded:
			// init's note that the server had no args: nothing to run.
		default:
			return nil, "", fmt.Errorf("unknown word %q before --", args[i])
		}
	}
	return nil, "", fmt.Errorf("no -- before the program")
}

// isExecForm reports whether the wrapper was started in its program form.
func isExecForm(args []string) bool { return len(args) > 0 && args[0] == wiring.ExecFlag }
