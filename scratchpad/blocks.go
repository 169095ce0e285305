package scratchpad

import (
	"bytes"
	"strings"
)

// blockScanner walks a Markdown document line by line and tells which lines
// are top-level ATX headings. It tracks just the blocks that can contain a
// line starting with '#' without it being a top-level heading: fenced code,
// HTML blocks, block quotes, list items, and paragraphs (for the rules that
// depend on them). Indented code needs no state: a line indented four
// columns is never an ATX heading.
type blockScanner struct {
	fence      byte // '`' or '~' while inside fenced code
	fenceLen   int
	html       *htmlEnd // how the open HTML block ends; nil when none
	listIndent int      // content column of the open list item, 0 when none
	listEmpty  bool     // the open list item has no content yet
	quote      bool     // inside a block quote (until a blank line)
	paragraph  bool     // the previous line continued a paragraph
}

// next consumes one line (without its line end) and returns the heading's
// raw text when the line is a top-level ATX heading.
func (b *blockScanner) next(line []byte) (string, bool) {
	ind, rest := indentation(line)
	blank := isBlank(line)

	switch {
	case b.fence != 0:
		if ind < 4 && isClosingFence(rest, b.fence, b.fenceLen) {
			b.fence = 0
		}
		return "", false
	case b.html != nil:
		if b.html.ends(line) {
			b.html = nil
		}
		return "", false
	}

	if blank {
		if b.listEmpty {
			b.listIndent = 0 // an item may begin with at most one blank line
		}
		b.paragraph, b.quote = false, false
		return "", false
	}
	if b.listIndent > 0 {
		if ind >= b.listIndent {
			// Content of the open list item. Whether it leaves a paragraph
			// open decides if a later, less indented line continues it.
			b.listEmpty = false
			if rel := ind - b.listIndent; rel >= 4 {
				b.paragraph = opensParagraph(rest, rel)
			} else {
				// A nested item or quote ("  * text") leaves its own
				// paragraph open, which a later line may continue lazily.
				b.paragraph = opensParagraph(innermost(rest), 0)
			}
			return "", false
		}
		if listMarker(rest, false) > 0 {
			b.paragraph = false // a sibling item, which may be empty
		} else if b.paragraph && !startsBlock(rest, ind) {
			return "", false // lazy continuation: the item stays open
		}
		b.listIndent = 0
	}
	if b.quote && b.paragraph && !startsBlock(rest, ind) && (ind >= 4 || listMarker(rest, false) == 0) {
		// Lazy continuation of a quoted paragraph. A list marker is not
		// one, even one that could not interrupt a paragraph ("-", "2."):
		// outside the quote no paragraph is open for it to continue.
		return "", false
	}
	if b.quote {
		b.quote, b.paragraph = false, false // the quote's paragraph ends with it
	}
	if ind >= 4 {
		// Indented code, or a paragraph's continuation: never a heading.
		return "", false
	}
	if c, n := fenceOpening(rest); n > 0 {
		b.fence, b.fenceLen, b.paragraph = c, n, false
		return "", false
	}
	if rest[0] == '<' {
		if end, ok := htmlBlockStart(line, b.paragraph); ok {
			b.paragraph = false
			if end.blankLine || !end.ends(line) {
				b.html = &end // else it opens and closes on this line
			}
			return "", false
		}
	}
	if rest[0] == '>' {
		content := bytes.TrimLeft(rest[1:], " \t")
		b.quote = true
		b.paragraph = opensParagraph(content, 0)
		return "", false
	}
	if w := listMarker(rest, b.paragraph); w > 0 {
		b.listIndent = ind + w
		after := rest[min(w, len(rest)):]
		content := bytes.TrimLeft(after, " \t")
		// An item holding only an empty nested item is as empty as one with
		// nothing at all: either ends at a blank line.
		b.listEmpty = isBareMarker(rest) || (len(content) > 0 && listMarker(content, false) > 0 && isBareMarker(content))
		// Content four columns past the item's start is indented code,
		// which no line continues lazily.
		code, _ := indentation(after)
		b.paragraph = !b.listEmpty && code < 4 && opensParagraph(innermost(content), 0)
		return "", false
	}
	if text, ok := atxHeading(rest); ok {
		b.paragraph = false
		return text, true
	}
	if isThematicBreak(rest) {
		b.paragraph = false
		return "", false
	}
	b.paragraph = true
	return "", false
}

