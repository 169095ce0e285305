package shellcmd

import (
	"strings"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// The tokenizer of interpreter code. It knows what ScanCode needs to
// tell code from text in each language: strings with their escapes and
// interpolation (whose code is tokenized as code), comments, regular
// expression literals, here-documents, variables and identifiers. It does
// not know precedence or grammar. Where a language leaves a character's
// meaning to the parser (a / that divides or starts a pattern, Perl's
// quote-like operators), it guesses as the language's own lexer
// mostly does; code written to make it guess wrong can hide a call.

type tokKind uint8

const (
	tPunct tokKind = iota
	tIdent         // a name; Perl's include their packages (File::Path::rmtree)
	tVar           // a sigilled variable: $x, @x, %x (Perl, PHP), $x, @x (Ruby)
	tStr           // a string literal
	tCmd           // a command string: backticks, qx//, %x()
	tList          // a word list: qw() (Perl), %w[] (Ruby)
	tNum
	tRegex // a pattern or transliteration literal
	tGlob  // Perl's <...>: a file glob or a read from a filehandle
)

type token struct {
	kind tokKind
	text string // identifier, variable or punctuation; source text otherwise
	// val is a tStr or tCmd value, vals a tList's words; known reports
	// that they are exact: no interpolation, every escape understood.
	val      string
	vals     []string
	known    bool
	tmpl     bool // a JavaScript template literal (a tagged template's argument)
	nl, sp   bool // a newline, or any blank, precedes it
	pos, end int  // its source text; interpolated code has its own tokens after it
	match    int  // brackets: the index of the partner (len(toks) if none)
}

// maxLexDepth bounds how deep interpolation nests (f"{f'{x}'}"): beyond
// it the tokenizer gives up, and says so.
const maxLexDepth = 32

// lexer turns source into tokens.
type lexer struct {
	lang     Lang
	src      string
	i        int
	toks     []token
	depth    int
	nl, sp   bool      // blanks seen since the last token
	heredocs []heredoc // opened on this line, read at its end
	notes    []Opaque  // what the tokenizer found it cannot follow
	subs     []subCode // code inside a literal, scanned on its own (s///e)
	budget   *budget   // bounds look-aheads that may not consume what they read
}

// subCode is code the tokenizer found inside a literal: Perl's s///e
// replacement.
type subCode struct {
	code string
	raw  string
}

// heredoc is a here-document whose body starts on the next line.
type heredoc struct {
	tok    int    // index of its tStr or tCmd token
	term   string // the line that ends it
	interp bool   // the body interpolates
	indent bool   // the terminator may be indented (<<~, <<-, PHP)
	strip  bool   // common indentation is removed from the body (<<~)
}

func lex(lang Lang, src string, b *budget) *lexer {
	l := &lexer{lang: lang, src: src, budget: b, toks: make([]token, 0, min(len(src)/3, 4096)+16)}
	if lang == JavaScript && strings.HasPrefix(src, "#!") {
		l.skipLine()
	}
	if !l.lineStart() {
		l.code(stopNone)
	}
	l.matchBrackets()
	return l
}

// stop says where a nested run of code ends: the end of the source, or a
// closing bracket at its own depth (an interpolation's }), or for a Python
// f-string expression also its conversion (!r) or format spec (:>10).
type stop uint8

const (
	stopNone stop = iota
	stopBrace
	stopBracket
	stopFExpr
)

// code tokenizes until the end of the source or the stop.
func (l *lexer) code(st stop) {
	depth := 0
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch c {
		case '\n':
			l.i++
			l.nl, l.sp = true, true
			if len(l.heredocs) > 0 {
				l.readHeredocs()
			}
			if l.lineStart() {
				return
			}
			continue
		case ' ', '\t', '\r', '\f', '\v':
			l.i++
			l.sp = true
			continue
		}
		if depth == 0 {
			switch {
			case st == stopBrace && c == '}', st == stopBracket && c == ']':
				return
			case st == stopFExpr && (c == '}' || c == ':' || c == '!' && !l.at(l.i+1, "=")):
				return
			}
		}
		if l.atom() || l.i >= len(l.src) { // the atom may have given up
			continue
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
		l.punct()
	}
}

// lineStart handles what a language reads only at the start of a line:
// Perl's POD and __END__, Ruby's =begin and __END__. It reports that the
// code ends here.
func (l *lexer) lineStart() bool {
	if l.depth > 0 {
		return false
	}
	rest := l.src[l.i:]
	switch l.lang {
	case Perl:
		if len(rest) > 1 && rest[0] == '=' && isLetter(rest[1]) {
			l.skipUntilLine("=cut")
			l.skipLine()
		}
	case Ruby:
		if strings.HasPrefix(rest, "=begin") && (len(rest) == 6 || isBlankByte(rest[6])) {
			l.skipUntilLine("=end")
			l.skipLine()
		}
		if lineIs(rest, "__END__") {
			l.i = len(l.src)
			return true
		}
	}
	return false
}

// lineIs reports that s starts with a line that is exactly w.
func lineIs(s, w string) bool {
	return strings.HasPrefix(s, w) && (len(s) == len(w) || s[len(w)] == '\n' || s[len(w)] == '\r')
}

// skipUntilLine moves to the start of the next line that begins with w,
// or to the end.
func (l *lexer) skipUntilLine(w string) {
	for l.i < len(l.src) {
		if strings.HasPrefix(l.src[l.i:], w) {
			return
		}
		l.skipLine()
		if l.i < len(l.src) {
			l.i++ // the newline
		}
	}
}

// skipLine moves to the newline that ends the line, or to the end.
func (l *lexer) skipLine() {
	if j := strings.IndexByte(l.src[l.i:], '\n'); j >= 0 {
		l.i += j
	} else {
		l.i = len(l.src)
	}
}

// atom tokenizes what is particular to the language at l.i: comments,
// strings, variables, patterns, identifiers. It reports whether it did.
func (l *lexer) atom() bool {
	switch l.lang {
	case Python:
		return l.pyAtom()
	case JavaScript:
		return l.jsAtom()
	case Perl:
		return l.perlAtom()
	case Ruby:
		return l.rubyAtom()
	case PHP:
		return l.phpAtom()
	}
	return false
}

// multiPunct are the operators of more than one character that the scan
// tells apart, longest first.
var multiPunct = []string{
	"===", "!==", "...", "**=", "<<=", ">>=", "?->",
	"::", "->", "=>", "==", "!=", "<=", ">=", "**", "||", "&&", "?.", "&.",
	"+=", "-=", "*=", "/=", ".=", "%=", "|=", "&=", "^=", "<<", ">>", "=~", "!~", ":=", "??",
}

// multiByFirst indexes multiPunct by first byte.
var multiByFirst = &lazy.Value[*[256][]string]{New: func() (t *[256][]string) {
	t = new([256][]string)
	for _, p := range multiPunct {
		t[p[0]] = append(t[p[0]], p)
	}
	return t
}}

// punct emits one punctuation token, or a number, or an identifier
// (the languages' own atom functions handle the identifiers they spell
// differently).
func (l *lexer) punct() {
	start := l.i
	c := l.src[l.i]
	switch {
	case isDigit(c):
		l.i++
		for l.i < len(l.src) && (isIdentByte(l.src[l.i]) || l.src[l.i] == '.' && l.i+1 < len(l.src) && isDigit(l.src[l.i+1])) {
			l.i++
		}
		l.emit(token{kind: tNum, text: l.src[start:l.i], pos: start})
		return
	case isIdentStart(c):
		l.ident(start)
		return
	}
	for _, p := range multiByFirst.Get()[c] {
		if strings.HasPrefix(l.src[l.i:], p) {
			l.i += len(p)
			l.emit(token{kind: tPunct, text: p, pos: start})
			return
		}
	}
	_, n := utf8.DecodeRuneInString(l.src[l.i:])
	l.i += n
	l.emit(token{kind: tPunct, text: l.src[start:l.i], pos: start})
}

// ident emits the identifier at start.
func (l *lexer) ident(start int) {
	l.i = start
	for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
		l.i++
	}
	l.emit(token{kind: tIdent, text: l.src[start:l.i], pos: start})
}

