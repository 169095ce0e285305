package engine

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// separator sets tool_result injections apart from the tool's own output
// (seed 000, "Visual Separation"): the model must not mistake them for what
// the tool returned.
const separator = "═══════════════════════════════════════════════════════"

// renderInjections turns injections into one additionalContext text, in
// order, each in the form its strategy asks for. With plain, user_message
// injections go without their <system-reminder> frame: the CLI already
// sets hook context apart, and would show the frame's markup escaped.
func renderInjections(injections []Injection, plain bool) string {
	parts := make([]string, 0, len(injections))
	for _, in := range injections {
		c := strings.TrimRight(in.Content, "\n")
		switch in.Strategy {
		case ToolResult:
			parts = append(parts, separator+"\nSYSTEM CONTEXT (not part of tool output):\n"+c+"\n"+separator)
		case UserMessage:
			if plain {
				parts = append(parts, c)
			} else {
				parts = append(parts, "<system-reminder>\n"+c+"\n</system-reminder>")
			}
		default:
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "\n\n")
}

// mergeHookInjections combines the HookResult injections as MassGen's
// execute_hooks does: one injection, where the first was, holding every
// content joined by a newline, in the strategy of the last. Other
// injections (the inbox's, a Claude Code rule's context) keep their own.
func mergeHookInjections(in []Injection) []Injection {
	var contents []string
	strategy, at := "", -1
	out := make([]Injection, 0, len(in))
	for _, x := range in {
		if !x.hookResult {
			out = append(out, x)
			continue
		}
		if at < 0 {
			at = len(out)
			out = append(out, Injection{})
		}
		contents = append(contents, x.Content)
		strategy = x.Strategy
	}
	if at >= 0 {
		out[at] = Injection{Content: strings.Join(contents, "\n"), Strategy: strategy, hookResult: true}
	}
	return out
}

func joinLines(lines []string) string { return strings.Join(lines, "\n") }

// quoteList is `"a"`, `"a" and "b"`, `"a", "b" and "c"`.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return "hook " + q[0]
	}
	return "hooks " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// previewText is the first n runes of s on one line, for records.
func previewText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
