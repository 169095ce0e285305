package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/massgen/massgen-hook/config"
)

// errConfigInvalid says `config validate` found errors; they are printed.
var errConfigInvalid = errors.New("the config has errors")

func (a *app) configCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Validate the config file, or print its JSON Schema",
		Example: `  massgen-hook config validate
  massgen-hook config schema > massgen-hook.schema.json`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.configValidateCommand(), a.configSchemaCommand())
	return cmd
}

// configProblem is one error of `config validate --format json`.
type configProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (a *app) configValidateCommand() *cobra.Command {
	var format *formatFlag
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check the config file as the hooks read it (exit 1 on any error)",
		Long: `Reads the config file exactly as every hook does (the project's
.claude/massgen-hook.yaml, or --config, or $MASSGEN_HOOK_CONFIG) and lists
every error with its file, line and key. A hook that meets a config error
runs only the built-in defaults and warns the user; run this after editing.

Exit status: 0 valid (or no config file: the built-in defaults), 1 errors
found, 2 a usage mistake.`,
		Example: `  massgen-hook config validate
  massgen-hook config validate --config ci/massgen-hook.yaml --format json`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := format.get(cmd)
			if err != nil {
				return a.usage(cmd, err)
			}
			project, err := a.resolveProject("")
			if err != nil {
				return &usageError{err: err}
			}
			path, _ := config.Locate(a.configPath, a.getenv("MASSGEN_HOOK_CONFIG"), project)
			_, statErr := os.Stat(path)
			cfg, _, loadErr := a.loadConfig(project)
			if loadErr == nil {
				if missing := cfg.MissingNATSURL(a.getenv); len(missing) > 0 {
					var errs []error
					for _, m := range missing {
						errs = append(errs, &config.Error{Path: path, Msg: m})
					}
					loadErr = errors.Join(errs...)
				}
			}
			if format == "json" {
				return a.writeValidation(path, cfg, loadErr)
			}
			switch {
			case loadErr != nil:
				for _, line := range strings.Split(loadErr.Error(), "\n") {
					fmt.Fprintln(a.stdout, line)
				}
			case os.IsNotExist(statErr):
				fmt.Fprintf(a.stdout, "no config file at %s: the built-in defaults apply (default guards on)\n", path)
			default:
				kind := ""
				if cfg.MassGen {
					kind = ", a MassGen config"
				}
				fmt.Fprintf(a.stdout, "%s: valid (default guards %s%s)\n", cfg.Path, onOff(cfg.DefaultGuards), kind)
				for _, n := range cfg.Notices {
					fmt.Fprintf(a.stdout, "note: %s\n", n)
				}
			}
			if loadErr != nil {
				return errConfigInvalid
			}
			return nil
		},
	}
	format = addFormatFlag(cmd, false, "text", "json")
	return cmd
}

// writeValidation prints the result as JSON: {file, valid, massgen,
// errors, notices}.
func (a *app) writeValidation(path string, cfg config.Config, loadErr error) error {
	problems := append([]configProblem{}, configErrors(loadErr)...)
	notices := []configProblem{}
	for _, n := range cfg.Notices {
		notices = append(notices, configProblem{File: n.Path, Line: n.Line, Message: n.Msg})
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]any{"file": path, "valid": loadErr == nil, "massgen": cfg.MassGen, "errors": problems, "notices": notices}); err != nil {
		return err
	}
	if loadErr != nil {
		return errConfigInvalid
	}
	return nil
}

// configErrors splits a load error into its problems, each with the
// file and line a config.Error names (config validate and doctor).
func configErrors(err error) []configProblem {
	if err == nil {
		return nil
	}
	var out []configProblem
	var walk func(error)
	walk = func(err error) {
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				walk(e)
			}
			return
		}
		var ce *config.Error
		if errors.As(err, &ce) {
			out = append(out, configProblem{File: ce.Path, Line: ce.Line, Message: ce.Msg})
			return
		}
		out = append(out, configProblem{Message: err.Error()})
	}
	walk(err)
	return out
}

func (a *app) configSchemaCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the config file",
		Long: `Prints the JSON Schema (draft 2020-12) of .claude/massgen-hook.yaml. Editors with
a YAML language server use it to flag a mistyped key or a wrong type as you
type; the starter config that init writes points at the published copy.`,
		Example: "  massgen-hook config schema > .claude/massgen-hook.schema.json",
		Args:    noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := a.stdout.Write(config.Schema())
			return err
		},
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
