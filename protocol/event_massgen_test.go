package protocol

import "testing"

// TestMassGenEventAgent: a MassGen HookEvent's agent_id is a MassGen
// agent, never a Claude Code subagent; hook_type names the event.
func TestMassGenEventAgent(t *testing.T) {
	ev, err := ParseEvent([]byte(`{"hook_type":"PreToolUse","session_id":"s","orchestrator_id":"o","agent_id":"agent_a","tool_name":"Bash","tool_input":{},"tool_output":null}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.AgentID != "" || ev.MassGenAgent != "agent_a" || ev.Orchestrator != "o" || ev.HookEventName != PreToolUse || !ev.FromMassGen {
		t.Errorf("MassGen event: AgentID %q, MassGenAgent %q, Orchestrator %q, event %q", ev.AgentID, ev.MassGenAgent, ev.Orchestrator, ev.HookEventName)
	}
	ev, err = ParseEvent([]byte(`{"hook_event_name":"PreToolUse","agent_id":"a1","agent_type":"reviewer","tool_name":"Bash","tool_input":{}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.AgentID != "a1" || ev.MassGenAgent != "" || ev.FromMassGen {
		t.Errorf("Claude Code subagent event: AgentID %q, MassGenAgent %q", ev.AgentID, ev.MassGenAgent)
	}
	if _, err := ParseEvent([]byte(`{"hook_type":"PostToolUse","orchestrator_id":"o"}`), PreToolUse); err == nil {
		t.Error("a MassGen PostToolUse event is accepted by a PreToolUse hook")
	}
}