// emit appends t, ending where the lexer is unless t says otherwise.
func (l *lexer) emit(t token) int {
	if t.end == 0 {
		t.end = l.i
	}
	t.nl, t.sp = l.nl, l.sp
	l.nl, l.sp = false, false
	l.toks = append(l.toks, t)
	return len(l.toks) - 1
}

// synth emits a bracket around interpolated code, so that the code's
// commas never split the arguments of a call the string is passed to.
func (l *lexer) synth(b string) {
	l.toks = append(l.toks, token{kind: tPunct, text: b, pos: l.i, end: l.i})
}

// nested tokenizes interpolated code up to its stop, inside synthetic
// parentheses. It reports false when nesting is too deep: the lexer has
// then given up on the rest of the source.
func (l *lexer) nested(st stop) bool {
	if l.depth >= maxLexDepth {
		l.giveUp("interpolation nested too deep to follow")
		return false
	}
	l.depth++
	l.synth("(")
	l.code(st)
	l.synth(")")
	l.depth--
	return true
}

// tick spends look-ahead work; when none is left the lexer gives up.
func (l *lexer) tick(n int) bool {
	if l.budget.take(n) {
		return true
	}
	if l.i < len(l.src) {
		l.giveUp("code too complex to read in bounded time")
	}
	return false
}

