// Package cli wires massgen-hook's subcommands. It is the only package that
// knows about cobra, the process environment and exit codes; everything
// below it takes readers, writers and values.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	// The binary is static and often runs in minimal containers with no
	// zoneinfo: embed it, so TZ is respected everywhere ("today" depends on it).
	_ "time/tzdata"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/internal/nats/natsaudit"
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

	// auditSink is the NATS copy of the audit trail, when configured
	// (see attachAuditSink); one per process.
	auditSink *natsaudit.Sink
}

// Main runs massgen-hook with args and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, environ: os.Environ, now: time.Now}
	return a.run(args)
}

func (a *app) run(args []string) int {
	var err error
	if s, ok := hookAlone(args); ok {
		// A hook runs on every tool call, and cobra's command, flags and
		// parse cost it a tenth of a millisecond with nothing to parse:
		// the hook runs as its command's RunE would, and a test holds the
		// two ways equal.
		err = a.runHook(context.Background(), s)
	} else {
		root := a.rootCommand(args)
		root.SetArgs(args)
		err = root.Execute()
	}
	a.closeAuditSink()
	report(a.stderr, err)
	return exitCode(err)
}

// subcommands are massgen-hook's subcommands, in the order help lists them.
// Each is named here so that a hook can build its own alone (see
// rootCommand); a test holds the names equal to the commands' own. (A
// function, not a variable: replay builds a root of its own.)
func subcommands() []subcommand {
	return []subcommand{
		{"init", setupGroup, (*app).initCommand, nil},
		{"uninstall", setupGroup, (*app).uninstallCommand, nil},
		{"doctor", setupGroup, (*app).doctorCommand, nil},
		{"config", setupGroup, (*app).configCommand, nil},
		{"version", setupGroup, (*app).versionCommand, nil},
		{"send", operatingGroup, (*app).sendCommand, nil},
		{"inbox", operatingGroup, (*app).inboxCommand, nil},
		{"round", operatingGroup, (*app).roundCommand, nil},
		{"explain", operatingGroup, (*app).explainCommand, nil},
		{"check", operatingGroup, (*app).checkCommand, nil},
		{"audit", operatingGroup, (*app).auditCommand, nil},
		{"replay", operatingGroup, (*app).replayCommand, nil},
		{"session-start", hooksGroup, nil, sessionStartHook},
		{"subagent-start", hooksGroup, nil, subagentStartHook},
		{"subagent-stop", hooksGroup, nil, subagentStopHook},
		{"stop", hooksGroup, nil, stopHook},
		{"permission-request", hooksGroup, nil, permissionRequestHook},
		{"pre-tool-use", hooksGroup, nil, preToolUseHook},
		{"post-tool-use", hooksGroup, nil, postToolUseHook},
		{"post-tool-use-failure", hooksGroup, nil, postToolUseFailureHook},
		{"observe-run", hooksGroup, (*app).observeRunCommand, nil},
	}
}

// The groups root help lists the commands in: what sets a project up,
// what a person runs while agents work, and what the agent CLIs run.
const (
	setupGroup     = "setup"
	operatingGroup = "operating"
	hooksGroup     = "hooks"
)

func commandGroups() []*cobra.Group {
	return []*cobra.Group{
		{ID: setupGroup, Title: "Set up a project:"},
		{ID: operatingGroup, Title: "While agents work:"},
		{ID: hooksGroup, Title: "Hooks (run by the agent CLIs; each reads one event as JSON on stdin):"},
	}
}

// subcommand is one of massgen-hook's commands: a hook is given by its
// hookSpec (hook), every other command by the function that builds it
// (make).
type subcommand struct {
	name  string
	group string
	make  func(*app) *cobra.Command
	hook  func() hookSpec
}

// build makes the command and puts it in its group.
func (sc subcommand) build(a *app) *cobra.Command {
	var cmd *cobra.Command
	if sc.hook != nil {
		cmd = a.hookCommand(sc.hook())
	} else {
		cmd = sc.make(a)
	}
	cmd.GroupID = sc.group
	return cmd
}

// hookAlone is the hook args name when they are that name and nothing
// else, as init wires every hook: with no flag to parse, no command tree
// is needed (see run).
func hookAlone(args []string) (hookSpec, bool) {
	if len(args) != 1 {
		return hookSpec{}, false
	}
	for _, sc := range subcommands() {
		if sc.hook != nil && sc.name == args[0] {
			return sc.hook(), true
		}
	}
	return hookSpec{}, false
}

