//go:build realcli

package realcli

import (
	"strings"
	"testing"
)

// claudeScratchpadPermissions: Claude Code asks before any write under
// .claude/, and headless nobody answers. A subagent that writes its
// scratchpad with a shell command is refused (permission-request grants
// only Write, Edit and MultiEdit); its Write of another agent's scratchpad
// is refused; its Write of its own file for today is granted, and the grant
// is in the audit trail.
func claudeScratchpadPermissions(t *testing.T, s *Session) {
	s.WriteFile(".claude/agents/scribe.md", scribeAgent)
	s.Wire()
	m := s.Model
	own := Scratchpad("scribe", s.Today())
	other := Scratchpad("coordinator", s.Today())
	m.On("delegate", All(Main, First), ccAgent("toolu_agent", "scribe", "task-pad: write your note"))
	m.On("sub-bash", All(Subagent("task-pad"), First),
		ccBash("toolu_bash", "cat > "+own+" <<'EOF'\n"+scratchpadBody("written by a shell command")+"EOF"))
	// What each refused call left on disk, read before the next call.
	var afterBash, afterOther bool
	other1 := m.On("sub-other", All(Subagent("task-pad"), After("toolu_bash")),
		ccWrite("toolu_other", s.Path(other), "FORGED-COORDINATOR-LOG-6310\n"))
	other1.Before = func(*Request) error { _, afterBash = s.ReadFile(own); return nil }
	own1 := m.On("sub-own", All(Subagent("task-pad"), After("toolu_other")),
		ccWrite("toolu_own", s.Path(own), scratchpadBody("written with Write")))
	own1.Before = func(*Request) error { _, afterOther = s.ReadFile(other); return nil }
	m.On("sub-stops", All(Subagent("task-pad"), After("toolu_own")), Say("note written"))
	m.On("main-logs", All(Main, After("toolu_agent")), coordinatorLog(s, "toolu_log", "scribe wrote its note"))
	m.On("main-ends", All(Main, After("toolu_log")), Say("done"))
	run := s.Run("have the scribe write its note")

	if res, _ := s.Turn("sub-other").ToolResult("toolu_bash"); !res.IsError || !strings.Contains(res.Text, "sensitive file") || afterBash {
		s.Errorf("the subagent's shell command writing its scratchpad was not refused as a write to a sensitive file (file written: %v): %+v", afterBash, res)
	} else {
		s.Observe("a subagent's shell command writing under .claude/ is refused headless: %q", clip(res.Text, 200))
	}
	if res, _ := s.Turn("sub-own").ToolResult("toolu_other"); !res.IsError || afterOther {
		s.Errorf("the subagent's Write of the coordinator's scratchpad was not refused (file written: %v): %+v", afterOther, res)
	}
	if res, _ := s.Turn("sub-stops").ToolResult("toolu_own"); res.IsError {
		s.Fatalf("the subagent's Write of its own scratchpad was refused: %q", res.Text)
	}
	if got, _ := s.ReadFile(own); !strings.Contains(got, "written with Write") {
		s.Errorf("the scratchpad is not on disk (got %q)", got)
	}
	if got, _ := s.ReadFile(other); strings.Contains(got, "FORGED") {
		s.Errorf("the subagent wrote the coordinator's scratchpad: %q", got)
	}
	wantGrant(s, "scribe")
	for _, rec := range s.Audit() {
		if rec["event"] == "PermissionRequest" && rec["agent"] == "scribe" && rec["file"] != own {
			s.Errorf("permission-request granted the scribe another file: %v", rec)
		}
	}
	if !run.Final.OK {
		s.Errorf("the run did not end as a success: %s", run.Final.Raw)
	}
}
