package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/confine"
)

// doctorProtection is the protection one wired CLI's shell commands get.
type doctorProtection struct {
	CLI   string `json:"cli"`
	Level string `json:"level"`
	What  string `json:"what"`
	// Next says how to reach the next level; "" at the top.
	Next string `json:"next,omitempty"`
}

// protections says, for each CLI that wires massgen-hook here, which
// protection its shell commands get and how to reach the next level.
// Bubblewrap is probed afresh (doctor writes nothing in the project).
func (d *doctorRun) protections() []doctorProtection {
	var clis []string
	for _, wf := range d.wired {
		if wf.err == nil && len(wf.ours) > 0 && !slices.Contains(clis, wf.target.name) {
			clis = append(clis, wf.target.name)
		}
	}
	out := []doctorProtection{}
	if len(clis) == 0 {
		return out
	}
	slices.SortFunc(clis, func(a, b string) int { return slices.Index(cliOrder, a) - slices.Index(cliOrder, b) })
	path, required := config.Locate(d.configPath, d.getenv("MASSGEN_HOOK_CONFIG"), d.project)
	cfg, err := config.Load(path, required)
	if err != nil {
		cfg = config.Default() // the config's own error is reported above
	}
	avail := confine.Probe(d.sandboxTool(d.project, &cfg))
	for _, cli := range clis {
		p := d.protectionOf(cli, d.project, d.ownSandbox(cli, d.project, ""), &cfg, avail)
		out = append(out, doctorProtection{CLI: cliNames.Get()[cli], Level: p.Level, What: p.What, Next: p.Next})
	}
	return out
}

// cliOrder is the order the CLIs are listed in.
var cliOrder = []string{"claude", "gemini", "codex", "copilot", "opencode", "pi", "cursor"}

func writeProtections(w io.Writer, ps []doctorProtection) {
	for _, p := range ps {
		line := fmt.Sprintf("protection: %s: %s", p.CLI, p.Level)
		if p.Next != "" {
			line += "; to confine shell commands: " + p.Next
		}
		fmt.Fprintln(w, line)
	}
}
