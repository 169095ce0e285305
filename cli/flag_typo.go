package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/massgen/massgen-hook/internal/suggest"
)

// withFlagSuggestion adds ", did you mean --X?" to cobra's "unknown flag:
// --Y" when cmd has a flag (its own or inherited) that --Y is a typo of;
// any other error is returned as it is.
func withFlagSuggestion(cmd *cobra.Command, err error) error {
	typo, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	typo, _, _ = strings.Cut(typo, "=")
	var known []string
	collect := func(f *pflag.Flag) {
		if !f.Hidden {
			known = append(known, f.Name)
		}
	}
	cmd.Flags().VisitAll(collect)
	cmd.InheritedFlags().VisitAll(collect)
	if best := suggest.Closest(typo, known); best != "" {
		return fmt.Errorf("%w, did you mean --%s? (see massgen-hook %s --help)", err, best, strings.TrimPrefix(cmd.CommandPath(), "massgen-hook "))
	}
	return err
}