// innermost strips the markers of items and quotes nested on an item's
// first line ("- - note", "- > note"): what is left decides whether that
// line leaves a paragraph open for the next one to continue.
func innermost(content []byte) []byte {
	for len(content) > 0 {
		switch w := listMarker(content, false); {
		case content[0] == '>':
			content = bytes.TrimLeft(content[1:], " \t")
		case w > 0:
			content = bytes.TrimLeft(content[min(w, len(content)):], " \t")
		default:
			return content
		}
	}
	return content
}

// indentation returns the line's indentation in columns (tabs to the next
// multiple of 4) and the line after it.
func indentation(line []byte) (int, []byte) {
	col := 0
	for i, c := range line {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col, line[i:]
		}
	}
	return col, nil
}

// startsBlock reports whether a line would start a new block rather than
// continue a paragraph lazily.
func startsBlock(rest []byte, ind int) bool {
	if ind >= 4 || len(rest) == 0 {
		return false
	}
	if _, n := fenceOpening(rest); n > 0 {
		return true
	}
	if _, ok := atxHeading(rest); ok {
		return true
	}
	if rest[0] == '<' {
		if _, ok := htmlBlockStart(rest, true); ok {
			return true
		}
	}
	return rest[0] == '>' || isThematicBreak(rest) || listMarker(rest, true) > 0
}

// opensParagraph reports whether a line of text (at indentation ind within
// its container) starts or continues a paragraph rather than another block.
func opensParagraph(text []byte, ind int) bool {
	return len(text) > 0 && !startsBlock(text, ind)
}

// atxHeading parses "#{1,6} text #*" and returns the text.
func atxHeading(rest []byte) (string, bool) {
	n := 0
	for n < len(rest) && rest[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(rest) && rest[n] != ' ' && rest[n] != '\t') {
		return "", false
	}
	text := strings.TrimRight(string(rest[n:]), " \t")
	// A closing sequence of #s counts only after a space (or as the whole text).
	trimmed := strings.TrimRight(text, "#")
	if trimmed == "" || strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t") {
		text = trimmed
	}
	return strings.TrimSpace(text), true
}

// fenceOpening returns the fence character and length of a code fence
// opening, or 0.
func fenceOpening(rest []byte) (byte, int) {
	if len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0
	}
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < 3 || (c == '`' && bytes.IndexByte(rest[n:], '`') >= 0) {
		return 0, 0
	}
	return c, n
}

func isClosingFence(rest []byte, c byte, n int) bool {
	m := 0
	for m < len(rest) && rest[m] == c {
		m++
	}
	return m >= n && isBlank(rest[m:])
}

// listMarker returns the width of a list item marker and the space after it
// ("- ", "1. "), or 0. An ordered list interrupting a paragraph must start at
// 1, and an empty item cannot interrupt one.
func listMarker(rest []byte, inParagraph bool) int {
	i := 0
	if rest[0] == '-' || rest[0] == '+' || rest[0] == '*' {
		i = 1
	} else {
		for i < len(rest) && i < 9 && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(rest) || (rest[i] != '.' && rest[i] != ')') {
			return 0
		}
		if inParagraph && string(rest[:i]) != "1" {
			return 0
		}
		i++
	}
	if i == len(rest) {
		if inParagraph {
			return 0
		}
		return i + 1
	}
	if rest[i] != ' ' && rest[i] != '\t' {
		return 0
	}
	if inParagraph && isBlank(rest[i:]) {
		return 0
	}
	if isThematicBreak(rest) {
		return 0
	}
	spaces, after := indentation(rest[i:])
	if len(after) == 0 || spaces > 4 {
		return i + 1 // blank item or indented code inside: content starts after one space
	}
	return i + spaces
}

// isThematicBreak reports "***", "- - -", "___" and the like.
func isThematicBreak(rest []byte) bool {
	var c byte
	n := 0
	for _, x := range rest {
		switch {
		case x == ' ' || x == '\t':
		case (x == '*' || x == '-' || x == '_') && (c == 0 || c == x):
			c = x
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// isBareMarker reports a list item marker with nothing after it ("-", "1.").
// rest must start with a marker (listMarker > 0).
func isBareMarker(rest []byte) bool {
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	return isBlank(rest[i+1:])
}

// isBlank reports text of spaces and tabs only: CommonMark's blank. A
// vertical tab or form feed is content, so "* \v" is an item that holds
// something, not an empty one that a blank line ends.
func isBlank(text []byte) bool { return len(bytes.Trim(text, " \t")) == 0 }
