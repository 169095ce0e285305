package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/checks"
	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
	"github.com/massgen/massgen-hook/state"
)

// eventAnnotation marks a cobra command as a hook and names its event.
const eventAnnotation = "massgen-hook/event"

// hookSpec describes one hook subcommand.
type hookSpec struct {
	use, short, long, example string
	event                     string
	decide                    func(ctx context.Context, env *hookenv.Env, ev *protocol.Event) (protocol.Output, error)
	// toolRules marks the tool hooks, which run the configured rules and
	// take --agent.
	toolRules bool
}

// hookCommand builds the cobra command of a hook subcommand.
func (a *app) hookCommand(s hookSpec) *cobra.Command {
	cmd := &cobra.Command{
		Use:         s.use,
		Short:       s.short,
		Long:        s.long + "\n\nReads one " + s.event + " event as JSON on stdin; writes nothing (no opinion) or one JSON object on stdout.",
		Example:     s.example,
		Annotations: map[string]string{eventAnnotation: s.event},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return a.usage(cmd, fmt.Errorf("%s takes no arguments (the event comes on stdin), got %q", s.use, args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runHook(cmd.Context(), s) },
	}
	if s.toolRules {
		cmd.Flags().StringVar(&a.agent, "agent", "", agentFlagHelp)
	}
	cmd.Flags().StringVar(&a.dialect, "dialect", "", "the agent CLI sending the event: "+strings.Join(dialect.Names(), ", ")+
		" (default: told from the event, else claude)")
	return cmd
}

const agentFlagHelp = "agent whose rules apply (default: $MASSGEN_AGENT_ID, else the event's agent_type, else the main thread: global rules only)"

// runHook reads the event, builds the environment, decides and answers. Any
// failure comes back as a *hookFailure, whose exit code says fail open or
// fail closed.
func (a *app) runHook(ctx context.Context, s hookSpec) error {
	failClosed := a.failClosed
	d, err := a.dialectFlag()
	fail := func(err error) error {
		return &hookFailure{event: s.event, failClosed: failClosed, dialect: d, err: err}
	}
	if err != nil {
		return fail(err)
	}
	if a.disabled(s) {
		return a.skipDisabled(s, d)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if isTerminal(a.stdin) {
		return fail(errors.New(s.use + " expects a hook event as JSON on stdin (pipe one in, e.g. echo '{}' | massgen-hook " + s.use + ")"))
	}
	raw, err := io.ReadAll(a.stdin)
	if err != nil {
		return fail(fmt.Errorf("reading hook input from stdin: %w", err))
	}
	detect := d == nil
	if detect {
		d = dialect.Detect(raw)
	}
	ev, native, evErr := readEvent(d, raw, s.event)
	if detect {
		d = d.Refine(ev)
	}
	cwd := ""
	if ev != nil && !d.ProjectFromHookDir {
		cwd = ev.Cwd
	}
	project, err := a.resolveProject(cwd, d.ProjectEnv)
	if err != nil {
		return fail(err)
	}
	if s.event == protocol.PostToolUse || s.event == protocol.PostToolUseFailure {
		a.unwrapShellCall(ev, d, project)
	}
	cfg, rules, cfgErr, err := a.hookConfig(project, s.event)
	if err != nil {
		return fail(err)
	}
	failClosed = failClosed || cfg.FailClosed
	if evErr != nil {
		if a.denyUnreadable(s.event, d, native, evErr) {
			return nil
		}
		return fail(evErr)
	}
	ctx, judgement, late := a.guardJudgement(ctx, s.event, d, native, ev, time.Duration(cfg.GuardTimeout))
	now, err := a.clock()
	if err != nil {
		stopJudgement(judgement)
		return fail(err)
	}
	if a.sandbox == "" {
		sb := &hookSandbox{}
		hookenv.SetGitSandbox(a.gitSandbox(project, &cfg, sb))
		engine.SetHandlerSandbox(a.handlerSandbox(project, &cfg, sb))
	}
	env := a.checksEnv(project, cfg, rules, now, ev, d)
	late.seen(env)
	defer env.State.Close() // after the answer and its audit line
	a.attachAuditSink(env.State, project, &cfg)
	out, err := s.decide(ctx, env, ev)
	if cfgErr != nil && err == nil {
		out = a.noteConfigError(env, ev, d, out, cfgErr)
	}
	if cfgErr == nil && err == nil {
		out = a.noteConfigNotices(env, ev, d, out, &cfg)
	}
	if err == nil && s.event == protocol.SessionStart && a.sandbox == "" {
		out = a.noteProtection(env, ev, d, out, &cfg)
	}
	if err == nil && s.event == protocol.PreToolUse && a.sandbox == "" {
		out = a.confineShellCall(env, ev, d, out, &cfg)
	}
	if err == nil && (s.event == protocol.PostToolUse || s.event == protocol.PostToolUseFailure) && a.sandbox == "" {
		out = a.noteSandboxStops(env, ev, d, out, &cfg)
	}
	stopJudgement(judgement)
	dropped := false
	if err == nil {
		dropped, err = d.Answer(a.stdout, a.stderr, native, s.event, out)
	}
	// What the answer handed over (inbox messages) is confirmed only when
	// it was written in full, else released for the next chance.
	env.Settle(err == nil && !dropped)
	a.record(env, ev, out, err, failClosed)
	if err != nil {
		return fail(err)
	}
	return nil
}

// readEvent turns raw, in d's dialect, into the Claude Code event the hook
// handles, and returns what the answer must know of the CLI's own event.
func readEvent(d *dialect.Dialect, raw []byte, want string) (*protocol.Event, dialect.Native, error) {
	claude, native, err := d.Event(raw, want)
	if err != nil {
		return nil, native, err
	}
	ev, err := protocol.ParseEvent(claude, want)
	return ev, native, err
}

// dialectFlag is --dialect; nil when it is not given, to detect.
func (a *app) dialectFlag() (*dialect.Dialect, error) {
	if a.dialect == "" {
		return nil, nil
	}
	return dialect.Named(a.dialect)
}

// loadConfig reads the project's configuration and compiles its rules: a
// rule naming an unknown built-in check is a configuration error like any
// other, found whichever command loads the file.
func (a *app) loadConfig(project string) (config.Config, *engine.Engine, error) {
	return a.loadRules(project, true)
}

// loadRules is loadConfig; unless want, the rules are compiled only when
// the config has rules of its own (to report their errors), and the
// engine returned is nil.
func (a *app) loadRules(project string, want bool) (config.Config, *engine.Engine, error) {
	path, required := config.Locate(a.configPath, a.getenv("MASSGEN_HOOK_CONFIG"), project)
	cfg, err := config.Load(path, required)
	if err != nil {
		return config.Config{}, nil, err
	}
	if !want && !cfg.HasRules() {
		return cfg, nil, nil
	}
	rules, err := engine.Compile(&cfg, checks.Builtins())
	if err != nil {
		return config.Config{}, nil, err
	}
	if !want {
		rules = nil
	}
	return cfg, rules, nil
}

// checksEnv is what the checks see of this invocation.
func (a *app) checksEnv(project string, cfg config.Config, rules *engine.Engine, now time.Time, ev *protocol.Event, d *dialect.Dialect) *hookenv.Env {
	return &hookenv.Env{
		Client:       engine.Client{PlainContext: d.PlainContext, JudgesRewrites: d.JudgesRewrites, ShapesOutput: d.ShapesOutput},
		Layout:       layoutOf(project, cfg),
		Config:       cfg,
		Now:          now,
		State:        a.stateDir(project),
		Notes:        a.stderr,
		Rules:        rules,
		Agent:        a.resolveAgent(ev, &cfg, project),
		Recipient:    a.resolveRecipient(ev, &cfg, project),
		Orchestrator: orchestratorOf(ev, a.getenv("MASSGEN_ORCHESTRATOR_ID")),
		Environ:      a.environ(),
		Detach:       a.detach,
		Replay:       a.sandbox != "",

		FileToolScratchpad: d.FileToolScratchpad,
		DelegationTool:     d.DelegationTool,
	}
}

// stateDir is the project's runtime directory, noting on stderr.
func (a *app) stateDir(project string) *state.Dir {
	d := state.Open(project)
	if a.sandbox != "" {
		d.Path, d.Anchor = a.sandbox, a.sandbox
	}
	d.Notes = a.stderr
	return d
}

// isTerminal reports whether r is an interactive terminal, where a hook
// would wait forever for an event nobody is going to type.
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// orchestratorOf is $MASSGEN_ORCHESTRATOR_ID, else a MassGen HookEvent's
// orchestrator_id.
func orchestratorOf(ev *protocol.Event, env string) string {
	if env == "" && ev != nil {
		return ev.Orchestrator
	}
	return env
}
