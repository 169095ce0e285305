package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/checks/limits"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/inbox"
	"github.com/massgen/massgen-hook/state"
)

// roundCommand drives the round_timeout check from outside a session: an
// orchestrator starts each round and may ask for an answer now.
func (a *app) roundCommand() *cobra.Command {
	var session, agent string
	cmd := &cobra.Command{
		Use:   "round",
		Short: "Start a new round, or ask agents to wrap up now (round_timeout)",
		Long: `Drives the round_timeout check. "round start" starts a new round (its clock
from now, the later-round time limit); "round wrap-up" asks for an answer
now: the agent's next finished tool call carries the wrap-up warning, and
after the grace period every tool but the terminal ones is refused.

The session is --session, else the one whose hooks ran most recently in
this project. The agent is --agent, else $MASSGEN_AGENT_ID, else every
agent with a round in that session (the main thread if none has one).

Where no round_timeout rule runs (for --agent, or for any agent), nothing
would read the round: it is an error (exit 2) and nothing is recorded.`,
		Example: `  massgen-hook round start --session "$SESSION_ID"
  massgen-hook round wrap-up --agent agent_b`,
		// Runs only when no subcommand matched: a typo must not look like
		// success to the orchestrator that asked for a wrap-up.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &usageError{err: errors.New("round needs a subcommand: start or wrap-up")}
			}
			return &usageError{err: fmt.Errorf("unknown round subcommand %q%s (use start or wrap-up)", args[0], didYouMean(cmd, args[0]))}
		},
	}
	cmd.PersistentFlags().StringVar(&session, "session", "", "session id (default: the most recently active session)")
	cmd.PersistentFlags().StringVar(&agent, "agent", "", "agent (default: $MASSGEN_AGENT_ID, else every agent with a round)")
	sub := func(use, short, verb string, apply func(*state.Dir, string, string, time.Time) (int, error)) *cobra.Command {
		return &cobra.Command{
			Use:     use,
			Short:   short,
			Example: "  massgen-hook round " + use + " --agent agent_a",
			Args: func(_ *cobra.Command, args []string) error {
				if len(args) > 0 {
					return &usageError{err: fmt.Errorf("round %s takes no arguments, got %q", use, args)}
				}
				return nil
			},
			RunE: func(cmd *cobra.Command, _ []string) error {
				return a.runRound(session, agent, verb, apply)
			},
		}
	}
	cmd.AddCommand(
		sub("start", "Start the next round now", "started", limits.StartRound),
		sub("wrap-up", "Ask for an answer now", "asked to wrap up", limits.WrapUp),
	)
	return cmd
}

func (a *app) runRound(session, agent, verb string, apply func(*state.Dir, string, string, time.Time) (int, error)) error {
	from := "--agent"
	if agent == "" {
		agent, from = a.getenv("MASSGEN_AGENT_ID"), "$MASSGEN_AGENT_ID"
	}
	if agent != "" {
		if err := inbox.ValidName(from, agent); err != nil {
			return &usageError{err: err}
		}
	}
	st, now, err := a.commandState()
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, rules, err := a.loadConfig(st.Anchor) // the project
	if err != nil {
		return err
	}
	if !roundTimeoutRuns(rules, agent) {
		return &usageError{err: errNoRoundTimeout(cfg, agent)}
	}
	if session == "" {
		keys, err := st.Sessions()
		if err != nil {
			return fmt.Errorf("listing sessions in %s: %w", st.Path, err)
		}
		if len(keys) == 0 {
			return &usageError{err: errors.New("no session has run hooks in this project yet; give --session")}
		}
		session = keys[0]
	}
	records := []string{limits.RoundRecordName(agent)}
	if agent == "" {
		found, err := limits.RoundRecords(st, session)
		if err != nil {
			return fmt.Errorf("listing rounds of session %s: %w", session, err)
		}
		if len(found) > 0 {
			records = found
		}
	}
	for _, rec := range records {
		n, err := apply(st, session, rec, now)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "session %s: %s: round %d %s\n", state.Key(session), rec, n, verb)
	}
	return nil
}

// roundTimeoutRuns reports whether a round_timeout rule runs for agent, or
// for anyone (the main thread or an agent with rules) when agent is "": a
// round clock nothing reads would make round look like it worked.
func roundTimeoutRuns(rules *engine.Engine, agent string) bool {
	agents := []string{agent}
	if agent == "" {
		agents = append([]string{""}, rules.Agents()...)
	}
	for _, who := range agents {
		for _, event := range engine.Events {
			for _, c := range rules.Candidates(event, who, "") {
				if r := c.Rule; r.Type == config.TypeBuiltin && r.Handler == "round_timeout" && !c.Overridden && !r.Disabled {
					return true
				}
			}
		}
	}
	return false
}

func errNoRoundTimeout(cfg config.Config, agent string) error {
	who := "any agent"
	if agent != "" {
		who = fmt.Sprintf("agent %q", agent)
	}
	where := cfg.Path
	if where == "" {
		where = "the config (none found: built-in defaults)"
	}
	return fmt.Errorf("no round_timeout rule runs for %s in %s, so a round would change nothing; "+
		"configure it under hooks.PreToolUse (type: builtin, handler: round_timeout; see \"Round timeout\" in docs/guards.md)", who, where)
}
