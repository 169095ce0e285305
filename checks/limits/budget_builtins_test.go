package limits_test

import (
	"context"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/checks"
	"github.com/massgen/massgen-hook/checks/internal/checktest"
	"github.com/massgen/massgen-hook/checks/limits"
	"github.com/massgen/massgen-hook/config"
	"github.com/massgen/massgen-hook/engine"
)

// TestBudgetRevertedAfterLaterDeny: a call the budget let through but a
// later rule denied does not use the budget up.
func TestBudgetRevertedAfterLaterDeny(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	cfg, err := config.Parse("cfg.yaml", []byte(`default_guards: false
hooks:
  PreToolUse:
    - {type: builtin, handler: budget, options: {limits: {Bash: 1}}}
    - {type: builtin, handler: dangerous_commands}
`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.Compile(&cfg, checks.Builtins())
	if err != nil {
		t.Fatal(err)
	}
	run := func(command string) engine.Result {
		return e.Run(context.Background(), g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(command)}))
	}
	if res := run("rm -rf /"); res.Decision != "deny" || !strings.Contains(res.Reason, "rule recursive-delete") {
		t.Fatalf("rm -rf /: %+v", res)
	}
	if got := limits.BudgetCounts(t, g, "s1"); got["global Bash"] != 0 {
		t.Fatalf("the denied call was counted: %v", got)
	}
	if res := run("ls"); res.Decision != "none" {
		t.Fatalf("ls: %+v", res)
	}
	if res := run("ls"); res.Decision != "deny" || !strings.Contains(res.Reason, "budget exhausted") {
		t.Fatalf("second ls: %+v", res)
	}
}
