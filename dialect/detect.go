package dialect

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// markers are top-level fields only one CLI sends.
var markers = map[string]*Dialect{
	"conversation_id": Cursor, "generation_id": Cursor, "cursor_version": Cursor,
	"sessionId": Copilot, "toolName": Copilot, "toolArgs": Copilot, "toolResult": Copilot,
	"turn_id": Codex,
}

// Detect names the CLI that sent raw, where the event says so beyond doubt:
// a field or an event name only that CLI uses. Anything else is Claude
// Code, whose events pass through untouched; a Codex event without turn_id
// is the same as Claude Code's anyway.
func Detect(raw []byte) *Dialect {
	name := gjson.GetBytes(raw, "hook_event_name").Str
	if _, ok := Gemini.events[name]; ok && name != "SessionStart" && name != "SessionEnd" && name != "Notification" {
		return Gemini
	}
	if r, _ := utf8.DecodeRuneInString(name); unicode.IsLower(r) {
		return Cursor // Claude Code and Gemini name events in PascalCase; Copilot's camelCase payloads carry none
	}
	// The cheap test first: a real Claude Code event mentions no marker
	// anywhere, and a megabyte of tool output is searched in microseconds.
	found := false
	for m := range markers {
		if bytes.Contains(raw, []byte(m)) {
			found = true
			break
		}
	}
	if !found {
		return Claude
	}
	d := Claude
	gjson.ParseBytes(raw).ForEach(func(key, _ gjson.Result) bool {
		if m, ok := markers[key.Str]; ok {
			d = m
			return false
		}
		return true
	})
	return d
}
