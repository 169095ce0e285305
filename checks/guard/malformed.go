package guard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/engine"
)

// maxToolNameLen is the longest tool name taken as real. Real names, MCP
// ones included, are far shorter; a longer one is arguments or text that
// ran into the name.
const maxToolNameLen = 200

const malformedAdvice = "Call the tool again by its exact name with its arguments as a JSON object (proper JSON arguments, no XML or markup in the name)."

// NewMalformedToolCall is the factory of malformed_tool_call: it denies a
// tool call whose name carries markup or garbage from a concatenation
// error (Write</invoke>, <parameter name="x">, a name with spaces or
// quotes) or whose tool_input is not a JSON object. It takes no options.
func NewMalformedToolCall(options *yaml.Node) (engine.Builtin, error) {
	return hookenv.NoOptions(engine.BuiltinFunc(malformedToolCall))(options)
}

func malformedToolCall(_ context.Context, call *engine.Call) (engine.Verdict, error) {
	if call == nil || call.Event == nil || !call.Event.Get("tool_name").Exists() {
		// An event without the field is a hand-written or partial one, not
		// a model's call: there is nothing to judge.
		return engine.Verdict{}, nil
	}
	if what := badToolName(call.Event.ToolName); what != "" {
		return engine.Verdict{
			Decision:      engine.Deny,
			Reason:        "⚠️ BLOCKED: malformed tool call: " + what + ". " + malformedAdvice,
			SystemMessage: "⚠️ BLOCKED: Malformed tool name " + quoteCut(call.Event.ToolName, 80) + ". Use proper JSON arguments.",
		}, nil
	}
	if what := badToolInput(callToolInput(call)); what != "" {
		return engine.Verdict{
			Decision:      engine.Deny,
			Reason:        "⚠️ BLOCKED: malformed tool call: " + what + ". " + malformedAdvice,
			SystemMessage: "⚠️ BLOCKED: Malformed " + call.Event.ToolName + " call: its input is not a JSON object.",
		}, nil
	}
	return engine.Verdict{}, nil
}

// callToolInput is the tool input as the current rule sees it (a previous
// rule's rewrite, else the event's); nil when the event has none.
func callToolInput(call *engine.Call) json.RawMessage {
	if call.ToolInput != nil {
		return call.ToolInput
	}
	if call.Event != nil {
		return call.Event.ToolInput
	}
	return nil
}

// badToolName says what is wrong with a tool name, or "" when nothing is.
// Real names are identifiers with underscores, hyphens and dots:
// Bash, mcp__github__get_pull_request_reviews, mcp__vibe-check-npm__x.
func badToolName(name string) string {
	if name == "" {
		return "the tool name is empty"
	}
	if len(name) > maxToolNameLen {
		return fmt.Sprintf("the tool name is %d bytes long, so arguments or text ran into it: %s", len(name), quoteCut(name, 80))
	}
	if what := badToolNameChar(name); what != "" {
		return "the tool name " + quoteCut(name, 80) + " " + what
	}
	return ""
}

// badToolNameChar says which kind of character a tool name should not
// hold, or "" when it holds none.
func badToolNameChar(name string) string {
	switch {
	case strings.ContainsAny(name, "<>"):
		return "contains XML markup (\"<\" or \">\")"
	case strings.ContainsAny(name, "{}"):
		return "contains a brace, so JSON arguments ran into it"
	case strings.ContainsAny(name, "\"'`"):
		return "contains a quote"
	case !utf8.ValidString(name):
		return "is not valid UTF-8"
	}
	for _, r := range name {
		switch {
		case unicode.IsSpace(r):
			return "contains whitespace"
		case !unicode.IsPrint(r):
			return "contains a control or invisible character"
		}
	}
	return ""
}

// badToolInput says what is wrong with a tool input, or "" when nothing
// is. A missing input is fine: older events have none.
func badToolInput(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '{' {
		return ""
	}
	var kind string
	switch c := raw[0]; {
	case c == '[':
		kind = "a JSON array"
	case c == '"':
		kind = "a JSON string"
	case c == 'n':
		kind = "JSON null"
	case c == 't' || c == 'f':
		kind = "a JSON boolean"
	case c == '-' || (c >= '0' && c <= '9'):
		kind = "a JSON number"
	default:
		kind = "not JSON"
	}
	return fmt.Sprintf("the tool input is %s (%s), not a JSON object of named arguments", kind, quoteCut(string(raw), 60))
}

// quoteCut is s quoted for a message, cut to about n bytes (on a rune
// boundary) so a runaway name or input does not flood the reason.
func quoteCut(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%q…", s[:n])
}
