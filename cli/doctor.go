package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/install/doctor"
)

type doctorOptions struct {
	format              *formatFlag
	json, noTiming, fix bool
}

func (a *app) doctorCommand() *cobra.Command {
	var o doctorOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check how the hooks are wired, and run each wired hook on a probe event",
		Long: `Reads every Claude Code settings file that can wire hooks into this project
(user: $CLAUDE_CONFIG_DIR/settings.json or ~/.claude/settings.json; project:
.claude/settings.json; local: .claude/settings.local.json; a missing one is
fine) and the project's massgen-hook config, and reports what would keep a
hook from running as meant:

  - invalid JSON (file:line:col), an unknown event name (with the closest
    known one), a timeout of 1000 or more (Claude Code's are in seconds) or of
    0 or less;
  - a matcher that matches nothing: mcp__server without __tool, a regex that
    does not compile (constructs Go's regexp lacks, such as lookahead, are a
    note: they cannot be checked); a matcher on Stop or UserPromptSubmit,
    which Claude Code ignores, is a note;
  - a command whose program is missing, not executable, not on PATH, or a
    relative path (it breaks when the session cds), or with an unquoted $VAR;
  - a Stop or SubagentStop hook (not massgen-hook's) whose script never reads
    stop_hook_active: it can keep the agent in a loop;
  - the same handler wired twice for one event, in one file or across them;
  - a command rule in the config whose handler is missing, not on PATH, not
    executable, or no program (found as the rules find it: relative to the
    project);
  - the other agent CLIs' hook files init writes (Gemini CLI's, Codex's,
    Cursor's, Copilot CLI's; project and user scope): one that is not valid
    JSON, massgen-hook's hooks that differ from what init would write there
    (one missing, changed, or wired twice), and, for Codex, each hook Codex
    would skip without a word: not trusted, changed since trusted, disabled,
    or in a project Codex does not trust.

Then it asks each wired massgen-hook binary its version (a binary that
cannot run, or another version than this one, is a problem), and runs each
wired hook command as the CLI would, on a harmless probe event in that
CLI's terms (for pre-tool-use a Read of a file that does not exist), in a
throwaway project holding a copy of the config with the file inbox and no
audit copy, as an agent of its own (massgen-doctor-probe): nothing in the
project changes, and no probe reaches a NATS broker. A run that fails,
prints what is not one JSON object, blocks the probe, or outlasts its
timeout is a problem. With the inbox or the audit copy on NATS, doctor
itself connects to the broker and reads the stream's state (read-only):
one it cannot reach is a problem. --no-timing skips this step.

With nothing wired anywhere, doctor says "not set up" and exits 3.

--fix makes the safe repairs first, then reports: it copies this binary
over a project's .claude/hooks/massgen-hook that differs from it (stale,
damaged or missing), and rewires a hook file whose massgen-hook hooks are not
what init writes, as init would (the parts it wires stay; a FILE.bak is
kept). Nobody else's hooks change; a second --fix changes nothing.

Each finding is one line: FILE:LINE: problem|note: FIELD: what to fix.
Notes say what doctor cannot check; only problems make it unhealthy.

Exit status: 0 healthy (notes allowed), 1 problems found, 2 usage error,
3 not set up (no massgen-hook hook wired in any file doctor reads).`,
		Example: `  massgen-hook doctor
  massgen-hook doctor --no-timing          # the wiring only; runs nothing
  massgen-hook doctor --fix                # re-copy a stale binary, rewire what init would write otherwise
  massgen-hook doctor --format json | jq '.findings[] | select(.severity == "problem")'`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := o.format.get(cmd)
			if err != nil {
				return a.usage(cmd, err)
			}
			o.json = format == "json"
			return a.runDoctor(o)
		},
	}
	o.format = addFormatFlag(cmd, true, "text", "json")
	cmd.Flags().BoolVar(&o.noTiming, "no-timing", false, "do not run the wired hooks on probe events")
	cmd.Flags().BoolVar(&o.fix, "fix", false, "first re-copy a stale project binary and rewire what init would write otherwise")
	return cmd
}

// doctorReport is everything doctor found.
type doctorReport struct {
	Project string `json:"project"`
	// Fixed are the repairs --fix made, one line each.
	Fixed    []string         `json:"fixed,omitempty"`
	Healthy  bool             `json:"healthy"`
	SetUp    bool             `json:"set_up"`
	Problems int              `json:"problems"`
	Notes    int              `json:"notes"`
	Scopes   []*doctorScope   `json:"scopes"`
	Findings []doctor.Finding `json:"findings"`
	Timings  []doctorTiming   `json:"timings"`
	// Protection is the level each wired CLI's shell commands get.
	Protection []doctorProtection `json:"protection"`
}

