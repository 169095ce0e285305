package scratchpad

import (
	"bytes"
	"strings"
)

// DefaultSections are the three headings every subagent scratchpad must have.
var DefaultSections = []string{"What I did", "Cross-agent observations", "Unresolved"}

// MissingSections returns the required headings that content lacks, in the
// order given. A heading counts when it is a top-level Markdown ATX heading
// ("## What I did", any level) whose text equals the required one, ignoring
// case, runs of spaces, emphasis markers and a trailing colon. Headings inside
// fenced or indented code, HTML blocks and comments, block quotes or list
// items, setext headings, and mentions in body text do not count. A byte
// order mark and CRLF line ends are accepted.
func MissingSections(content []byte, required []string) []string {
	have := Headings(content)
	var missing []string
	for _, want := range required {
		if !have[normalizeHeading(want)] {
			missing = append(missing, want)
		}
	}
	return missing
}

// Headings returns the normalized text of every top-level ATX heading in
// content.
//
// It follows CommonMark's block rules for what can hide a heading line, and
// is checked against goldmark (a full CommonMark parser) by a differential
// fuzz test. goldmark itself is not linked into the binary: its package
// initialisation alone costs about a millisecond, paid by every hook call.
func Headings(content []byte) map[string]bool {
	have := map[string]bool{}
	scanHeadings(content, func(_ int, text string) { have[normalizeHeading(text)] = true })
	return have
}

// scanHeadings calls found with the 0-based line number and raw text of each
// top-level ATX heading in content.
func scanHeadings(content []byte, found func(line int, text string)) {
	if bytes.IndexByte(content, '#') < 0 {
		return // no heading can exist
	}
	var b blockScanner
	src := bytes.TrimPrefix(content, bom)
	for n := 0; len(src) > 0; n++ {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if text, ok := b.next(line); ok {
			found(n, text)
		}
	}
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// normalizeHeading is the form headings are compared in.
func normalizeHeading(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '*' || r == '_' || r == '`' {
			return -1 // emphasis and code-span markers: "## **Unresolved**"
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
	return strings.ToLower(s)
}
