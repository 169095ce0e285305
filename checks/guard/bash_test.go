package guard

import (
	"encoding/json"
	"testing"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
)

// Both Bash guards read the command once between them, and a rewrite of
// the input by an earlier rule is read afresh.
func TestBashScriptParsedOncePerCommand(t *testing.T) {
	ev, err := protocol.ParseEvent([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{"command":"rm -rf build"}}`), protocol.PreToolUse)
	if err != nil {
		t.Fatal(err)
	}
	call := &engine.Call{Event: ev, HookType: protocol.PreToolUse, Project: "/p", ToolInput: ev.ToolInput}
	sc := ShellCallOf(call)
	first, ok, err := bashScript(call, sc)
	if !ok || err != nil {
		t.Fatalf("bashScript = %v, %v", ok, err)
	}
	again, _, _ := bashScript(call, ShellCallOf(call))
	if again != first {
		t.Error("the same command was parsed twice in one call")
	}
	call.ToolInput = json.RawMessage(`{"command":"ls"}`)
	rewritten, _, _ := bashScript(call, sc)
	if rewritten == first || rewritten.Commands[0].Base() != "ls" {
		t.Errorf("a rewritten command was not read afresh: %+v", rewritten.Commands[0])
	}
	call.Event.ToolName = "Read"
	if _, ok, _ := bashScript(call, sc); ok {
		t.Error("a Read call has no Bash command")
	}
}
