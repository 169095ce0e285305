package protocol

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxStringLen is Claude Code's cap on each output string, in UTF-16 code
// units (JavaScript string length). Longer strings are cut by Write.
const MaxStringLen = 10000

// Write validates o for event, caps its strings and writes it as one JSON
// object and a newline, with a stable field order. The zero Output writes
// nothing: silence is "no opinion".
func Write(w io.Writer, event string, o Output) error {
	if o.IsEmpty() {
		return nil
	}
	o, err := Finish(event, o)
	if err != nil {
		return err
	}
	line, err := o.appendJSON(make([]byte, 0, 256))
	if err != nil {
		return fmt.Errorf("encoding hook output: %w", err)
	}
	_, err = w.Write(append(line, '\n'))
	return err
}

// Finish is o as it goes on the wire: hookEventName filled in, checked
// against event, strings capped. Write uses it; so does anything that
// translates the answer into another agent CLI's shape.
func Finish(event string, o Output) (Output, error) {
	if h := o.HookSpecificOutput; h != nil && h.HookEventName == "" {
		c := *h
		c.HookEventName = event
		o.HookSpecificOutput = &c
	}
	if err := o.Validate(event); err != nil {
		return Output{}, err
	}
	return capStrings(o), nil
}

func capStrings(o Output) Output {
	o.StopReason = Truncate(o.StopReason, MaxStringLen)
	o.SystemMessage = Truncate(o.SystemMessage, MaxStringLen)
	o.Reason = Truncate(o.Reason, MaxStringLen)
	if h := o.HookSpecificOutput; h != nil {
		c := *h
		c.PermissionDecisionReason = Truncate(c.PermissionDecisionReason, MaxStringLen)
		c.AdditionalContext = Truncate(c.AdditionalContext, MaxStringLen)
		o.HookSpecificOutput = &c
	}
	return o
}

// Truncate cuts s to at most max UTF-16 code units, ending it with a visible
// marker that says how much was cut. It never splits a character.
func Truncate(s string, max int) string {
	if len(s) <= max || UTF16Len(s) <= max { // bytes >= UTF-16 units: the cheap test first
		return s
	}
	total := UTF16Len(s)
	// The marker's own length depends on the count it prints; the count is at
	// most total, so reserve room for that many digits.
	marker := func(cut int) string {
		return fmt.Sprintf("\n…[truncated by massgen-hook: %d more characters]", cut)
	}
	withMarker := true
	budget := max - UTF16Len(marker(total))
	if budget < 0 {
		budget, withMarker = max, false // no room even for the marker: a plain cut
	}
	kept, units := 0, 0
	for i, r := range s {
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		if units+n > budget {
			kept = i
			break
		}
		units += n
		kept = i + utf8.RuneLen(r)
	}
	if !withMarker {
		return s[:kept]
	}
	return s[:kept] + marker(total-units)
}

// UTF16Len is the length of s as Claude Code counts it: UTF-16 code units.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Paragraphs joins the non-empty parts with a blank line: how several
// reasons or contexts share one output string.
func Paragraphs(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}
