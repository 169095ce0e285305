package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/dialect"
	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/internal/corpus"
	"github.com/massgen/massgen-hook/protocol"
)

type explainOptions struct {
	tool, event, input string
	format             *formatFlag
	noRun              bool
}

func (a *app) explainCommand() *cobra.Command {
	var o explainOptions
	cmd := &cobra.Command{
		Use:   "explain",
		Short: "Show which rules match a tool call, what each decides, and the final output",
		Long: `Reads a PreToolUse, PostToolUse or PostToolUseFailure event on stdin, or a
recording of one (a file of the record: corpus, as replay reads it), or
builds one from --tool, --event and --input, and shows the rules considered
for it in order: which match and which do not, what each decided and why,
how long it took, and the output the hook would print.

A recording is explained as replay runs it: at its recorded_at, as its
recorded agent (unless --agent names another), and its recorded decision is
shown beside today's.

It runs the matching command handlers, since that is the only way to know
what they decide, but writes no audit line and changes no state (budgets,
failure streaks and round clocks are read, not counted). --no-run lists the
rules only.`,
		Example: `  massgen-hook explain --tool Bash --input '{"command":"rm -rf /"}'
  massgen-hook explain --tool Write --input '{"file_path":"notes.md","content":"hi"}' --agent reviewer
  massgen-hook explain < event.json
  massgen-hook explain < .claude/massgen-hook/corpus/20261120T090000.000000001Z-PreToolUse-4242.json`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runExplain(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.tool, "tool", "", "explain a call of this tool instead of reading an event")
	f.StringVar(&o.event, "event", "", "PreToolUse, PostToolUse or PostToolUseFailure (default: the event's, else PreToolUse)")
	f.StringVar(&o.input, "input", "", "with --tool (required): the tool input as a JSON object, e.g. '{\"command\":\"ls\"}'")
	f.StringVar(&a.agent, "agent", "", agentFlagHelp)
	f.BoolVar(&o.noRun, "no-run", false, "list the rules without running them")
	o.format = addFormatFlag(cmd, false, "text", "json")
	return cmd
}

// explanation is explain's answer; the json format prints it as it is.
type explanation struct {
	Event     string `json:"event"`
	Tool      string `json:"tool"`
	Agent     string `json:"agent"`
	AgentFrom string `json:"agent_from"`
	// KnownAgent is set when the config has rules for Agent.
	KnownAgent bool `json:"known_agent"`
	// Agents are the agents with rules of their own.
	Agents []string        `json:"agents_with_rules"`
	Config string          `json:"config"`
	Rules  []explainedRule `json:"rules"`
	Ran    bool            `json:"ran"`
	Output json.RawMessage `json:"output"`
	// Recorded is the decision a recording holds, when a recording was
	// explained.
	Recorded *corpus.Verdict `json:"recorded,omitempty"`
	// DisabledBy names the variable that switches this event's hook off
	// where explain runs: the hook would decide nothing at all.
	DisabledBy string `json:"disabled_by,omitempty"`
}

type explainedRule struct {
	engine.HookRecord
	Where      string `json:"where"`
	Matcher    string `json:"matcher"`
	Matches    bool   `json:"matches"`
	Overridden bool   `json:"overridden"`
	Disabled   bool   `json:"disabled"`
	Applies    bool   `json:"applies"`
	Summary    string `json:"-"`
}

func (r explainedRule) applies() bool { return r.Applies }

func (a *app) runExplain(cmd *cobra.Command, o explainOptions) error {
	format, err := o.format.get(cmd)
	if err != nil {
		return a.usage(cmd, err)
	}
	if o.event != "" && o.event != protocol.PreToolUse && o.event != protocol.PostToolUse && o.event != protocol.PostToolUseFailure {
		return a.usage(cmd, fmt.Errorf("--event %q: use PreToolUse, PostToolUse or PostToolUseFailure", o.event))
	}
	ev, rec, err := a.explainEvent(o)
	if err != nil {
		return &usageError{err: err}
	}
	project, err := a.resolveProject(ev.Cwd)
	if err != nil {
		return &usageError{err: err}
	}
	cfg, rules, err := a.loadConfig(project)
	if err != nil {
		return err
	}
	now, err := a.clock()
	if err != nil {
		return &usageError{err: err}
	}
	agentFrom := a.agentSource(ev, &cfg, project)
	if rec != nil {
		// As replay runs it: at its time, as its agent.
		if now, err = rec.Time(); err != nil {
			return &usageError{err: err}
		}
		if a.agent == "" && rec.Agent != "" {
			a.agent, agentFrom = rec.Agent, "the recording"
		}
	}
	env := a.checksEnv(project, cfg, rules, now, ev, dialect.Claude)
	env.DryRun = true
	env.State.ReadOnly = true
	env.Detach = nil
	x := explanation{Event: ev.HookEventName, Tool: ev.ToolName, Agent: env.Agent, AgentFrom: agentFrom, KnownAgent: rules.KnowsAgent(env.Agent), Agents: rules.Agents(), Config: cfg.Path}
	if rec != nil {
		x.Recorded = &rec.Decision
	}
	if a.disabled(hookSpec{use: toolHookName(ev.HookEventName), event: ev.HookEventName}) {
		x.DisabledBy = disableEnv + "=" + a.getenv(disableEnv)
	}
	if x.Config == "" {
		x.Config = "(none: built-in defaults)"
	}
	for _, c := range rules.Candidates(ev.HookEventName, env.Agent, ev.ToolName) {
		x.Rules = append(x.Rules, explainedRule{
			HookRecord: engine.HookRecord{Name: c.Rule.Name, Type: c.Rule.Type, Scope: c.Rule.Scope},
			Where:      c.Rule.Where(), Matcher: c.Rule.Matcher.String(), Matches: c.Matches, Overridden: c.Overridden,
			Disabled: c.Rule.Disabled, Applies: c.Applies(), Summary: c.Rule.Describe(),
		})
	}
	if !o.noRun {
		x.Ran = true
		res, _ := env.RunRules(context.Background(), ev)
		// The engine ran exactly the candidates that apply, in this order,
		// one record each (skipped ones included).
		next := 0
		for i := range x.Rules {
			if r := &x.Rules[i]; r.applies() && next < len(res.Hooks) {
				r.HookRecord = res.Hooks[next]
				next++
			}
		}
		var buf bytes.Buffer
		if err := protocol.Write(&buf, ev.HookEventName, res.Output); err != nil {
			return err
		}
		x.Output = json.RawMessage(bytes.TrimSpace(buf.Bytes()))
	}
	if format == "json" {
		enc := json.NewEncoder(a.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(x)
	}
	return writeExplanation(a.stdout, &x)
}

// toolHookName is the subcommand that answers event, as init wires it
// for Claude Code.
func toolHookName(event string) string {
	for _, w := range claudeWires {
		if w.event == event {
			return w.sub
		}
	}
	return ""
}

// explainEvent is the event to explain: built from the flags, or read from
// stdin, where it may come inside a recording (returned too).
func (a *app) explainEvent(o explainOptions) (*protocol.Event, *corpus.Recording, error) {
	if o.tool != "" {
		ev, err := toolEvent(o)
		return ev, nil, err
	}
	if o.input != "" {
		return nil, nil, errors.New("--input goes with --tool")
	}
	if isTerminal(a.stdin) {
		return nil, nil, errors.New("explain needs an event or a recording on stdin, or --tool NAME --input JSON")
	}
	raw, err := io.ReadAll(a.stdin)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the event from stdin: %w", err)
	}
	var rec *corpus.Recording
	if isRecording(raw) {
		if rec, err = corpus.Parse(raw); err != nil {
			return nil, nil, fmt.Errorf("stdin holds recorded_at or event but is %v", err)
		}
		raw = rec.Event
	}
	ev, err := protocol.ParseEvent(raw, o.event)
	var ie *protocol.InputError
	if o.event == "" && errors.As(err, &ie) && ie.Field == "hook_event_name" && strings.Contains(ie.Msg, "missing") {
		ev, err = protocol.ParseEvent(raw, protocol.PreToolUse)
	}
	if err != nil {
		return nil, nil, err
	}
	if ev.HookEventName != protocol.PreToolUse && ev.HookEventName != protocol.PostToolUse && ev.HookEventName != protocol.PostToolUseFailure {
		return nil, nil, fmt.Errorf("explain reads PreToolUse, PostToolUse and PostToolUseFailure events; this one is %s", ev.HookEventName)
	}
	return ev, rec, nil
}

// toolEvent is the event --tool, --event and --input describe. The input
// is required: an empty one is rarely the call in question, and the guards
// judge what it holds.
func toolEvent(o explainOptions) (*protocol.Event, error) {
	event := o.event
	if event == "" {
		event = protocol.PreToolUse
	}
	if o.input == "" {
		return nil, fmt.Errorf("--tool %s needs --input, the tool input as a JSON object, e.g. --input '{\"command\":\"ls\"}' (--input '{}' for none)", o.tool)
	}
	if t := strings.TrimSpace(o.input); !json.Valid([]byte(t)) || t[0] != '{' {
		return nil, fmt.Errorf("--input %q is not a JSON object", preview(o.input))
	}
	raw, err := json.Marshal(map[string]any{"hook_event_name": event, "tool_name": o.tool, "tool_input": json.RawMessage(o.input), "session_id": "explain"})
	if err != nil {
		return nil, fmt.Errorf("--input is not a JSON object: %v", err)
	}
	return protocol.ParseEvent(raw, event)
}

// isRecording reports whether raw is a recording rather than an event: a
// JSON object with recorded_at, or with event and no hook_event_name. A
// MassGen HookEvent carries an event key too, beside its hook_type: it is
// an event.
func isRecording(raw []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return false
	}
	_, at := top["recorded_at"]
	_, event := top["event"]
	_, name := top["hook_event_name"]
	_, massgen := top["hook_type"]
	return at || event && !name && !massgen
}

