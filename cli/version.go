package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X .../cli.version=v1.2.3",
// as make build and make release do); otherwise it comes from the module's
// build information.
var version = ""

// buildFacts is what a binary knows about how it was built: enough for a bug
// report to name the exact source and toolchain.
type buildFacts struct {
	Version  string            `json:"version"`
	Module   string            `json:"module"`
	Revision string            `json:"revision"`
	Time     string            `json:"time"`
	Modified bool              `json:"modified"`
	Go       string            `json:"go"`
	OS       string            `json:"os"`
	Arch     string            `json:"arch"`
	Settings map[string]string `json:"settings"`
}

// readBuildFacts describes this binary: the link-time version when set,
// else the module's, and the rest from the build information the go
// command embeds.
func readBuildFacts() buildFacts {
	info, _ := debug.ReadBuildInfo()
	return factsOf(info, version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// factsOf is readBuildFacts for given inputs; info may be nil (a binary
// built without module support).
func factsOf(info *debug.BuildInfo, override, goVersion, goos, goarch string) buildFacts {
	f := buildFacts{Version: override, Go: goVersion, OS: goos, Arch: goarch, Settings: map[string]string{}}
	if info != nil {
		f.Module = info.Main.Path
		if f.Version == "" {
			f.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			f.Settings[s.Key] = s.Value
			switch s.Key {
			case "vcs.revision":
				f.Revision = s.Value
			case "vcs.time":
				f.Time = s.Value
			case "vcs.modified":
				f.Modified = s.Value == "true"
			}
		}
	}
	if f.Version == "" {
		f.Version = "(devel)"
	}
	return f
}

// versionString is the version alone, as other commands quote it.
func versionString() string { return readBuildFacts().Version }

// versionLine is the first line version prints, after the program name: the
// version, Go's, and the platform, which doctor compares with a wired
// binary's.
func versionLine() string { return readBuildFacts().line() }

func (f buildFacts) line() string {
	return fmt.Sprintf("%s (%s %s/%s)", f.Version, f.Go, f.OS, f.Arch)
}

// writeText prints the facts for a person: the version line, then the
// source revision when the build recorded one.
func (f buildFacts) writeText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "massgen-hook %s\n", f.line())
	if f.Revision != "" {
		fmt.Fprintf(&b, "revision %s", f.Revision)
		if f.Time != "" {
			fmt.Fprintf(&b, " %s", f.Time)
		}
		if f.Modified {
			b.WriteString(" (modified)")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (f buildFacts) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

func (a *app) versionCommand() *cobra.Command {
	var format *formatFlag
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version and how this binary was built",
		Long: `Prints the version, the source revision (and whether the tree had
uncommitted changes), the Go version and the platform. --format json prints
one object that adds every build setting the go command recorded
(-trimpath, CGO_ENABLED, GOOS, vcs.*, ...). massgen-hook --version prints
the text form.`,
		Example: `  massgen-hook version
  massgen-hook version --format json | jq -r .revision`,
		Args: noArgs(a),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := format.get(cmd)
			if err != nil {
				return a.usage(cmd, err)
			}
			facts := readBuildFacts()
			if f == "json" {
				return facts.writeJSON(a.stdout)
			}
			return facts.writeText(a.stdout)
		},
	}
	format = addFormatFlag(cmd, false, "text", "json")
	return cmd
}

// versionFlag makes `massgen-hook --version` (and -v) print what `version`
// prints. The flag is massgen-hook's own rather than cobra's
// Command.Version: cobra prints that through text/template, and once
// text/template's executor is linked (it calls methods by name, through
// reflection), the linker must keep every exported method of every type in
// the binary in case a template calls it. That was 1.75 MB of a 12 MB
// binary, paged in at every hook's start.
func (a *app) versionFlag(root *cobra.Command) {
	version := root.Flags().BoolP("version", "v", false, "version for massgen-hook")
	run := root.RunE
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if *version {
			return readBuildFacts().writeText(a.stdout)
		}
		return run(cmd, args)
	}
}
