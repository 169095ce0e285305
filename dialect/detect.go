package dialect

import (
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/massgen/massgen-hook/internal/lazy"
	"github.com/massgen/massgen-hook/protocol"
)

// markers are top-level fields only one CLI sends, for events that carry
// no name (Copilot's camelCase payloads).
var markers = &lazy.Value[map[string]*Dialect]{New: func() map[string]*Dialect {
	return map[string]*Dialect{
		"conversation_id": Cursor, "generation_id": Cursor, "cursor_version": Cursor,
		"sessionId": Copilot, "toolName": Copilot, "toolArgs": Copilot, "toolResult": Copilot,
	}
}}

// Detect names the CLI that sent raw, where the event says so beyond doubt:
// an event name only that CLI uses (Gemini CLI's; OpenCode's plugin's,
// dotted; pi's snake_case; Cursor's lowerCamel), or, for an event with no
// name, a field only that CLI sends. Anything else is Claude Code, whose
// events pass through untouched; Codex, whose events are Claude Code's
// plus turn_id, is told once the event is parsed (see Refine). The event's
// name comes first in real events, so a megabyte of tool output after it
// is never scanned here.
func Detect(raw []byte) *Dialect {
	named := gjson.GetBytes(raw, "hook_event_name")
	name := named.Str
	if _, ok := Gemini.events.get(name); ok && name != "SessionStart" && name != "SessionEnd" && name != "Notification" {
		return Gemini
	}
	if _, ok := OpenCode.events.get(name); ok {
		return OpenCode // its plugin names events after OpenCode's hooks (tool.execute.before)
	}
	if _, ok := Pi.events.get(name); ok {
		return Pi // snake_case names: pi's own event types
	}
	if r, _ := utf8.DecodeRuneInString(name); unicode.IsLower(r) {
		return Cursor // Claude Code and Gemini name events in PascalCase
	}
	d := Claude
	if named.Exists() {
		return d
	}
	protocol.View(raw).ForEach(func(key, _ gjson.Result) bool {
		if m, ok := markers.Get()[key.Str]; ok {
			d = m
			return false
		}
		return true
	})
	return d
}

// Refine tells a Codex event from Claude Code's by its turn_id, once the
// event is parsed (the parse reads every field anyway).
func (d *Dialect) Refine(ev *protocol.Event) *Dialect {
	if d == Claude && ev != nil && ev.TurnID != "" {
		return Codex
	}
	return d
}
