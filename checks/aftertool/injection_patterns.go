package aftertool

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/checks/hookenv"
	"github.com/massgen/massgen-hook/internal/redact"
)

// A shieldPattern is one regular expression, with where to try it and
// what makes a match harmless.
//
// A built-in pattern starts with one of its keywords, and is tried only
// where a keyword occurs, anchored there: most occurrences fail on their
// next word, so a megabyte of prose costs a few milliseconds, where an
// unanchored case-insensitive scan with every pattern would cost seconds.
type shieldPattern struct {
	name string
	re   *regexp.Regexp // anchored (^) for a built-in pattern
	// keys are lower-case keywords, found in the text with ASCII case
	// folded; exactKeys are case-sensitive. A keyword that starts with a
	// letter must start a word, one that ends with a letter must end one.
	// None (an extra pattern): re runs over the whole text.
	keys, exactKeys []string
	// span is the longest match, in bytes: the text re is tried on.
	span int
	// backTo, when set, moves the start from the keyword back to the
	// last such byte before it (the "<" of a tag whose style hides it).
	backTo byte
	// lineStart, when set, must accept the text before the match on its
	// line (turn markers and headings start a line).
	lineStart func(before string) bool
	// inner, when set, must match the expression's first group (the
	// content of a hidden HTML element or comment).
	inner *regexp.Regexp
	// mention: a match in quotes or backticks is a mention, not an
	// instruction.
	mention bool
	// harmless, when set, lets through a match that is data (an XML
	// <system> element, an INI [SYSTEM] section).
	harmless func(text string, start, end int) bool
}

// maxBackTo bounds how far backTo looks.
const maxBackTo = 200

// keywordAt reports whether key (lower case) is at lower[at:], ending a
// word if it ends with a letter: "do" is not in "dolor", "gpt" is in
// "gpt4".
func keywordAt(lower string, at int, key string) bool {
	if !strings.HasPrefix(lower[at:], key) {
		return false
	}
	end := at + len(key)
	return end == len(lower) || !isLowerLetter(key[len(key)-1]) || !isLowerLetter(lower[end])
}

func isLowerLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// tryAt tries p where one of its keywords starts, at i.
func (p *shieldPattern) tryAt(text string, i int) (int, int, bool) {
	start := i
	if p.backTo != 0 {
		lo := max(0, i-maxBackTo)
		k := strings.LastIndexByte(text[lo:i], p.backTo)
		if k < 0 {
			return 0, 0, false
		}
		start = lo + k
	}
	if p.lineStart != nil && !p.lineStart(text[strings.LastIndexByte(text[:start], '\n')+1:start]) {
		return 0, 0, false
	}
	end := min(len(text), start+p.span)
	loc := p.re.FindStringSubmatchIndex(text[start:end])
	if loc == nil {
		return 0, 0, false
	}
	return p.accept(text, start, end, [][]int{loc})
}

// accept returns the first of matches (offsets into text[lo:hi]) that is
// not harmless. A match that runs into hi inside the text is not trusted:
// \b sees the cut as the end of the text.
func (p *shieldPattern) accept(text string, lo, hi int, matches [][]int) (int, int, bool) {
	for _, loc := range matches {
		s, e := lo+loc[0], lo+loc[1]
		switch {
		case e == hi && hi < len(text):
			continue
		case p.inner != nil && (len(loc) < 4 || loc[2] < 0 || !p.inner.MatchString(text[lo+loc[2]:lo+loc[3]])):
			continue
		case p.mention && quotedMention(text, s, e):
			continue
		case p.harmless != nil && p.harmless(text, s, e):
			continue
		}
		return s, e, true
	}
	return 0, 0, false
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// quotedMention reports whether text[start:end] sits inside a quotation
// on its line, which closes within quoteReach bytes after it: "the phrase
// 'ignore previous instructions' is a known attack" mentions the attack,
// as does `<|im_start|>system` in backticks. Inside means an odd number of
// " or ` before it on the line, an opening “ ‘ « not yet closed, or a '
// right before it (apostrophes make counting ' useless). The cost: an
// attacker who quotes the phrase gets past the phrase patterns; hidden
// text and markup outside the quotes still count.
func quotedMention(text string, start, end int) bool {
	lineStart := strings.LastIndexByte(text[:start], '\n') + 1
	before := text[lineStart:start]
	after := text[end:min(len(text), end+quoteReach)]
	if i := strings.IndexByte(after, '\n'); i >= 0 {
		after = after[:i]
	}
	for _, q := range []string{`"`, "`"} {
		if strings.Count(before, q)%2 == 1 && strings.Contains(after, q) {
			return true
		}
	}
	for _, pair := range [][2]string{{"“", "”"}, {"‘", "’"}, {"«", "»"}} {
		if strings.LastIndex(before, pair[0]) > strings.LastIndex(before, pair[1]) && strings.Contains(after, pair[1]) {
			return true
		}
	}
	return strings.HasSuffix(before, "'") && closingApostrophe(after)
}

// quoteReach is how far after a match its quotation may close.
const quoteReach = 80

// closingApostrophe reports a ' in s that ends a word (not "don't").
func closingApostrophe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' && (i+1 == len(s) || !isAlnum(s[i+1])) {
			return true
		}
	}
	return false
}

