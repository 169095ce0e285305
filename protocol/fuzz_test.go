package protocol

import (
	"errors"
	"testing"
)

func FuzzParseEvent(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"hook_event_name":"Stop","stop_hook_active":true,"background_tasks":[{}]}`,
		`{"hook_event_name":"SubagentStop","agent_type":"","agent_id":"a1"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"PostToolUse","tool_response":[{"type":"text","text":"x"}]}`,
		"\uFEFF{\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}",
		`{"agent_type":5}`,
		`[1]`,
		`"s"`,
		``,
	} {
		f.Add([]byte(seed), "")
		f.Add([]byte(seed), Stop)
	}
	f.Fuzz(func(t *testing.T, raw []byte, want string) {
		ev, err := ParseEvent(raw, want)
		if err != nil {
			if ev != nil {
				t.Fatalf("event and error both returned: %v", err)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is %T, not *InputError", err, err)
			}
			return
		}
		if ev.HookEventName == "" {
			t.Fatal("nil error but empty HookEventName")
		}
		if want != "" && ev.HookEventName != want {
			t.Fatalf("HookEventName %q, want %q", ev.HookEventName, want)
		}
		if ev.BackgroundTasks < 0 {
			t.Fatal("negative BackgroundTasks")
		}
	})
}
