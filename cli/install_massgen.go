package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/config"
)

// massgenCLI is an agent CLI MassGen runs for a backend type, and what
// MassGen (checked against config.MassGenVersion) does with the CLI's own
// settings when it runs an agent: whether the wiring init writes is read.
type massgenCLI struct{ backend, target, name, note string }

// massgenCLIs are MassGen's CLI backends, in the order init wires them.
// MassGen's other backends call a model's API from MassGen's own process,
// where only MassGen's Python hooks run.
var massgenCLIs = []massgenCLI{
	{"claude_code", "claude", "Claude Code", "MassGen starts Claude Code in the agent's workspace without settings files unless the backend sets " +
		"setting_sources (or enables skills): add setting_sources: [user] to the backend and wire with --scope user for its hooks to run"},
	{"codex", "codex", "Codex", "MassGen points CODEX_HOME at the agent's workspace .codex and rewrites hooks.json there every turn, " +
		"so Codex run by MassGen does not run this wiring; the hooks still read the agent's injection file when they run for it"},
	{"gemini_cli", "gemini", "Gemini CLI", "MassGen points GEMINI_HOME at the agent's workspace .gemini and writes its own settings.json there, " +
		"so Gemini CLI run by MassGen does not run this wiring; the hooks still read the agent's injection file when they run for it"},
}

// runInitMassGen is init --massgen FILE: it reads the MassGen config as
// the hooks will, wires each agent CLI its agents run (as init --agent
// does, in the scope given), and says, agent by agent, what runs where.
func (a *app) runInitMassGen(cmd *cobra.Command, o installOptions) error {
	if cmd.Flags().Changed("agent") {
		return a.usage(cmd, errors.New("--massgen wires the agent CLIs the MassGen config names; leave out --agent"))
	}
	file, err := filepath.Abs(o.massgen)
	if err != nil {
		return &usageError{err: err}
	}
	cfg, err := config.Load(file, true)
	if err != nil {
		return &usageError{err: fmt.Errorf("--massgen: %w", err)}
	}
	if !cfg.MassGen {
		return &usageError{err: fmt.Errorf("--massgen: %s is not a MassGen config: no agent's backend names its type (agents[].backend.type)", o.massgen)}
	}
	var targets []string
	for _, ag := range cfg.Agents {
		i := slices.IndexFunc(massgenCLIs, func(c massgenCLI) bool { return c.backend == ag.Backend.Type })
		if i < 0 {
			fmt.Fprintf(a.stdout, "massgen: agent %s (%s): not wired: it runs inside MassGen's process, where only MassGen's Python hooks run (a Python hook can pipe the event to massgen-hook)\n",
				ag.ID, backendName(ag.Backend.Type))
			continue
		}
		c := massgenCLIs[i]
		fmt.Fprintf(a.stdout, "massgen: agent %s (%s): %s wired; %s\n", ag.ID, ag.Backend.Type, c.name, c.note)
		if !slices.Contains(targets, c.target) {
			targets = append(targets, c.target)
		}
	}
	for _, c := range massgenCLIs {
		if !slices.Contains(targets, c.target) {
			continue
		}
		each := o
		each.agent, each.noStarterConfig = c.target, true
		if err := a.runInstall(cmd, each, false); err != nil {
			return err
		}
	}
	for _, n := range cfg.Notices {
		fmt.Fprintf(a.stdout, "note: %s\n", n)
	}
	fmt.Fprintf(a.stdout, "massgen: the hooks read %s only when MASSGEN_HOOK_CONFIG names it: start MassGen (or the agent CLI) with\n  MASSGEN_HOOK_CONFIG=%s\n",
		filepath.Base(file), shellQuote(file))
	return nil
}

func backendName(t string) string {
	if t == "" {
		return "no backend type"
	}
	return t
}
