//go:build realcli

package realcli

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// CLI is one agent CLI under test: how to install it, how to run it headless
// against the fake model API, and its scenarios. Each CLI lives in its own
// file (claude_test.go, ...) and adds itself to clis from an init function.
type CLI struct {
	// Name is the CLI's column in the results table and its subtest name.
	Name string
	// Version is the pinned version; `<executable> --version` must print it.
	Version string
	// Packages are the npm packages to install, with exact versions.
	Packages []string
	// Executable is the CLI's program inside its install prefix.
	Executable func(prefix string) string
	// Verify checks a finished install where `--version` cannot (an MCP
	// server, which takes no such flag); nil runs checkVersion.
	Verify func(prefix, exe string) error
	// Env is the environment every run of the CLI needs, `--version`
	// included (a cache the CLI unpacks itself into). It may be nil.
	Env func(prefix string) []string
	// Agent is what `massgen-hook init --agent` wires (claude, gemini, codex,
	// copilot).
	Agent string
	// NewWire is the model API the CLI speaks (nil: no fake yet, so only
	// the scenarios that need no model run).
	NewWire func() Wire
	// Setup writes what the CLI needs besides the wiring before a run:
	// settings under HOME, folder trust. It may be nil.
	Setup func(s *Session) error
	// Command is the headless run of prompt in s: arguments and the
	// CLI's own environment variables (the suite adds HOME, PATH, TMPDIR,
	// the proxy trap and the locale).
	Command func(s *Session, prompt string) (args, env []string)
	// Final reads the CLI's own result from its stdout.
	Final func(stdout []byte) (Final, error)
	// Timeout bounds one run (default 3 minutes); the CLI is killed with its
	// process group past it.
	Timeout time.Duration
	// Adapter is how the scenarios written once drive the CLI.
	Adapter
	// Scenarios are the CLI's own tests, besides the shared ones
	// (shared), one subtest each.
	Scenarios []Scenario
}

// all is every scenario of the CLI: the shared ones, then its own, then
// a row for each scenario its adapter names in NA that only other CLIs
// have (they exist there alone), so its n/a is in the table too.
func (c *CLI) all() []Scenario {
	list := append(append([]Scenario(nil), shared...), c.Scenarios...)
	for _, name := range slices.Sorted(maps.Keys(c.NA)) {
		if !slices.ContainsFunc(list, func(sc Scenario) bool { return sc.Name == name }) {
			list = append(list, Scenario{Name: name})
		}
	}
	return list
}

// Final is what the CLI itself says at the end of a headless run.
type Final struct {
	OK   bool            // the run ended as a success
	Text string          // the answer it printed
	Raw  json.RawMessage // the whole result object
}

// Scenario is one behaviour checked against one CLI. Scenarios of different
// CLIs that check the same behaviour share a name, which is their row in the
// results table.
type Scenario struct {
	Name string
	// Project is the project folder's name (default "project"); a name
	// with a space and a quote catches quoting bugs in hook commands.
	Project string
	// OutsideTmp puts the scenario's folder (its HOME, its project) outside
	// the temporary folders, in the suite's cache: the sandbox keeps every
	// temporary folder writable, so only there is HOME read-only in it.
	OutsideTmp bool
	Run        func(t *testing.T, s *Session)
}

// rootParent is the folder the scenario's own folder is made in: the
// temporary folder, or the suite's cache for a scenario OutsideTmp.
func (sc Scenario) rootParent(t *testing.T) string {
	if !sc.OutsideTmp {
		return ""
	}
	cache, err := cacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "runs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// clis is every CLI the suite knows, in table column order.
var clis []*CLI

// cliOrder fixes the table's columns whatever order the init functions ran.
var cliOrder = []string{"claude-code", "gemini-cli", "codex", "copilot-cli", "opencode", "pi"}

func register(c *CLI) { clis = append(clis, c) }