// rootCommand builds the command tree for args. When args begin with a
// subcommand's name, only that subcommand is built: a hook runs on every
// tool call, and building the other seventeen (their flags, help and
// completion) would be paid on each. Anything else (no arguments, help,
// completion, a typo) gets the whole tree, so help and suggestions are
// complete.
func (a *app) rootCommand(args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "massgen-hook",
		Short: "Deterministic hooks for multi-agent sessions of AI coding agents",
		Long: `massgen-hook: deterministic hooks for multi-agent sessions in Claude Code (and
Gemini CLI, Codex, Cursor, Copilot CLI). It checks the filesystem and the
parsed command on every event, in a few milliseconds:

  - scratchpads enforced: a subagent cannot stop before it wrote its notes,
    the session cannot end before the coordinator logged what it delegated;
  - guards on every tool call: malformed calls, dangerous shell commands,
    protected paths (.env, keys, the hooks' own wiring);
  - messages into running agents, delivered exactly once (send, inbox);
  - your own rules (explain shows what they decide), and a CI check.

Start with "massgen-hook init" in your project, then "massgen-hook doctor".`,
		// The root runs only when no subcommand matched: an unknown
		// subcommand is a usage error (exit 2), or a hook's mistake when
		// it is a typo of the hook's name (unknownCommand).
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return a.unknownCommand(cmd, args[0], args)
		},
		SilenceUsage:               true,
		SilenceErrors:              true,
		CompletionOptions:          cobra.CompletionOptions{},
		SuggestionsMinimumDistance: suggestionDistance,
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	pf := root.PersistentFlags()
	pf.StringVar(&a.projectDir, "project-dir", "", "project root, taken as given (default: $CLAUDE_PROJECT_DIR, else found above the working directory or the event's cwd: the nearest with .claude/ or another CLI's folder, else the git top level)")
	pf.StringVar(&a.configPath, "config", "", "config file (default: $MASSGEN_HOOK_CONFIG, else <project>/.claude/massgen-hook.yaml)")
	pf.BoolVar(&a.failClosed, "fail-closed", false, "on an internal failure, block (exit 2) instead of letting the agent proceed")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		// A mistyped subcommand leaves its flags (--dialect, --agent) to
		// the root, which knows none: the name is the mistake to report.
		if i := commandWord(args); cmd == root && i >= 0 {
			return a.unknownCommand(root, args[i], args)
		}
		return a.usage(cmd, withFlagSuggestion(cmd, err))
	})
	if versionFirst(args) {
		// The version is all it prints, whatever follows (`--version
		// check` prints it too, as cobra's own flag did): the tree (every
		// command's flags, help and completion) would be built for nothing.
		a.versionFlag(root)
		return root
	}
	for _, sc := range subcommands() {
		if len(args) > 0 && sc.name == args[0] {
			root.AddGroup(commandGroups()...)
			root.AddCommand(sc.build(a))
			// `completion` is a sibling, not reachable from here.
			root.CompletionOptions.DisableDefaultCmd = true
			return root
		}
	}
	root.AddGroup(commandGroups()...)
	for _, sc := range subcommands() {
		root.AddCommand(sc.build(a))
	}
	a.versionFlag(root)
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

// unknownCommand is the error of name, in the command line args, naming
// no subcommand of root, with the commands it may be a typo of. A typo of a
// hook's name is that hook's command-line mistake (exit 1, the agent
// proceeds; see usage): it is a typo in a hook file, and must not block
// every tool call.
func (a *app) unknownCommand(root *cobra.Command, name string, args []string) error {
	err := fmt.Errorf("unknown command %q%s (see massgen-hook --help)", name, didYouMean(root, name))
	for _, name := range root.SuggestionsFor(name) {
		if sub, _, ferr := root.Find([]string{name}); ferr == nil {
			if event, ok := sub.Annotations[eventAnnotation]; ok {
				return &hookFailure{event: event, failClosed: a.failClosed || slices.Contains(args, "--fail-closed"),
					dialect: dialectIn(args), err: err}
			}
		}
	}
	return &usageError{err: err}
}

// commandWord is the index in args of the first word that is no root
// flag (--fail-closed, --project-dir DIR, --config FILE), or -1.
func commandWord(args []string) int {
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; {
		case arg == "--project-dir" || arg == "--config":
			i++
		case strings.HasPrefix(arg, "-"):
		default:
			return i
		}
	}
	return -1
}

// dialectIn is the dialect args name with --dialect, or nil (Claude Code).
func dialectIn(args []string) *dialect.Dialect {
	for i, arg := range args {
		name, ok := strings.CutPrefix(arg, "--dialect=")
		if !ok && arg == "--dialect" && i+1 < len(args) {
			name, ok = args[i+1], true
		}
		if d, err := dialect.Named(name); ok && err == nil {
			return d
		}
	}
	return nil
}

// suggestionDistance is how many edits a typo may be from the command it
// is suggested for (cobra's own default, which only its unused Args check
// would apply).
const suggestionDistance = 2

// didYouMean is ", did you mean X?" naming the subcommands of cmd that name
// is a typo of (cobra's Levenshtein distance of 2, or a prefix), or "".
func didYouMean(cmd *cobra.Command, name string) string {
	cmd.SuggestionsMinimumDistance = suggestionDistance
	s := cmd.SuggestionsFor(name)
	if len(s) == 0 {
		return ""
	}
	return fmt.Sprintf(", did you mean %s?", strings.Join(s, " or "))
}

// noArgs is the Args check of a command that takes none.
func noArgs(a *app) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 && cmd.HasSubCommands() {
			return a.usage(cmd, fmt.Errorf("unknown %s subcommand %q%s (see massgen-hook %s --help)", cmd.Name(), args[0], didYouMean(cmd, args[0]), cmd.Name()))
		}
		if len(args) > 0 {
			return a.usage(cmd, fmt.Errorf("%s takes no arguments, got %q", cmd.Name(), args))
		}
		return nil
	}
}

// versionFirst says args ask for the version first (--version or -v before
// anything else), and not for help too: help is the whole tree's.
func versionFirst(args []string) bool {
	if len(args) == 0 || args[0] != "--version" && args[0] != "-v" {
		return false
	}
	for _, arg := range args[1:] {
		if arg == "-h" || arg == "--help" {
			return false
		}
	}
	return true
}
