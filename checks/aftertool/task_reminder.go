package aftertool

import (
	"context"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/engine"
	"github.com/massgen/massgen-hook/protocol"
)

// taskReminderText is MassGen's HighPriorityTaskReminderHook text (seed 002).
const taskReminderText = `============================================================
⚠️ SYSTEM REMINDER
============================================================
✓ High-priority task completed! Document decisions to optimize future work:
• Which skills/tools were effective (or not)? → memory/long_term/skill_effectiveness.md
• What approach worked (or failed) and why? → memory/long_term/approach_patterns.md
• What would prevent mistakes on similar tasks? → memory/long_term/lessons_learned.md
• User preferences revealed? → memory/short_term/user_prefs.md
============================================================`

// TaskReminder reminds the agent to write down what it learned when a
// planning tool reports a high-priority task completed (MassGen's
// HighPriorityTaskReminderHook; give its rule the matcher
// "*update_task_status"). It reads the tool output as JSON wherever Claude
// Code puts it: an object, a JSON string, or the text blocks of an MCP
// tool's content array.
func TaskReminder(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	if !highPriorityDone(protocol.View(call.ToolOutput)) {
		return engine.Verdict{}, nil
	}
	return engine.Verdict{Injections: []engine.Injection{{Content: taskReminderText, Strategy: engine.UserMessage}}}, nil
}

func highPriorityDone(out gjson.Result) bool {
	switch {
	case out.IsObject():
		t := out.Get("task")
		return t.Get("priority").String() == "high" && t.Get("status").String() == "completed"
	case out.Type == gjson.String:
		s := out.Str
		return protocol.Valid(s) && highPriorityDone(gjson.Parse(s))
	case out.IsArray():
		found := false
		out.ForEach(func(_, block gjson.Result) bool {
			text := block.Get("text")
			found = block.Get("type").String() == "text" && text.Type == gjson.String && highPriorityDone(text)
			return !found
		})
		return found
	}
	return false
}