// xmlSystemElement lets through <system>GitHub</system> in XML data (a
// Maven pom's issueManagement): a bare system element on one line, with
// short content, right after another tag.
func xmlSystemElement(text string, start, end int) bool {
	var open int
	switch strings.ToLower(text[start:end]) {
	case "<system>":
		closing := strings.Index(text[end:min(len(text), end+70)], "</")
		if closing < 0 || !strings.HasPrefix(strings.ToLower(text[end+closing:]), "</system>") || strings.ContainsAny(text[end:end+closing], "\n<") {
			return false
		}
		open = start
	case "</system>":
		from := max(0, start-70)
		i := strings.LastIndex(strings.ToLower(text[from:start]), "<system>")
		if i < 0 || strings.ContainsAny(text[from+i+len("<system>"):start], "\n<") {
			return false
		}
		open = from + i
	default:
		return false
	}
	prev := strings.TrimRight(text[:open], " \t\r\n")
	return strings.HasSuffix(prev, ">")
}

// iniSection lets through a [SYSTEM] line alone, an INI section header.
func iniSection(text string, start, end int) bool {
	lineStart := strings.LastIndexByte(text[:start], '\n') + 1
	rest := text[end:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(text[lineStart:start]) == "" && strings.TrimSpace(rest) == ""
}

// indentOnly accepts a line start: nothing before but blanks.
func indentOnly(before string) bool { return strings.Trim(before, " \t") == "" }

// headingStart accepts a Markdown heading's start: blanks, then the
// heading's other "#"s.
func headingStart(before string) bool {
	return strings.Trim(strings.TrimLeft(before, " \t"), "#") == "" && len(before) < 16
}

// instructionLike is text in a hidden HTML element or comment that
// addresses an AI or its instructions; "<!-- end header -->" does not.
const instructionLike = `(?i)\b(?:ignore|disregard|forget|override)\b|\bsystem\s+prompt\b|\b(?:ai|llms?|language\s+models?|chatbots?|claude|chatgpt|gpt|assistants?)\b|\b(?:new|your|these)\s+instructions\b|\byou\s+(?:are|must)\s+now\b`

// shieldPatternSpec is a built-in pattern as written; builtinShieldPatterns
// compiles the table once per process. Each expression starts with one of
// its keywords (or, with backTo, with that byte).
type shieldPatternSpec struct {
	name            string
	expr            string
	keys, exactKeys []string
	span            int
	backTo          byte
	lineStart       func(before string) bool
	inner           bool // the first group must look like instructions
	mention         bool
	harmless        func(text string, start, end int) bool
}

var shieldPatternSpecs = []shieldPatternSpec{
	{name: "ignore-previous-instructions", mention: true, span: 200,
		keys: []string{"ignore", "disregard", "forget", "override", "bypass"},
		expr: `(?i)(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every|each|the|your|my|of|these|those)\s+){0,3}(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial|existing)\s+(?:instructions?|prompts?|directives?|commands?|rules|guidelines|guidance|context|messages?|conversation)\b` +
			`|(?:ignore|disregard|forget)\s+(?:(?:all|everything)\s+){1,2}(?:above|before|prior|previously\s+(?:said|stated))\b`},
	{name: "forget-your-instructions", mention: true, span: 200,
		keys: []string{"forget", "disregard", "ignore", "override", "abandon", "discard"},
		expr: `(?i)(?:forget|disregard|ignore|override|abandon|discard)\s+(?:(?:all|everything|of)\s+){0,2}(?:your\s+(?:(?:system|original|initial|current|previous|prior|safety)\s+)?(?:instructions|programming|directives|system\s+prompt|prompt|guidelines|rules|training|guardrails|restrictions)|the\s+system\s+prompt)\b`},
	{name: "new-instructions", mention: true, span: 120,
		keys: []string{"new", "updated", "revised", "real", "actual", "true", "secret", "hidden", "your"},
		expr: `(?i)(?:new|updated|revised|real|actual|true|secret|hidden)\s+(?:system\s+)?instructions?\s*:` +
			`|your\s+(?:new|real|actual|true|only)\s+(?:instructions|task|goal|objective|purpose)\s+(?:is|are)\b`},
	{name: "system-tag", mention: true, span: 80, harmless: xmlSystemElement,
		keys: []string{"<system", "</system"},
		expr: `(?i)</?system(?:[-_](?:reminder|prompt|message|instructions?|override))?(?:\s[^<>\n]{0,40})?>`},
	{name: "chat-template-token", mention: true, span: 40,
		keys: []string{"<|", "[inst]", "[/inst]", "<<sys>>", "<</sys>>"},
		expr: `(?i)<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>|\[/?INST\]|<</?SYS>>`},
	// Capitalised ([SYSTEM], [System Note: ...]): a lower-case [system]
	// is a config section or a comment.
	{name: "system-label", mention: true, span: 60, harmless: iniSection,
		keys: []string{"[system", "[ system", "[\tsystem"},
		expr: `\[[ \t]*(?:SYSTEM(?:[ \t]+(?:MESSAGE|PROMPT|NOTE|OVERRIDE|INSTRUCTIONS?|ALERT|UPDATE))?|System(?:[ \t]+(?:[Mm]essage|[Pp]rompt|[Nn]ote|[Oo]verride|[Ii]nstructions?|[Aa]lert|[Uu]pdate))?)[ \t]*[\]:]`},
	{name: "system-heading", mention: true, span: 60, lineStart: headingStart,
		keys: []string{"#system", "# system", "#\tsystem"},
		expr: `(?i)#[ \t]*system(?:[ \t]+(?:message|prompt|instructions?|override))?[ \t]*:`},
	// Case-sensitive, and a pair: "Assistant: Jane Doe" in a staff list
	// is not a turn.
	{name: "fake-dialogue", span: 600, lineStart: indentOnly,
		exactKeys: []string{"Human:"},
		expr:      `Human:[^\n]*\n(?:[^\n]*\n){0,2}[ \t]*Assistant:`},
	{name: "jailbreak-persona", mention: true, span: 120,
		keys: []string{"you", "from", "act", "pretend", "do"},
		expr: `(?i)(?:you\s+are(?:\s+now)?|from\s+now\s+on,?\s+you\s+(?:are|will\s+be)|act\s+as|pretend\s+(?:to\s+be|you\s+are))\s+(?:(?-i:DAN|STAN|DUDE)\b|(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken)\s+(?:ai|assistant|model|chatbot|llm|version)\b|jailbroken\b)` +
			`|do\s+anything\s+now\b`},
	// Addressed to an AI: "enable Developer mode" is how Chrome's and
	// Android's documentation talk.
	{name: "jailbreak-mode", mention: true, span: 120,
		keys:      []string{"chatgpt", "gpt", "claude", "ai", "assistant", "llm", "model", "you", "jailbreak", "developer"},
		exactKeys: []string{"DAN"},
		expr: `(?i)(?:chatgpt|gpt-?\d*|claude|ai|assistant|llm|model|you)\s+(?:with|in|are\s+now\s+in|now\s+in)\s+(?:developer|god|(?-i:DAN)|jailbreak)\s+mode\b` +
			`|(?:(?-i:DAN)|jailbreak)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|unlocked|on)\b` +
			`|developer\s+mode\s+output\b|you\s+(?:are|have\s+been)\s+(?:now\s+)?jailbroken\b`},
	{name: "hidden-html-comment", inner: true, span: 700,
		keys: []string{"<!--"},
		expr: `(?s)<!--(.*?)-->`},
	{name: "hidden-html-element", inner: true, span: 800, backTo: '<',
		keys: []string{"display", "visibility"},
		expr: `(?is)<[a-z][a-z0-9]*\b[^>]*?\bstyle\s*=\s*["'][^"'>]*?(?:display\s*:\s*none|visibility\s*:\s*hidden)[^>]*>(.*?)</`},
}

// builtinShields are the built-in patterns, compiled once per process:
// not in package init, which every hook process would pay for (nor by a
// sync.OnceValues in a variable's declaration: that call is init code).
var builtinShields struct {
	once     sync.Once
	patterns []*shieldPattern
	err      error
}

// builtinShieldPatterns compiles the built-in patterns on its first call.
func builtinShieldPatterns() ([]*shieldPattern, error) {
	builtinShields.once.Do(func() { builtinShields.patterns, builtinShields.err = compileShieldPatterns() })
	return builtinShields.patterns, builtinShields.err
}

func compileShieldPatterns() ([]*shieldPattern, error) {
	inner, err := regexp.Compile(instructionLike)
	if err != nil {
		return nil, fmt.Errorf("instruction-like: %v", err)
	}
	out := make([]*shieldPattern, 0, len(shieldPatternSpecs))
	for _, spec := range shieldPatternSpecs {
		re, err := regexp.Compile(`^(?:` + spec.expr + `)`)
		if err != nil {
			return nil, fmt.Errorf("pattern %s: %v", spec.name, err)
		}
		p := &shieldPattern{name: spec.name, re: re, keys: spec.keys, exactKeys: spec.exactKeys, span: spec.span,
			backTo: spec.backTo, lineStart: spec.lineStart, mention: spec.mention, harmless: spec.harmless}
		if spec.inner {
			p.inner = inner
		}
		out = append(out, p)
	}
	return out, nil
}

// Hidden characters.

// hasHidden is a quick look for the lead bytes of zero-width and tag
// characters (E2 80/81, EF BB BF, F3 A0), so clean text costs one pass.
func hasHidden(text string) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case 0xE2, 0xEF, 0xF3:
			r, _ := utf8.DecodeRuneInString(text[i:])
			if zeroWidth(r) || tagChar(r) {
				return true
			}
		}
	}
	return false
}

