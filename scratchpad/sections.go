package scratchpad

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// DefaultSections are the three headings every subagent scratchpad must have.
var DefaultSections = []string{"What I did", "Cross-agent observations", "Unresolved"}

var markdown = goldmark.New()

// MissingSections returns the required headings that content lacks, in the
// order given. A heading counts when it is a top-level Markdown ATX heading
// ("## What I did", any level) whose text equals the required one, ignoring
// case, runs of spaces and a trailing colon. Headings inside fenced or
// indented code, HTML comments, quotes or lists, setext headings, and
// mentions in body text do not count. A byte order mark and CRLF line ends
// are accepted.
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

// Headings returns the normalized text of every top-level ATX heading in content.
func Headings(content []byte) map[string]bool {
	src := bytes.TrimPrefix(content, bom)
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	have := map[string]bool{}
	if bytes.IndexByte(src, '#') < 0 {
		return have // no heading can exist: skip the parse
	}
	doc := markdown.Parser().Parse(text.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || !isATX(h, src) {
			continue
		}
		var b strings.Builder
		plainText(&b, h, src)
		have[normalizeHeading(b.String())] = true
	}
	return have
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// isATX tells an ATX heading ("## x") from a setext one ("x\n---"): the line
// it starts on begins with '#'.
func isATX(h *ast.Heading, src []byte) bool {
	if h.Lines().Len() == 0 {
		return true // an empty heading can only be ATX
	}
	start := h.Lines().At(0).Start
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	return strings.HasPrefix(strings.TrimLeft(string(src[lineStart:start]), " \t"), "#")
}

// plainText collects the text of n's inline children, dropping emphasis and
// code-span markers, so "## **Unresolved**" reads as "Unresolved".
func plainText(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		default:
			plainText(b, c, src)
		}
	}
}

func normalizeHeading(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
	return strings.ToLower(s)
}
