//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// The built-in redact_secrets guard, on every CLI: a secret environment
// variable's value that a command prints is masked before the model reads
// it, through whatever way the CLI gives a hook to replace a tool's output.

var redactScenarios = []Scenario{
	{Name: "guards/redact-secret-output", Run: redactSecretOutput},
}

// redactDemoValue is the secret: the value of REALCLI_DEMO_API_KEY in the
// CLI's (and so the hooks') environment, also written in a file of the
// project under a harmless name, which the model then reads with cat.
const redactDemoValue = "sk-demo-7391-QWERTYUIOP"

// redactSecretOutput: the model runs `cat notes.txt`, whose output holds
// the secret's value; with no configuration, the model reads
// [redacted $REALCLI_DEMO_API_KEY] in its place, and never the value.
func redactSecretOutput(t *testing.T, s *Session) {
	s.Env = append(s.Env, "REALCLI_DEMO_API_KEY="+redactDemoValue)
	s.WriteFile("notes.txt", "deploy key: "+redactDemoValue+"\n")
	s.Wire()
	m := s.Model
	m.On("cat", All(Main, First), s.CLI.Shell("call_cat", "cat notes.txt"))
	m.On("done", All(Main, After("call_cat")), Say("read"))
	run := s.Run("read the notes")

	next := s.Turn("done")
	res, _ := next.ToolResult("call_cat")
	switch {
	case s.CLI.ReplacesOutput:
		if !strings.Contains(res.Text, "[redacted $REALCLI_DEMO_API_KEY]") {
			s.Errorf("the model did not read the masked output as the result of cat: %+v", res)
		}
		if strings.Contains(next.TailText(), redactDemoValue) {
			s.Errorf("the secret's value reached the model: %q", clip(next.TailText(), 600))
		}
	default:
		s.Observe("%s cannot replace a tool's output: the model read %q", s.CLI.Name, clip(res.Text, 200))
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
