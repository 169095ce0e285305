package scratchpad

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// HTML block rules, as CommonMark defines them and goldmark (the reference
// the differential test compares with) writes them. They are compiled the
// first time a line starts with '<', so a hook whose scratchpad has no HTML
// never pays for them.
var htmlPatterns = &lazy.Value[*htmlRules]{New: func() *htmlRules {
	const attr = `(?:[ \t]+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:[ \t]*=[ \t]*(?:[^"'=<>` + "`" + `\x00-\x20]+|'[^']*'|"[^"]*"))?)`
	return &htmlRules{
		type1Open:  regexp.MustCompile(`(?i)^[ ]{0,3}<(script|pre|style|textarea)(?:\s.*|>.*|/>.*|)$`),
		type1Close: regexp.MustCompile(`(?i)^.*</(?:script|pre|style|textarea)>.*`),
		type4Open:  regexp.MustCompile(`^[ ]{0,3}<![A-Z]+.*$`),
		type6:      regexp.MustCompile(`^[ ]{0,3}<(?:/[ ]*)?([a-zA-Z]+[a-zA-Z0-9\-]*)(?:[ ].*|>.*|/>.*|)$`),
		type7:      regexp.MustCompile(`^[ ]{0,3}<(/[ ]*)?([a-zA-Z]+[a-zA-Z0-9\-]*)(` + attr + `*)[ ]*(?:>|/>)[ ]*$`),
	}
}}

type htmlRules struct{ type1Open, type1Close, type4Open, type6, type7 *regexp.Regexp }

// htmlEnd says how an open HTML block ends: at a line matching closeRe, at a
// line containing closeText, or (blankLine) at the next blank line.
type htmlEnd struct {
	closeRe   *regexp.Regexp
	closeText string
	blankLine bool
}

// htmlBlockStart reports whether line (with its indentation) opens an HTML
// block, and how that block ends. Headings inside one ("<!-- ## x -->") are
// not headings.
func htmlBlockStart(line []byte, inParagraph bool) (htmlEnd, bool) {
	rules := htmlPatterns.Get()
	switch {
	case rules.type1Open.Match(line):
		return htmlEnd{closeRe: rules.type1Close}, true
	case hasPrefixAfterIndent(line, "<!--"):
		return htmlEnd{closeText: "-->"}, true
	case hasPrefixAfterIndent(line, "<?"):
		return htmlEnd{closeText: "?>"}, true
	case rules.type4Open.Match(line):
		return htmlEnd{closeText: ">"}, true
	case hasPrefixAfterIndent(line, "<![CDATA["):
		return htmlEnd{closeText: "]]>"}, true
	}
	if m := rules.type7.FindSubmatchIndex(line); m != nil {
		closing := m[2] > -1
		hasAttr := m[6] != m[7]
		tag := strings.ToLower(string(line[m[4]:m[5]]))
		if blockTags.Get()[tag] {
			return htmlEnd{blankLine: true}, true
		}
		if tag != "script" && tag != "style" && tag != "pre" && !inParagraph && !(closing && hasAttr) {
			return htmlEnd{blankLine: true}, true
		}
	}
	if m := rules.type6.FindSubmatchIndex(line); m != nil && blockTags.Get()[strings.ToLower(string(line[m[2]:m[3]]))] {
		return htmlEnd{blankLine: true}, true
	}
	return htmlEnd{}, false
}

// ends reports whether line closes the block.
func (e htmlEnd) ends(line []byte) bool {
	switch {
	case e.blankLine:
		return isBlank(line)
	case e.closeRe != nil:
		return e.closeRe.Match(line)
	}
	return bytes.Contains(line, []byte(e.closeText))
}

func hasPrefixAfterIndent(line []byte, prefix string) bool {
	for i := 0; i < 4 && i < len(line); i++ {
		if line[i] != ' ' {
			return bytes.HasPrefix(line[i:], []byte(prefix))
		}
	}
	return false
}

// blockTags are CommonMark's HTML block type 6 tag names.
var blockTags = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"address": true, "article": true, "aside": true, "base": true, "basefont": true, "blockquote": true,
		"body": true, "caption": true, "center": true, "col": true, "colgroup": true, "dd": true, "details": true,
		"dialog": true, "dir": true, "div": true, "dl": true, "dt": true, "fieldset": true, "figcaption": true,
		"figure": true, "footer": true, "form": true, "frame": true, "frameset": true, "h1": true, "h2": true,
		"h3": true, "h4": true, "h5": true, "h6": true, "head": true, "header": true, "hr": true, "html": true,
		"iframe": true, "legend": true, "li": true, "link": true, "main": true, "menu": true, "menuitem": true,
		"nav": true, "noframes": true, "ol": true, "optgroup": true, "option": true, "p": true, "param": true,
		"search": true, "section": true, "summary": true, "table": true, "tbody": true, "td": true,
		"tfoot": true, "th": true, "thead": true, "title": true, "tr": true, "track": true, "ul": true,
	}
}}