func (a *app) runDoctor(o doctorOptions) error {
	project, err := a.resolveProject("")
	if err != nil {
		return &usageError{err: err}
	}
	var fixed []string
	if o.fix {
		if fixed, err = a.doctorFix(project); err != nil {
			return err
		}
	}
	d := &doctorRun{app: a, project: project, env: doctor.Env{
		Project: project, Home: a.getenv("HOME"), Path: a.getenv("PATH"),
	}}
	d.settingsScopes()
	d.duplicates()
	d.configScope()
	d.wiredScopes()
	d.disableSwitch()
	if !o.noTiming {
		d.checkBrokers()
	}
	rep := &doctorReport{Project: project, Fixed: fixed, SetUp: d.wiredAnywhere(), Scopes: d.scopes, Findings: d.sorted(), Timings: []doctorTiming{}, Protection: d.protections()}
	if !o.noTiming {
		timings, findings, err := d.timeHooks()
		if err != nil {
			return err
		}
		rep.Timings = timings
		rep.Findings = append(rep.Findings, findings...)
	}
	for _, f := range rep.Findings {
		if f.Severity == doctor.Problem {
			rep.Problems++
		} else {
			rep.Notes++
		}
	}
	rep.Healthy = rep.Problems == 0
	write := writeDoctorText
	if o.json {
		write = writeDoctorJSON
	}
	if err := write(a.stdout, rep); err != nil {
		return err
	}
	switch {
	case !rep.Healthy:
		return errDoctorProblems
	case !rep.SetUp:
		return errNotSetUp
	}
	return nil
}

// disableSwitch notes MASSGEN_HOOK_DISABLE set where doctor runs: an
// agent CLI started from this shell runs the hooks it names as no-ops.
func (d *doctorRun) disableSwitch() {
	v := strings.TrimSpace(d.getenv(disableEnv))
	switch strings.ToLower(v) {
	case "", "0", "false", "no", "off":
		return
	}
	s := d.scope("environment", "$"+disableEnv)
	s.config = true
	d.add(s, 0, "", doctor.Issue{Severity: doctor.Note, Message: fmt.Sprintf(
		"is %q here: an agent CLI started from this shell skips those hooks (the probes run them regardless)", v)})
}

// errDoctorProblems says doctor found problems; the report is printed. It
// wraps errViolations for exit status 1 and no further message.
var errDoctorProblems error = doctorProblems{}

type doctorProblems struct{}

func (doctorProblems) Error() string { return "doctor: " + errViolations.Error() }
func (doctorProblems) Unwrap() error { return errViolations }

// errNotSetUp says doctor found no massgen-hook hook wired: exit 3, the
// report already printed.
var errNotSetUp = errors.New("doctor: not set up")

// doctorRun gathers the findings of one doctor run.
type doctorRun struct {
	*app
	project  string
	env      doctor.Env
	scopes   []*doctorScope
	findings []placed
	handlers []wiredHandler
	// wired are the hook files of every CLI; ruleHandlers the config's
	// command rules' programs, as written.
	wired        []wiredFile
	ruleHandlers []string
	// plugin is set when a settings file enables the massgen-hook plugin.
	plugin bool
	// cfg is the project's config when it loads, and cfgScope its scope.
	cfg      *config.Config
	cfgScope *doctorScope
}

// placed is a finding with where its scope sorts.
type placed struct {
	doctor.Finding
	scope int
}

// rel shows path relative to the project when it is inside it.
func (d *doctorRun) rel(path string) string {
	if r, err := filepath.Rel(d.project, path); err == nil && !strings.HasPrefix(r, "..") && filepath.IsAbs(path) {
		return r
	}
	return path
}

func (d *doctorRun) add(s *doctorScope, line int, field string, is doctor.Issue) {
	if is.Severity == doctor.Problem {
		s.Problems++
	} else {
		s.Notes++
	}
	d.findings = append(d.findings, placed{scope: s.index, Finding: doctor.Finding{
		Severity: is.Severity, Scope: s.Name, File: s.File, Line: line, Field: field, Message: is.Message,
	}})
}

// sorted lists the findings by scope, then line.
func (d *doctorRun) sorted() []doctor.Finding {
	sort.SliceStable(d.findings, func(i, j int) bool {
		a, b := d.findings[i], d.findings[j]
		if a.scope != b.scope {
			return a.scope < b.scope
		}
		return a.Line < b.Line
	})
	out := make([]doctor.Finding, len(d.findings))
	for i, f := range d.findings {
		out[i] = f.Finding
	}
	return out
}

func writeDoctorText(w io.Writer, rep *doctorReport) error {
	for _, line := range rep.Fixed {
		fmt.Fprintln(w, "fixed: "+line)
	}
	for _, f := range rep.Findings {
		where := f.File
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		field := ""
		if f.Field != "" {
			field = f.Field + ": "
		}
		fmt.Fprintf(w, "%s: %s: %s%s\n", where, f.Severity, field, f.Message)
	}
	for _, s := range rep.Scopes {
		fmt.Fprintf(w, "%s: %s: %s\n", s.Name, s.File, s.summary())
	}
	for _, t := range rep.Timings {
		bin := ""
		if t.Binary != projectBinary && t.Binary != doctor.ProgramName {
			bin = " (" + t.Binary + ")"
		}
		fmt.Fprintf(w, "timing: %s%s: %.1f ms, exit %d\n", t.Subcommand, bin, t.Ms, t.Exit)
	}
	writeProtections(w, rep.Protection)
	_, err := fmt.Fprintln(w, "doctor: "+doctorVerdict(rep))
	return err
}

func doctorVerdict(rep *doctorReport) string {
	notes := ""
	if rep.Notes > 0 {
		notes = ", " + plural(rep.Notes, "note")
	}
	switch {
	case rep.Healthy && !rep.SetUp:
		return "not set up" + notes + ": no massgen-hook hook is wired in any agent CLI's hook file here; run massgen-hook init"
	case rep.Healthy:
		return "healthy" + notes
	}
	return plural(rep.Problems, "problem") + notes
}

func writeDoctorJSON(w io.Writer, rep *doctorReport) error {
	if rep.Findings == nil {
		rep.Findings = []doctor.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
