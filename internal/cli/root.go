// Package cli wires massgen-hook's subcommands. It is the only package that
// knows about cobra, the process environment and exit codes; everything
// below it takes readers, writers and values.
package cli

import (
	"fmt"
	"io"
	"os"
	"time"
	// The binary is static and often runs in minimal containers with no
	// zoneinfo: embed it, so TZ is respected everywhere ("today" depends on it).
	_ "time/tzdata"

	"github.com/spf13/cobra"
)

// app is one invocation: its streams, environment, clock and global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	environ        func() []string
	now            func() time.Time

	projectDir string
	configPath string
	failClosed bool
	agent      string
	dialect    string

	// sandbox, when set, is replay's throwaway runtime directory: every
	// state.Dir of this run lives there instead of the project's, nothing
	// is detached and nothing is recorded.
	sandbox string
}

// Main runs massgen-hook with args and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, environ: os.Environ, now: time.Now}
	return a.run(args)
}

func (a *app) run(args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	err := root.Execute()
	report(a.stderr, err)
	return exitCode(err)
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "massgen-hook",
		Short: "Deterministic hooks for multi-agent Claude Code sessions",
		Long: `massgen-hook enforces the scratchpad protocol of multi-agent sessions with
filesystem checks. Claude Code runs its hook subcommands (see
settings.example.json); each reads one hook event as JSON on stdin and writes
its decision as JSON on stdout. "check" verifies a project in CI.`,
		// The root runs only when no subcommand matched: an unknown
		// subcommand is a usage error (exit 2) like any other.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return &usageError{err: fmt.Errorf("unknown command %q (see massgen-hook --help)", args[0])}
		},
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{},
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	pf := root.PersistentFlags()
	pf.StringVar(&a.projectDir, "project-dir", "", "project root (default: $CLAUDE_PROJECT_DIR, else the event's cwd, else the working directory)")
	pf.StringVar(&a.configPath, "config", "", "config file (default: $MASSGEN_HOOK_CONFIG, else <project>/.claude/massgen-hook.yaml)")
	pf.BoolVar(&a.failClosed, "fail-closed", false, "on an internal failure, block (exit 2) instead of letting the agent proceed")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return a.usage(cmd, err) })
	for _, c := range []*cobra.Command{
		a.sessionStartCommand(),
		a.subagentStartCommand(),
		a.subagentStopCommand(),
		a.stopCommand(),
		a.preToolUseCommand(),
		a.postToolUseCommand(),
		a.postToolUseFailureCommand(),
		a.roundCommand(),
		a.sendCommand(),
		a.inboxCommand(),
		a.observeRunCommand(),
		a.checkCommand(),
		a.doctorCommand(),
		a.explainCommand(),
		a.replayCommand(),
		a.initCommand(),
		a.uninstallCommand(),
		a.versionCommand(),
	} {
		root.AddCommand(c)
	}
	return root
}

// usage wraps a command-line mistake. On a hook subcommand it is a hook
// failure (exit 1, the agent proceeds): a typo in settings.json must not
// block every tool call.
func (a *app) usage(cmd *cobra.Command, err error) error {
	if event, ok := cmd.Annotations[eventAnnotation]; ok {
		return &hookFailure{event: event, failClosed: a.failClosed, err: err}
	}
	return &usageError{err: err}
}

// noArgs is the Args check of a command that takes none.
func noArgs(a *app) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return a.usage(cmd, fmt.Errorf("%s takes no arguments, got %q", cmd.Name(), args))
		}
		return nil
	}
}
