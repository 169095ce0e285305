package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/internal/corpus"
	"github.com/massgen/massgen-hook/internal/hookfs"
)

type replayOptions struct {
	diff   string
	format *formatFlag
	json   bool
}

func (a *app) replayCommand() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay DIR",
		Short: "Run recorded events through the current config and show each decision",
		Long: `Runs every recording in DIR (*.json, in name order, which is the order they
were recorded in) through its hook, in this process, with the project's
current config, and prints one line per event: the file, event, tool and
agent, then the decision (allow, deny, ask, defer, block, context, rewrite,
warn, stop, none or error), the exit status and the first line of the reason.
Recordings come from the config's record: key or $MASSGEN_HOOK_RECORD (see
docs/record-replay.md).

A replay changes nothing in the project: the runtime directory
(.claude/massgen-hook: budgets, counters, the inbox, the audit trail) is a
throwaway one, shared by the whole corpus so counters evolve as they did,
nothing is detached (observers do not run), nothing is recorded, and each
event runs at its recorded time as the recorded agent. Command handlers in
the config do run: they are the policy under test.

--format json prints the results as a JSON document; --diff PREVIOUS compares
with such a document and prints only what changed.

Exit status: 0 no decision changed (or no --diff); 1 a decision or exit
status changed since PREVIOUS; 2 a usage or configuration error, or a file
in DIR that is not a recording (named on stderr, skipped).`,
		Example: `  massgen-hook replay .claude/massgen-hook/corpus
  massgen-hook replay .claude/massgen-hook/corpus --format json > before.json
  # ...edit .claude/massgen-hook.yaml...
  massgen-hook replay .claude/massgen-hook/corpus --diff before.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return a.usage(cmd, fmt.Errorf("replay takes one corpus folder, got %q", args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := o.format.get(cmd)
			if err != nil {
				return a.usage(cmd, err)
			}
			o.json = format == "json"
			return a.runReplay(args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.diff, "diff", "", "compare with the results of an earlier replay --format json, printing only changes")
	o.format = addFormatFlag(cmd, true, "text", "json")
	return cmd
}

func (a *app) runReplay(dir string, o replayOptions) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &usageError{err: fmt.Errorf("reading the corpus: %w", err)}
	}
	project, err := a.resolveProject("")
	if err != nil {
		return &usageError{err: err}
	}
	// A broken config would make every event an error: say so once.
	if _, _, err := a.loadConfig(project); err != nil {
		return err
	}
	var prev *corpus.Results
	if o.diff != "" {
		data, err := hookfs.ReadFile(o.diff, maxRecordingBytes)
		if err != nil {
			return &usageError{err: fmt.Errorf("--diff: %w", err)}
		}
		if prev, err = corpus.ReadResults(data); err != nil {
			return &usageError{err: fmt.Errorf("--diff %s: %w", o.diff, err)}
		}
	}
	sandbox, err := newSandbox()
	if err != nil {
		return err
	}
	defer os.RemoveAll(sandbox)

	hooks := hookSubcommands()
	rs := &corpus.Results{Version: corpus.ResultsVersion, Results: []corpus.Result{}}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		r, err := a.replayFile(filepath.Join(dir, e.Name()), project, sandbox, hooks)
		if err != nil {
			rs.Skipped = append(rs.Skipped, corpus.Skipped{File: e.Name(), Error: err.Error()})
			fmt.Fprintf(a.stderr, "massgen-hook: replay: %s: %v; skipped\n", e.Name(), err)
			continue
		}
		rs.Results = append(rs.Results, r)
	}
	if prev != nil {
		rs.Diff = corpus.Compare(prev.Results, rs.Results)
	}
	if err := a.printReplay(dir, o, rs); err != nil {
		return err
	}
	switch {
	case len(rs.Skipped) > 0:
		return &usageError{err: fmt.Errorf("%d of the files in %s could not be replayed (named above)", len(rs.Skipped), dir)}
	case rs.Diff != nil && rs.Diff.Changed > 0:
		return fmt.Errorf("%s changed since %s", plural(rs.Diff.Changed, "decision"), o.diff)
	}
	return nil
}

// newSandbox is a throwaway runtime directory for a replay.
func newSandbox() (string, error) {
	dir, err := os.MkdirTemp("", "massgen-hook-replay-*")
	if err != nil {
		return "", fmt.Errorf("creating the replay's runtime directory: %w", err)
	}
	return dir, nil
}

// hookSubcommands maps each event to the subcommand of its hook.
func hookSubcommands() map[string]string {
	m := map[string]string{}
	// A root of its own: building one binds its flags to the app's fields.
	for _, c := range (&app{}).rootCommand(nil).Commands() {
		if ev, ok := c.Annotations[eventAnnotation]; ok {
			m[ev] = c.Name()
		}
	}
	return m
}

// maxRecordingBytes bounds a recording (an event, tool output included)
// and a --diff file: regular files only, so a FIFO in the corpus cannot
// hang the replay.
const maxRecordingBytes = 256 << 20

// replayFile runs one recording through its hook, in a fresh app whose
// runtime directory is sandbox.
func (a *app) replayFile(path, project, sandbox string, hooks map[string]string) (corpus.Result, error) {
	data, err := hookfs.ReadFile(path, maxRecordingBytes)
	if err != nil {
		return corpus.Result{}, err
	}
	rec, err := corpus.Parse(data)
	if err != nil {
		return corpus.Result{}, err
	}
	event := rec.EventName()
	sub, ok := hooks[event]
	if !ok {
		return corpus.Result{}, fmt.Errorf("massgen-hook has no hook for %s events", event)
	}
	env := replayEnviron(a.environ(), project, rec)
	vars := make(map[string]string, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	var stdout, stderr bytes.Buffer
	run := &app{
		stdin: bytes.NewReader(rec.Event), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return vars[k] }, environ: func() []string { return env },
		now: a.now, sandbox: sandbox,
	}
	args := []string{"--project-dir", project}
	if a.configPath != "" {
		args = append(args, "--config", a.configPath)
	}
	if a.failClosed {
		args = append(args, "--fail-closed")
	}
	code := run.run(append(args, sub, "--dialect", "claude"))
	return corpus.Result{
		File: filepath.Base(path), Event: event, Tool: rec.Tool(), Agent: rec.Agent,
		Verdict: corpus.SummarizeStdout(stdout.Bytes(), code, stderr.Bytes()),
	}, nil
}

// replayEnviron is the environment a recorded event runs in: this one,
// with the clock pinned to the recording's time, the recorded agent as
// $MASSGEN_AGENT_ID (which selects the same rules and inbox recipient as
// the live run, for tool and lifecycle hooks alike), the project as
// $CLAUDE_PROJECT_DIR for command handlers, and recording off.
func replayEnviron(environ []string, project string, rec *corpus.Recording) []string {
	drop := map[string]bool{"MASSGEN_HOOK_NOW": true, "MASSGEN_AGENT_ID": true, recordEnv: true, "CLAUDE_PROJECT_DIR": true}
	var env []string
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); !drop[k] {
			env = append(env, kv)
		}
	}
	env = append(env, "MASSGEN_HOOK_NOW="+rec.RecordedAt, "CLAUDE_PROJECT_DIR="+project)
	if rec.Agent != "" {
		env = append(env, "MASSGEN_AGENT_ID="+rec.Agent)
	}
	return env
}

// printReplay prints the results: the JSON document, or for a person one
// line per event (with --diff, per change) and a summary.
func (a *app) printReplay(dir string, o replayOptions, rs *corpus.Results) error {
	if o.json {
		data, err := rs.Encode()
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(data)
		return err
	}
	var b strings.Builder
	if rs.Diff != nil {
		for _, c := range rs.Diff.Changes {
			fmt.Fprintln(&b, c)
		}
		fmt.Fprintf(&b, "%s against %s: %s\n", dir, o.diff, rs.Diff.Summary())
	} else {
		counts := map[string]int{}
		for _, r := range rs.Results {
			counts[r.Decision]++
			fmt.Fprintln(&b, resultLine(r))
		}
		fmt.Fprintf(&b, "replayed %s from %s%s\n", plural(len(rs.Results), "event"), dir, countList(counts))
	}
	if n := len(rs.Skipped); n > 0 {
		fmt.Fprintf(&b, "%s skipped: not recordings\n", plural(n, "file"))
	}
	_, err := a.stdout.Write([]byte(b.String()))
	return err
}

// resultLine is one replayed event for a person.
func resultLine(r corpus.Result) string {
	var b strings.Builder
	b.WriteString(r.File + ": " + r.Event)
	if r.Tool != "" {
		b.WriteString(" " + r.Tool)
	}
	if r.Agent != "" {
		b.WriteString(" (agent " + r.Agent + ")")
	}
	fmt.Fprintf(&b, " → %s (exit %d)", r.Decision, r.Exit)
	if r.Reason != "" {
		b.WriteString(": " + r.Reason)
	}
	return b.String()
}

// countList is ": 3 none, 1 deny", most frequent first.
func countList(counts map[string]int) string {
	if len(counts) == 0 {
		return ""
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return ": " + strings.Join(parts, ", ")
}
