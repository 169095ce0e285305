//go:build realcli

package realcli

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// scribeGeminiAgent is a custom Gemini CLI subagent that may run commands.
const scribeGeminiAgent = `---
name: scribe
description: Writes short notes when asked to.
tools:
  - run_shell_command
max_turns: 5
---
You write short notes.
`

// geminiWhoseCall: Gemini CLI must run hooks for a subagent's calls (its
// BeforeTool for the scribe's probe is kept) and say whose call it is. When
// the scribe's rule did not deny its probe and the payload names no agent,
// no rule can be the scribe's alone: the scenario is n/a, from what Gemini
// CLI sent.
func geminiWhoseCall(s *Session, run *Run) {
	var subCall map[string]any
	for _, ev := range geminiCaptured(s, "BeforeTool") {
		if strings.Contains(fmt.Sprint(ev["tool_input"]), "agent-rule-probe sub") {
			subCall = ev
		}
	}
	if subCall == nil {
		s.Fatalf("Gemini CLI ran no BeforeTool hook for the subagent's run_shell_command")
	}
	if n := len(geminiCaptured(s, "AfterAgent")); n != 1 {
		s.Observe("AfterAgent ran %d times for a main agent and one subagent", n)
	}
	if res, _ := s.Turn("sub-done").ToolResult("call_sub"); s.deniedResult(res) {
		return
	}
	_, id := subCall["agent_id"]
	_, typ := subCall["agent_type"]
	if !id && !typ {
		s.Cannot("Gemini CLI runs hooks for a subagent's calls but does not say whose call it is "+
			"(the subagent's BeforeTool has only %s), so no rule can be the scribe's alone",
			strings.Join(slices.Sorted(maps.Keys(subCall)), ", "))
	}
}
