package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/scratchpad"
)

type checkOptions struct {
	date       string
	format     *formatFlag
	allowEmpty bool
}

func (a *app) checkCommand() *cobra.Command {
	var o checkOptions
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check a project's scratchpads for protocol compliance (for CI)",
		Long: `Scans the scratchpad root (every date, or --date) and reports every subagent
scratchpad that lacks a required heading and every date with subagent
scratchpads but no coordinator scratchpad.

--format markdown prints a grid of agents by dates for a GitHub Actions job
summary ($GITHUB_STEP_SUMMARY), then the violations.

No scratchpad file to check at all is an error (exit 2): it is how a check
run in the wrong directory, or against the wrong root, looks. --allow-empty
accepts it, for a project that has not run a session yet.

Exit status: 0 compliant, 1 violations found, 2 usage or configuration
error, or nothing checked.`,
		Example: `  massgen-hook check
  massgen-hook check --date 2026-11-20 --format github   # annotations in GitHub Actions
  massgen-hook check --format json | jq .violations
  massgen-hook check --format markdown >> "$GITHUB_STEP_SUMMARY"`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runCheck(cmd, o) },
	}
	cmd.Flags().StringVar(&o.date, "date", "", "check only this date (YYYY-MM-DD)")
	o.format = addFormatFlag(cmd, false, "text", "json", "github", "markdown")
	cmd.Flags().BoolVar(&o.allowEmpty, "allow-empty", false, "finding no scratchpad file is compliant, not an error")
	return cmd
}

var checkFormats = &lazy.Value[map[string]func(io.Writer, *scratchpad.Report) error]{New: func() map[string]func(io.Writer, *scratchpad.Report) error {
	return map[string]func(io.Writer, *scratchpad.Report) error{
		"text":     writeCheckText,
		"json":     writeCheckJSON,
		"github":   writeCheckGitHub,
		"markdown": writeCheckMarkdown,
	}
}}

func (a *app) runCheck(cmd *cobra.Command, o checkOptions) error {
	format, err := o.format.get(cmd)
	if err != nil {
		return a.usage(cmd, err)
	}
	write := checkFormats.Get()[format]
	if o.date != "" {
		if _, err := time.Parse(scratchpad.DayLayout, o.date); err != nil {
			return a.usage(cmd, fmt.Errorf("--date %q: use YYYY-MM-DD", o.date))
		}
	}
	project, err := a.resolveProject("")
	if err != nil {
		return &usageError{err: err}
	}
	cfg, _, err := a.loadConfig(project)
	if err != nil {
		return err
	}
	layout := layoutOf(project, cfg)
	rep, err := layout.Check(o.date, cfg.Scratchpad.RequiredSections)
	if err != nil {
		return &usageError{err: err} // the tree cannot be checked at all: a setup error, not a violation
	}
	if rep.FilesChecked == 0 && !o.allowEmpty {
		return &usageError{err: errNothingChecked(project, rep)}
	}
	if err := write(a.stdout, rep); err != nil {
		return err
	}
	if len(rep.Violations) > 0 {
		return errViolations
	}
	return nil
}

// errNothingChecked says why a check that found no file fails, and how to
// point it at the right place.
func errNothingChecked(project string, rep *scratchpad.Report) error {
	scope := " (all dates)"
	if rep.Date != "" {
		scope = " for " + rep.Date
	}
	return fmt.Errorf("no scratchpad files in %s%s of project %s: nothing was checked "+
		"(run check in the project, or give --project-dir; --allow-empty accepts a project with no scratchpads yet)", rep.Root, scope, project)
}

func writeCheckText(w io.Writer, rep *scratchpad.Report) error {
	for _, v := range rep.Violations {
		fmt.Fprintf(w, "%s: %s\n", v.Path, v.Message)
	}
	_, err := fmt.Fprintln(w, checkSummary(rep))
	return err
}

func checkSummary(rep *scratchpad.Report) string {
	scope := "all dates"
	if rep.Date != "" {
		scope = rep.Date
	}
	files := plural(rep.FilesChecked, "scratchpad file")
	if len(rep.Violations) == 0 {
		return fmt.Sprintf("check: %s in %s (%s): compliant", files, rep.Root, scope)
	}
	return fmt.Sprintf("check: %s in %s (%s): %s", files, rep.Root, scope, plural(len(rep.Violations), "violation"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func writeCheckJSON(w io.Writer, rep *scratchpad.Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeCheckGitHub prints GitHub Actions workflow commands, so each
// violation shows as an annotation on its file.
func writeCheckGitHub(w io.Writer, rep *scratchpad.Report) error {
	for _, v := range rep.Violations {
		fmt.Fprintf(w, "::error file=%s,title=%s::%s\n",
			ghProperty(v.Path), ghProperty("scratchpad protocol: "+v.Kind), ghData(v.Message))
	}
	_, err := fmt.Fprintln(w, checkSummary(rep))
	return err
}

// ghData and ghProperty escape text as GitHub's workflow-command parser
// expects, so a file name cannot end the annotation early.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(ghData(s))
}
