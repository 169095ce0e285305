//go:build realcli

package realcli

import "slices"

// shared are the scenarios written once, over the CLIs' adapters, that
// run on every CLI (each CLI's adapter names those it cannot run, and
// why). A CLI's own file lists only what exists on it alone.
var shared = slices.Concat([]Scenario{wiredScenario}, guardsScenarios, protocolScenarios, rulesScenarios, redactScenarios, inboxScenarios, confineScenarios)