// giveUp records that the rest of the source cannot be read, and skips it.
func (l *lexer) giveUp(what string) {
	l.notes = append(l.notes, Opaque{What: what, Raw: cut(l.src[l.i:])})
	l.i = len(l.src)
}

// termPos reports whether the next token starts an operand (where / opens
// a pattern and << a here-document) rather than follows one. After an
// identifier it depends on the language; isOp lists the identifiers
// after which an operand comes.
func (l *lexer) termPos(isOp map[string]bool) bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tPunct:
		switch t.text {
		case ")", "]":
			return false
		case "}":
			return l.lang == JavaScript // a block's end; an object literal is rarely divided
		}
		return true
	case tIdent:
		if isOp[t.text] {
			return true
		}
		// foo /x/ (a blank before, none after) calls foo with a pattern in
		// Perl and Ruby; foo / x divides.
		return l.lang != JavaScript && l.lang != Python && l.sp && l.i+1 < len(l.src) && !isBlankByte(l.src[l.i+1])
	}
	return false
}

// matchBrackets pairs the brackets, so that a call's arguments are found
// without rescanning: an unmatched opener runs to the end.
func (l *lexer) matchBrackets() {
	var stack []int
	for i := range l.toks {
		t := &l.toks[i]
		t.match = len(l.toks)
		if t.kind != tPunct || len(t.text) != 1 {
			continue
		}
		switch t.text[0] {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			// A stray closer is left unmatched; an opener of another kind
			// is closed by it (the code is broken, and the pairing only
			// needs to stay linear).
			if n := len(stack); n > 0 {
				o := stack[n-1]
				stack = stack[:n-1]
				l.toks[o].match, t.match = i, o
			}
		}
	}
}