// zeroWidth: U+200B–U+200F (zero-width space, joiners, direction marks),
// U+2060–U+2064 (word joiner, invisible operators), U+FEFF (BOM).
func zeroWidth(r rune) bool {
	return r >= 0x200B && r <= 0x200F || r >= 0x2060 && r <= 0x2064 || r == 0xFEFF
}

// tagChar: the Unicode tag block, which renders as nothing but spells
// ASCII (U+E0041 is an invisible "A").
func tagChar(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

// blackFlag starts emoji flag sequences (🏴 + tags + cancel tag = the
// flag of Scotland), the one legitimate use of tag characters.
const blackFlag = 0x1F3F4

// hiddenCharacters reports zero-width characters that hide something and
// text spelled in tag characters, and returns text without either.
//
// Zero-width characters have honest uses (ZWJ in emoji, ZWNJ in Persian,
// direction marks in Hebrew and Arabic, a leading BOM), so only two shapes
// count: one inside an ASCII word ("ig\u200bnore": a filter dodged) and a
// run of three or more (a payload encoded in invisible characters).
func (s *injectionShield) hiddenCharacters(text string) (string, []shieldFinding) {
	var visible, tags strings.Builder
	visible.Grow(len(text))
	var findings []shieldFinding
	hasTags, flagged := false, false
	runStart, runLen := 0, 0
	var prev rune // the last visible rune
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case zeroWidth(r):
			if runLen == 0 {
				runStart = i
			}
			runLen++
		case tagChar(r):
			if prev != blackFlag {
				hasTags = true
				if r >= 0xE0020 && r <= 0xE007E {
					tags.WriteRune(r - 0xE0000)
				}
			}
		default:
			if runLen > 0 && !flagged && (runLen >= 3 || asciiLetter(prev) && asciiLetter(r)) {
				flagged = true
				findings = append(findings, shieldFinding{pattern: zeroWidthName, excerpt: shieldExcerpt(text, runStart, i)})
			}
			runLen, prev = 0, r
			visible.WriteString(text[i : i+size]) // as it was, even if not UTF-8
		}
		i += size
	}
	if runLen >= 3 && !flagged {
		findings = append(findings, shieldFinding{pattern: zeroWidthName, excerpt: shieldExcerpt(text, runStart, len(text))})
	}
	if hasTags {
		findings = append(findings, shieldFinding{pattern: tagsName, excerpt: "text in invisible tag characters, which reads " + strconv.Quote(hookenv.OneLine(redact.String(tags.String()), maxExcerpt))})
	}
	return visible.String(), slices.DeleteFunc(findings, func(f shieldFinding) bool {
		return f.pattern == zeroWidthName && !s.zeroWidth || f.pattern == tagsName && !s.tags
	})
}

func asciiLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