// agentSource says where the agent identity came from, mirroring resolveAgent.
func (a *app) agentSource(ev *protocol.Event, cfg *config.Config, project string) string {
	switch {
	case a.agent != "":
		return "--agent"
	case ev.MassGenAgent != "":
		return "the MassGen event's agent_id"
	case a.getenv("MASSGEN_AGENT_ID") != "":
		return "MASSGEN_AGENT_ID"
	case cfg.AgentAt(project, ev.Cwd) != "":
		return "the MassGen workspace it runs in"
	case ev.AgentType != "":
		return "the event's agent_type"
	}
	return "main thread"
}

func writeExplanation(w io.Writer, x *explanation) error {
	agent := "the main thread (global rules only)"
	if x.Agent != "" {
		agent = fmt.Sprintf("agent %q (from %s)", x.Agent, x.AgentFrom)
	}
	fmt.Fprintf(w, "%s of tool %q, for %s\nconfig: %s\n", x.Event, x.Tool, agent, x.Config)
	if x.DisabledBy != "" {
		fmt.Fprintf(w, "%s is set in this environment: a hook started with it decides nothing; below is what it decides without it\n", x.DisabledBy)
	}
	if x.Agent != "" && !x.KnownAgent {
		fmt.Fprintf(w, "agent %q has no rules of its own: only the global rules apply (agents with rules: %s)\n", x.Agent, orNone(x.Agents))
	}
	if len(x.Rules) == 0 {
		fmt.Fprintf(w, "\nno %s rules are configured for this agent\n", x.Event)
	}
	n := 0
	for _, r := range x.Rules {
		if !r.applies() {
			continue
		}
		if n == 0 {
			fmt.Fprintln(w, "\nrules that apply, in the order they run:")
		}
		n++
		fmt.Fprintf(w, "  %d. %s\n", n, r.Summary)
		if !x.Ran {
			continue
		}
		fmt.Fprintf(w, "     -> %s", r.Decision)
		if r.Reason != "" {
			fmt.Fprintf(w, ": %s", oneLine(r.Reason))
		}
		if r.Decision != "skipped" {
			fmt.Fprintf(w, " (%.1f ms)", r.DurationMS)
		} else {
			fmt.Fprint(w, " (an earlier deny ended the chain)")
		}
		fmt.Fprintln(w)
		if r.Error != "" {
			fmt.Fprintf(w, "     error: %s\n", oneLine(r.Error))
		}
		if r.Rewrote {
			fmt.Fprintln(w, "     rewrote the tool input")
		}
		if r.Injection != "" {
			fmt.Fprintf(w, "     injects: %s\n", r.Injection)
		}
		for _, note := range r.Notes {
			fmt.Fprintf(w, "     note: %s\n", note)
		}
	}
	if len(x.Rules) > 0 && n == 0 {
		fmt.Fprintln(w, "\nno rule applies")
	}
	header := false
	for _, r := range x.Rules {
		if r.applies() {
			continue
		}
		if !header {
			fmt.Fprintln(w, "\nrules that do not apply:")
			header = true
		}
		why := fmt.Sprintf("matcher %q does not match %q", r.Matcher, x.Tool)
		switch {
		case r.Disabled:
			why = "enabled: false"
		case r.Overridden && r.Scope == "default":
			why = fmt.Sprintf("agent %q configures this check in its own rules", x.Agent)
		case r.Overridden:
			why = fmt.Sprintf("agent %q overrides the global %s rules", x.Agent, x.Event)
		}
		fmt.Fprintf(w, "  - %s (%s): %s\n", r.Name, r.Where, why)
	}
	var err error
	if x.Ran {
		out := string(x.Output)
		if out == "" {
			out = "(nothing: no opinion)"
		}
		_, err = fmt.Fprintf(w, "\noutput:\n%s\n", out)
	} else {
		_, err = fmt.Fprintln(w, "\nnot run (--no-run)")
	}
	if err == nil && x.Recorded != nil {
		_, err = fmt.Fprintf(w, "\nrecorded decision: %s\n", x.Recorded)
	}
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// preview is the start of s, for an error message.
func preview(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
