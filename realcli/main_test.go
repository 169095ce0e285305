//go:build realcli

package realcli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// hookBinary is massgen-hook built once for the whole run; every project is
// wired by it, and `init` copies it into the project.
var hookBinary string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "realcli-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "realcli:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	hookBinary = filepath.Join(dir, "massgen-hook")
	start := time.Now()
	build := exec.Command("go", "build", "-trimpath", "-o", hookBinary, "../cmd/massgen-hook")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "realcli: building massgen-hook: %v\n%s", err, out)
		return 1
	}
	logf("built massgen-hook in %s", time.Since(start).Round(time.Millisecond))

	code := m.Run()
	if err := writeReport(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "realcli:", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "realcli: "+format+"\n", args...)
}

// TestRealCLI runs every scenario of every CLI, one subtest each:
// TestRealCLI/<cli>/<scenario>. Scenarios run in parallel: each has its own
// HOME, project and fake model API.
func TestRealCLI(t *testing.T) {
	for _, name := range cliOrder {
		c := cliNamed(name)
		if c == nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel() // CLIs run side by side, not one after another
			for _, sc := range c.all() {
				t.Run(sc.Name, func(t *testing.T) {
					t.Parallel()
					runScenario(t, c, sc)
				})
			}
		})
	}
}

func cliNamed(name string) *CLI {
	for _, c := range clis {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// runScenario runs one scenario and records its outcome for the table.
func runScenario(t *testing.T, c *CLI, sc Scenario) {
	s := &Session{t: t, CLI: c}
	t.Cleanup(func() {
		reason := s.firstReason()
		outcome := "pass"
		switch {
		case t.Failed(): // even when it was skipped or found n/a afterwards
			outcome = "fail"
		case s.cannotReason() != "":
			outcome, reason = "n/a", s.cannotReason()
		case t.Skipped():
			outcome = "skip"
		}
		if outcome != "pass" && reason == "" {
			reason = "see the test log"
		}
		results.add(result{cli: c.Name, scenario: sc.Name, outcome: outcome, reason: reason, observed: s.observations()})
	})
	if why, ok := c.NA[sc.Name]; ok {
		s.Cannot("%s", why)
	}
	s.start(sc)
	sc.Run(t, s)
}
