package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X .../internal/cli.version=v1.2.3");
// otherwise it comes from the module's build information.
var version = ""

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// versionLine is what version prints after the program name: the version,
// Go's, and the platform, which doctor compares with a wired binary's.
func versionLine() string {
	return fmt.Sprintf("%s (%s %s/%s)", versionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version",
		Example: "  massgen-hook version",
		Args:    noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(a.stdout, "massgen-hook %s\n", versionLine())
			return err
		},
	}
}
