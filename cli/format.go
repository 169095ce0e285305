package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// formatFlag is the one way a command picks its output: --format, whose
// first allowed value is the default. Commands that once took --json keep
// it as a hidden, deprecated spelling of --format json.
type formatFlag struct {
	value   string
	allowed []string
	json    bool
}

// addFormatFlag gives cmd --format with the allowed values (text first),
// and the deprecated --json when legacyJSON is set.
func addFormatFlag(cmd *cobra.Command, legacyJSON bool, allowed ...string) *formatFlag {
	f := &formatFlag{allowed: allowed}
	cmd.Flags().StringVar(&f.value, "format", allowed[0], "output format: "+orList(allowed))
	if legacyJSON {
		cmd.Flags().BoolVar(&f.json, "json", false, "same as --format json")
		_ = cmd.Flags().MarkHidden("json")
	}
	return f
}

// get is the format asked for; an unknown one, or --json beside another
// --format, is a usage error. --json works, with a note on stderr (stdout
// stays the JSON a script reads).
func (f *formatFlag) get(cmd *cobra.Command) (string, error) {
	if f.json {
		if cmd.Flags().Changed("format") && f.value != "json" {
			return "", fmt.Errorf("--json is --format json; it cannot go with --format %q", f.value)
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "massgen-hook: --json is deprecated: use --format json")
		return "json", nil
	}
	if !slices.Contains(f.allowed, f.value) {
		return "", fmt.Errorf("--format %q: use %s", f.value, orList(f.allowed))
	}
	return f.value, nil
}

// orList is "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