func (l *lexer) at(i int, s string) bool { return i <= len(l.src) && strings.HasPrefix(l.src[i:], s) }

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isIdentStart: letters, _ and any byte of a non-ASCII character, which
// the languages allow in names.
func isIdentStart(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 }
func isIdentByte(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isBlankByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func closerOf(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return open
}

// quoted scans a literal body from l.i up to the closing delimiter (which
// it consumes) or limit, nesting open/close pairs when they differ. At
// each position it calls step, which reads one byte, an escape or an
// interpolation, writing the value as it goes, and returns how many
// bytes it took (or moves l.i itself and returns 0). It returns the end
// of the body.
func (l *lexer) quoted(open, close byte, limit int, step func() int) int {
	nest := 0
	for l.i < limit {
		c := l.src[l.i]
		if close != 0 && c == close {
			if nest == 0 {
				end := l.i
				l.i++
				return end
			}
			nest--
		} else if open != close && c == open {
			nest++
		}
		before := l.i
		l.i += step()
		if l.i == before {
			l.i++
		}
	}
	return l.i
}

// singleQuoted is the step of a single-quoted body: \\ and an escaped
// delimiter lose their backslash (Perl's q, Ruby's and PHP's '...').
func (l *lexer) singleQuoted(b *strings.Builder, open, close byte) func() int {
	return func() int {
		c := l.src[l.i]
		if c == '\\' && l.i+1 < len(l.src) {
			if d := l.src[l.i+1]; d == '\\' || d == close || d == open && open != 0 {
				b.WriteByte(d)
				return 2
			}
		}
		b.WriteByte(c)
		return 1
	}
}

// heredocEnd finds the line that ends a here-document whose body starts
// at from: its start and the index just past it.
func heredocEnd(src string, from int, term string, indent bool) (bodyEnd, next int) {
	for i := from; i <= len(src); {
		j := strings.IndexByte(src[i:], '\n')
		line := src[i:]
		if j >= 0 {
			line = src[i : i+j]
		}
		t := strings.TrimRight(line, "\r")
		if indent {
			t = strings.TrimLeft(t, " \t")
		}
		if t == term {
			if j < 0 {
				return i, len(src)
			}
			return i, i + j // the newline stays, to end the line of code
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return len(src), len(src)
}

// readHeredocs reads the bodies of the here-documents opened on the line
// just ended, in order, and moves past them.
func (l *lexer) readHeredocs() {
	hs := l.heredocs
	l.heredocs = nil
	for _, h := range hs {
		from := l.i
		bodyEnd, next := heredocEnd(l.src, from, h.term, h.indent)
		if l.lang == PHP {
			bodyEnd, next = phpHeredocEnd(l.src, from, h.term)
		}
		if !l.tick(next - from) {
			return
		}
		val, known := l.src[from:bodyEnd], true
		if h.interp {
			// Interpolated code gets its tokens here, after the line.
			save := l.i
			l.i = from
			val, known = l.interpolated(bodyEnd)
			l.i = save
		}
		if h.strip {
			val = stripIndent(val)
		}
		val = strings.TrimSuffix(val, "\n")
		t := &l.toks[h.tok]
		t.val, t.known, t.end = val, known && t.known, next
		l.i = next
		if l.i < len(l.src) && l.src[l.i] == '\n' {
			l.i++
		}
	}
}

// interpolated reads an interpolating here-document body from l.i to
// limit, as the language reads a double-quoted string.
func (l *lexer) interpolated(limit int) (string, bool) {
	var b strings.Builder
	known := true
	switch l.lang {
	case Perl:
		l.quoted(0, 0, limit, l.perlDQ(&b, &known, limit, false))
	case Ruby:
		l.quoted(0, 0, limit, l.rubyDQ(&b, &known, 0))
	case PHP:
		l.quoted(0, 0, limit, l.phpDQ(&b, &known, 0))
	}
	return b.String(), known
}

// stripIndent removes the indentation common to every non-blank line.
func stripIndent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	min := -1
	for _, ln := range lines {
		t := strings.TrimLeft(ln, " \t")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if n := len(ln) - len(t); min < 0 || n < min {
			min = n
		}
	}
	if min <= 0 {
		return s
	}
	var b strings.Builder
	for _, ln := range lines {
		if len(ln) >= min && strings.TrimLeft(ln[:min], " \t") == "" {
			ln = ln[min:]
		}
		b.WriteString(ln)
	}
	return b.String()
}

// writeRune writes code point r, or reports false for one that is not
// valid.
func writeRune(b *strings.Builder, r rune) bool {
	if r > utf8.MaxRune || r >= 0xd800 && r <= 0xdfff {
		return false
	}
	b.WriteRune(r)
	return true
}

// hexRun reads up to max hex digits at s[i:] (exactly max when exact),
// returning the value and how many it read (0: none or too few).
func hexRun(s string, i, max int, exact bool) (rune, int) {
	var v rune
	n := 0
	for n < max && i+n < len(s) && isHex(s[i+n]) {
		v = v*16 + rune(hexVal(s[i+n]))
		n++
	}
	if exact && n != max {
		return 0, 0
	}
	return v, n
}

func hexVal(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// octRun reads up to max octal digits at s[i:].
func octRun(s string, i, max int) (rune, int) {
	var v rune
	n := 0
	for n < max && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
		v = v*8 + rune(s[i+n]-'0')
		n++
	}
	return v, n
}

// braced reads a {hex} escape body at s[i] ('{'): the value and the bytes
// taken including braces, or 0.
func braced(s string, i int) (rune, int) {
	if i >= len(s) || s[i] != '{' {
		return 0, 0
	}
	j := strings.IndexByte(s[i:], '}')
	if j < 2 || j > 9 {
		return 0, 0
	}
	v, n := hexRun(s, i+1, j-1, true)
	if n == 0 {
		return 0, 0
	}
	return v, j + 1
}

// cEscape decodes the control-character escapes C-like languages share,
// at s[i] (the byte after the backslash). It reports whether s[i] was one.
func cEscape(b *strings.Builder, s string, i int) bool {
	if i >= len(s) {
		return false
	}
	k := strings.IndexByte("ntrfvab", s[i])
	if k < 0 {
		return false
	}
	b.WriteByte("\n\t\r\f\v\a\b"[k])
	return true
}

// heredocStart reads the terminator of a heredoc that starts at start:
// quoted at q (a double quote or none interpolates the body, a backquote
// runs it as a command), else a bare identifier at id; with singleLine a
// quoted terminator may not span lines (Ruby). It queues the heredoc,
// whose body follows the line, with indent and strip as the language
// reads them, and reports whether there was one.
func (l *lexer) heredocStart(start, q, id int, singleLine, indent, strip bool) bool {
	var term string
	interp, cmd := true, false
	switch {
	case q < len(l.src) && (l.src[q] == '"' || l.src[q] == '\'' || l.src[q] == '`'):
		quote := l.src[q]
		e := strings.IndexByte(l.src[q+1:], quote)
		if !l.tick(max(e, len(l.src)-q)) || e < 0 || singleLine && strings.Contains(l.src[q+1:q+1+e], "\n") {
			return false
		}
		term = l.src[q+1 : q+1+e]
		interp, cmd = quote != '\'', quote == '`'
		l.i = q + 2 + e
	case id < len(l.src) && isIdentStart(l.src[id]):
		e := id
		for e < len(l.src) && isIdentByte(l.src[e]) {
			e++
		}
		term = l.src[id:e]
		l.i = e
	default:
		return false
	}
	kind := tStr
	if cmd {
		kind = tCmd
	}
	tok := l.emit(token{kind: kind, pos: start, known: true})
	l.heredocs = append(l.heredocs, heredoc{tok: tok, term: term, interp: interp, indent: indent, strip: strip})
	return true
}
