package shellcmd

import (
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Perl 5: '...', "...", `...` and the quote-like operators (q qq qw qx m
// qr s tr y) with any delimiter, bracketed ones nesting; interpolation of
// $x, @x, ${...}, @{[...]} and subscripts, whose code is tokenized as
// code; s///e replacements scanned as code; here-documents; POD and
// __END__; variables with their sigils; <FH> and <*.c>. Perl decides some
// of this with heuristics of its own (is / a division or a pattern? is
// {...} a block or a hash?), which are followed here only in their
// common cases.

// perlOps are the words after which an operand comes.
var perlOps = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"and": true, "or": true, "not": true, "xor": true, "if": true, "unless": true, "while": true,
		"until": true, "return": true, "split": true, "grep": true, "map": true, "join": true, "push": true,
		"unshift": true, "print": true, "say": true, "lt": true, "gt": true, "le": true, "ge": true, "eq": true,
		"ne": true, "cmp": true, "x": true, "when": true, "for": true, "foreach": true, "die": true, "warn": true,
		"sort": true, "defined": true, "open": true, "unlink": true, "system": true, "exec": true,
	}
}}

var perlQuoteOps = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"q": true, "qq": true, "qw": true, "qx": true, "m": true, "qr": true, "s": true, "tr": true, "y": true}
}}

func (l *lexer) perlAtom() bool {
	c := l.src[l.i]
	switch c {
	case '#':
		l.skipLine()
		return true
	case '\'':
		l.perlQuote(l.i, "q", l.i)
		return true
	case '"':
		l.perlQuote(l.i, "qq", l.i)
		return true
	case '`':
		l.perlQuote(l.i, "qx", l.i)
		return true
	case '$', '@':
		l.perlVar()
		return true
	case '%', '&', '*':
		if l.i+1 < len(l.src) && l.termPos(perlOps.Get()) {
			if n := l.src[l.i+1]; isIdentStart(n) || n == '{' || n == '$' || n == ':' || c == '%' && (n == '+' || n == '-' || n == '^') {
				l.perlVar()
				return true
			}
		}
		return false
	case '/':
		if l.termPos(perlOps.Get()) {
			return l.perlQuote(l.i, "m", l.i)
		}
		return false
	case '<':
		if l.termPos(perlOps.Get()) {
			if l.at(l.i, "<<") {
				return l.perlHeredoc()
			}
			return l.perlAngle()
		}
		return false
	}
	if isIdentStart(c) {
		return l.perlWord()
	}
	return false
}

// perlWord reads a name (File::Path::rmtree), or a quote-like operator.
func (l *lexer) perlWord() bool {
	start := l.i
	j := start
	for {
		for j < len(l.src) && isIdentByte(l.src[j]) {
			j++
		}
		if l.at(j, "::") && j+2 < len(l.src) && isIdentStart(l.src[j+2]) {
			j += 2
			continue
		}
		break
	}
	word := l.src[start:j]
	if word == "__END__" || word == "__DATA__" {
		l.i = len(l.src)
		return true
	}
	if perlQuoteOps.Get()[word] {
		if k := l.quoteDelim(start, j); k > 0 {
			return l.perlQuote(start, word, k)
		}
	}
	l.i = j
	l.emit(token{kind: tIdent, text: word, pos: start})
	return true
}

// quoteDelim finds the delimiter of a quote-like operator spelt src[start:j],
// or returns 0 when the word is a name: a method (->s), a hash key ({s}
// and s => 1), a file test (-s), or followed by what cannot delimit.
func (l *lexer) quoteDelim(start, j int) int {
	if n := len(l.toks); n > 0 && l.toks[n-1].kind == tPunct && l.toks[n-1].text == "->" {
		return 0
	}
	if start > 0 && l.src[start-1] == '-' {
		return 0
	}
	k := j
	for k < len(l.src) && isBlankByte(l.src[k]) && l.tick(1) {
		k++
	}
	if k >= len(l.src) {
		return 0
	}
	d := l.src[k]
	switch {
	case isIdentByte(d), d == ',', d == ';', d == ')':
		return 0
	case d == '#' && k > j:
		return 0 // a comment
	case d == '=' && (l.at(k+1, ">") || k > j):
		return 0 // s => 1, or an assignment
	case d == '}' && len(l.toks) > 0 && l.toks[len(l.toks)-1].text == "{":
		return 0
	}
	return k
}

// perlFind finds the end of a delimited body that starts at l.i (just
// after the opening delimiter): it returns the body's end and moves
// past the closing delimiter.
func (l *lexer) perlFind(open, close byte) int {
	nest := 0
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\\':
			l.i += 2
			continue
		case c == close && nest == 0:
			end := l.i
			l.i++
			return end
		case c == close:
			nest--
		case c == open && open != close:
			nest++
		}
		l.i++
	}
	l.i = len(l.src)
	return len(l.src)
}

// perlQuote reads a quoted construct of operator op whose delimiter is at
// k (start is where its token starts). Perl finds a string's end first,
// then interpolates inside it, and so does this.
func (l *lexer) perlQuote(start int, op string, k int) bool {
	open := l.src[k]
	close := closerOf(open)
	l.i = k + 1
	bodyStart := l.i
	bodyEnd := l.perlFind(open, close)
	tok := token{pos: start, known: true}
	switch op {
	case "q":
		tok.kind = tStr
		tok.val = l.perlSingle(bodyStart, bodyEnd, open, close)
	case "qw":
		tok.kind = tList
		tok.vals = strings.Fields(l.perlSingle(bodyStart, bodyEnd, open, close))
	case "qq", "qx":
		tok.kind = tStr
		if op == "qx" {
			tok.kind = tCmd
		}
		if op == "qx" && open == '\'' {
			tok.val = l.perlSingle(bodyStart, bodyEnd, open, close)
			break
		}
		idx := l.emit(tok) // interpolated code follows its string
		after := l.i
		val, known := l.perlDouble(bodyStart, bodyEnd, false)
		l.i = after
		l.toks[idx].val, l.toks[idx].known, l.toks[idx].end = val, known, after
		return true
	case "m", "qr":
		tok.kind = tRegex
		idx := l.emit(tok)
		after := l.i
		if open != '\'' {
			l.perlDouble(bodyStart, bodyEnd, true)
		}
		l.i = after
		l.flags()
		l.toks[idx].end = l.i
		return true
	case "s", "tr", "y":
		tok.kind = tRegex
		idx := l.emit(tok)
		replStart, replEnd := l.secondPart(open, close)
		flags := l.flags()
		end := l.i
		if op == "s" {
			if open != '\'' {
				l.perlDouble(bodyStart, bodyEnd, true)
			}
			switch {
			case strings.Count(flags, "e") > 1:
				l.notes = append(l.notes, Opaque{What: "a replacement evaluated twice (s///ee): code built at run time", Raw: cut(l.src[start:end])})
			case strings.Contains(flags, "e"):
				l.subs = append(l.subs, subCode{code: l.src[replStart:replEnd], raw: l.src[start:end]})
			case open != '\'':
				l.perlDouble(replStart, replEnd, false)
			}
		}
		l.i = end
		l.toks[idx].end = end
		return true
	}
	l.emit(tok)
	return true
}

// secondPart finds the replacement of s/// or tr///: after the same
// delimiter, or for brackets after a new pair (s{a}{b}, s{a}/b/).
func (l *lexer) secondPart(open, close byte) (int, int) {
	if open == close {
		start := l.i
		return start, l.perlFind(open, close)
	}
	for l.i < len(l.src) && isBlankByte(l.src[l.i]) {
		l.i++
	}
	if l.i >= len(l.src) {
		return l.i, l.i
	}
	o := l.src[l.i]
	l.i++
	start := l.i
	return start, l.perlFind(o, closerOf(o))
}

// flags reads a pattern's modifiers.
func (l *lexer) flags() string {
	start := l.i
	for l.i < len(l.src) && isLetter(l.src[l.i]) {
		l.i++
	}
	return l.src[start:l.i]
}

// perlSingle is a single-quoted body's value: \\ and an escaped delimiter
// lose their backslash.
func (l *lexer) perlSingle(start, end int, open, close byte) string {
	var b strings.Builder
	save := l.i
	l.i = start
	l.quoted(0, 0, end, l.singleQuoted(&b, open, close))
	l.i = save
	return b.String()
}

// perlDouble decodes an interpolating body [start, end); its
// interpolated code is tokenized, bounded by the body.
func (l *lexer) perlDouble(start, end int, regex bool) (string, bool) {
	var b strings.Builder
	known := true
	l.i = start
	l.quoted(0, 0, end, l.perlDQ(&b, &known, end, regex))
	return b.String(), known
}

// perlDQ is the step of an interpolating body that ends at limit.
func (l *lexer) perlDQ(b *strings.Builder, known *bool, limit int, regex bool) func() int {
	return func() int {
		c := l.src[l.i]
		switch c {
		case '\\':
			if l.i+1 >= limit {
				b.WriteByte(c)
				return 1
			}
			if regex {
				b.WriteString(l.src[l.i : l.i+2])
				return 2
			}
			n, ok := perlEscape(b, l.src[:limit], l.i+1)
			*known = *known && ok
			return 1 + n
		case '$', '@':
			if l.perlInterp(limit, regex) {
				*known = false
				return 0
			}
		case '(':
			if regex && (l.at(l.i, "(?{") || l.at(l.i, "(??{")) {
				l.notes = append(l.notes, Opaque{What: "code inside a pattern", Raw: cut(l.src[l.i:limit])})
			}
		}
		b.WriteByte(c)
		return 1
	}
}

// perlEscape decodes the escape after a backslash at s[i].
func perlEscape(b *strings.Builder, s string, i int) (int, bool) {
	d := s[i]
	switch {
	case cEscape(b, s, i):
		return 1, true
	case d == 'e':
		b.WriteByte(0x1b)
		return 1, true
	case d >= '0' && d <= '7':
		v, n := octRun(s, i, 3)
		return n, writeRune(b, v)
	case d == 'o' && i+1 < len(s) && s[i+1] == '{':
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return 1, false
		}
		v, n := octRun(s, i+2, j-2)
		return j + 1, n == j-2 && writeRune(b, v)
	case d == 'x':
		if v, n := braced(s, i+1); n > 0 {
			return 1 + n, writeRune(b, v)
		}
		v, n := hexRun(s, i+1, 2, false)
		return 1 + n, writeRune(b, v)
	case d == 'N':
		// \N{U+263A}; a character's name is not decoded.
		if j := strings.IndexByte(s[i:], '}'); j > 4 && strings.HasPrefix(s[i+1:], "{U+") {
			if v, n := hexRun(s, i+4, j-4, true); n > 0 {
				return j + 1, writeRune(b, v)
			}
		}
		return 1, false
	case d == 'c' && i+1 < len(s):
		b.WriteByte(upper(s[i+1]) ^ 64)
		return 2, true
	case strings.IndexByte("lLuUQEF", d) >= 0:
		return 1, false // case changes the scan does not apply
	}
	b.WriteByte(d) // \" \$ \@ and the like; an unknown letter is itself
	return 1, true
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// perlInterp reads an interpolation at l.i ($x, $x[...], $x->{...},
// ${...}, @{[...]}), tokenizing the code in it, and reports whether there
// was one (a lone $ or @ is text).
func (l *lexer) perlInterp(limit int, regex bool) bool {
	c := l.src[l.i]
	j := l.i + 1
	if j >= limit {
		return false
	}
	d := l.src[j]
	switch {
	case d == '{':
		l.i = j + 1
		l.subLex(limit, stopBrace)
		if l.i < limit && l.src[l.i] == '}' {
			l.i++
		}
	case isIdentStart(d) || d == ':' && l.at(j, "::") || d == '$' && c == '$' || c == '$' && isDigit(d) ||
		c == '$' && !regex && strings.IndexByte("&`'+!@/\\,;.", d) >= 0:
		k := j
		for k < limit && l.src[k] == '$' {
			k++
		}
		switch {
		case k < limit && (isIdentByte(l.src[k]) || l.src[k] == ':'):
			for k < limit && (isIdentByte(l.src[k]) || l.at(k, "::")) {
				if l.src[k] == ':' {
					k++
				}
				k++
			}
		case k == j:
			k++ // $& $' and the other one-character names
		}
		l.i = k
		for l.i < limit {
			if l.at(l.i, "->[") || l.at(l.i, "->{") {
				l.i += 2
			}
			if l.i >= limit || l.src[l.i] != '[' && l.src[l.i] != '{' {
				break
			}
			st := stopBracket
			if l.src[l.i] == '{' {
				st = stopBrace
			}
			l.i++
			l.subLex(limit, st)
			if l.i < limit {
				l.i++
			}
		}
	default:
		return false
	}
	return true
}

// subLex tokenizes interpolated code that cannot reach past limit (the
// end of the string it sits in), inside synthetic parentheses.
func (l *lexer) subLex(limit int, st stop) {
	if l.depth >= maxLexDepth {
		l.giveUp("interpolation nested too deep to follow")
		return
	}
	c := &lexer{lang: l.lang, src: l.src[:limit], i: l.i, depth: l.depth + 1, budget: l.budget}
	c.synth("(")
	c.code(st)
	c.synth(")")
	if !l.tick(len(c.toks)) {
		return
	}
	l.toks = append(l.toks, c.toks...)
	l.notes = append(l.notes, c.notes...)
	l.subs = append(l.subs, c.subs...)
	l.i = c.i
}

// perlVar reads a variable: $x, @x, %x, &x, *x, $#x, $$x, $::x, $0, $_,
// $/, ${^NAME}; ${ and @{ leave their brace to the code.
func (l *lexer) perlVar() {
	start := l.i
	sigil := l.src[l.i]
	l.i++
	if sigil == '$' && l.at(l.i, "#") && l.i+1 < len(l.src) && (isIdentStart(l.src[l.i+1]) || l.src[l.i+1] == '{' || l.src[l.i+1] == '$') {
		l.i++
	}
	for l.i+1 < len(l.src) && l.src[l.i] == '$' && (isIdentStart(l.src[l.i+1]) || l.src[l.i+1] == '$' || l.src[l.i+1] == '{') {
		l.i++
	}
	switch {
	case l.i >= len(l.src):
	case isIdentStart(l.src[l.i]) || l.at(l.i, "::"):
		for l.i < len(l.src) && (isIdentByte(l.src[l.i]) || l.at(l.i, "::")) {
			if l.src[l.i] == ':' {
				l.i++
			}
			l.i++
		}
	case isDigit(l.src[l.i]):
		for l.i < len(l.src) && isDigit(l.src[l.i]) {
			l.i++
		}
	case l.src[l.i] == '^' && l.i+1 < len(l.src) && isLetter(l.src[l.i+1]):
		l.i += 2
	case l.src[l.i] == '{':
	case sigil == '$' && !isBlankByte(l.src[l.i]) && strings.IndexByte("()[];", l.src[l.i]) < 0:
		l.i++ // $/ $' $" $, and the rest; not the brackets a prototype ($) uses
	case sigil == '@' && (l.src[l.i] == '_' || l.src[l.i] == '-' || l.src[l.i] == '+'):
		l.i++
	}
	l.emit(token{kind: tVar, text: l.src[start:l.i], pos: start})
}

// perlHeredoc reads <<"EOF", <<'EOF', <<EOF, <<~EOF, << "EOF".
func (l *lexer) perlHeredoc() bool {
	start := l.i
	j := l.i + 2
	indent := l.at(j, "~")
	if indent {
		j++
	}
	k := j
	for k < len(l.src) && l.src[k] == ' ' {
		k++
	}
	return l.heredocStart(start, k, j, false, indent, indent)
}

// perlAngle reads <STDIN>, <$fh>, <*.c>, <>.
func (l *lexer) perlAngle() bool {
	start := l.i
	for j := l.i + 1; j < len(l.src) && l.tick(1); j++ {
		switch l.src[j] {
		case '>':
			l.i = j + 1
			l.emit(token{kind: tGlob, text: l.src[start:l.i], pos: start})
			return true
		case '<', '\n', ' ', ';':
			return false
		}
	}
	return false
}

// perlResolve drops CORE:: and main::, and writes packages with dots.
func perlResolve(name string) string {
	name = strings.TrimPrefix(name, "CORE::GLOBAL::")
	name = strings.TrimPrefix(name, "CORE::")
	name = strings.TrimPrefix(name, "main::")
	name = strings.TrimPrefix(name, "::")
	return strings.ReplaceAll(name, "::", ".")
}

// perlStatement skips use, no and package statements, and the name after sub.
func perlStatement(s *scanner, i int) int {
	t := &s.toks[i]
	if t.kind != tIdent {
		return i
	}
	switch t.text {
	case "use", "no", "package":
		j := i
		for j < len(s.toks) && s.punctAt(j) != ";" && s.punctAt(j) != "{" {
			s.done[j] = true
			j++
		}
		return j
	case "sub":
		if i+1 < len(s.toks) && s.toks[i+1].kind == tIdent {
			s.done[i+1] = true
			return i + 2
		}
	}
	return i
}

// perlSystem: system and exec run one string through the shell, or a
// list as a program and its arguments; system { $prog } LIST hides the
// program.
func perlSystem(s *scanner, c *call) val {
	args := c.positional(0)
	if len(args) > 0 && s.punctAt(args[0].lo) == "{" {
		s.runArgv(c.name, nil, false)
		return val{}
	}
	ws, known := s.flat(args)
	if len(args) == 1 && !args[0].spread && len(ws) == 1 {
		if _, _, isList := s.list(args[0]); !isList {
			s.runShell(c.name, ws[0])
			return val{}
		}
	}
	for _, a := range args {
		known = known && !a.spread
	}
	s.runArgv(c.name, ws, known)
	return val{}
}

// perlCmdFrom: open3($w, $r, $e, CMD...) and open2($out, $in, CMD...):
// the command starts at position i.
func perlCmdFrom(i int) handler {
	return func(s *scanner, c *call) val {
		args := c.positional(i)
		if len(args) == 0 {
			s.runArgv(c.name, nil, false)
			return val{}
		}
		return perlSystem(s, &call{name: c.name, lo: c.lo, hi: c.hi, args: args})
	}
}

// perlOpen reads open's forms: open(FH, "<x"), open(FH, "cmd |"),
// open(my $fh, "<:raw", "x"), open(my $fh, "-|", "cmd", @args).
func perlOpen(s *scanner, c *call) val {
	args := c.positional(0)
	if c.ref || len(args) < 2 {
		if len(args) == 1 || c.ref {
			s.openEffects(s.unknownWord(c.lo, c.hi), true, true)
		}
		return val{}
	}
	mode := s.word(args[1])
	if len(args) == 2 {
		if !mode.Known {
			// A two-argument open of a string not known may be a pipe.
			s.openEffects(mode, true, true)
			s.runShell(c.name, mode)
			return val{}
		}
		perlTwoArgOpen(s, c, mode)
		return val{}
	}
	if !mode.Known {
		s.openEffects(s.word(args[2]), true, true)
		s.runArgv(c.name, nil, false)
		return val{}
	}
	m := strings.TrimSpace(mode.Value)
	if i := strings.IndexByte(m, ':'); i >= 0 {
		m = strings.TrimSpace(m[:i]) // layers: <:encoding(UTF-8)
	}
	switch m {
	case "-|", "|-":
		if len(args) == 3 {
			s.runShell(c.name, s.word(args[2]))
		} else {
			perlSystem(s, &call{name: c.name, lo: c.lo, hi: c.hi, args: args[2:]})
		}
		return val{}
	case "<&", ">&", "<&=", ">&=", ">>&", "+<&":
		return val{} // a duplicated handle
	}
	if s.punctAt(args[2].lo) == "\\" {
		return val{} // an in-memory file: open($fh, '<', \$buf)
	}
	read, write := perlMode(m)
	s.openEffects(s.word(args[2]), read, write)
	return val{}
}

// perlMode reads an open mode: <, >, >>, +<, +>, +>>.
func perlMode(m string) (read, write bool) {
	switch m {
	case "<", "":
		return true, false
	case ">", ">>":
		return false, true
	}
	return true, true
}

// perlTwoArgOpen reads the mode inside open's second argument.
func perlTwoArgOpen(s *scanner, c *call, w Word) {
	v := strings.TrimSpace(w.Value)
	path := func(rest string) Word {
		return Word{Raw: w.Raw, Value: strings.TrimSpace(rest), Known: true}
	}
	switch {
	case v == "-" || v == ">-" || strings.HasPrefix(v, "<&") || strings.HasPrefix(v, ">&") || strings.HasPrefix(v, ">>&"):
	case v == "-|" || v == "|-":
		s.runArgv(c.name, nil, false) // a fork: the child's code is elsewhere
	case strings.HasPrefix(v, "|"):
		s.runShell(c.name, path(v[1:]))
	case strings.HasSuffix(v, "|"):
		s.runShell(c.name, path(v[:len(v)-1]))
	case strings.HasPrefix(v, "+<"), strings.HasPrefix(v, "+>"):
		s.openEffects(path(strings.TrimLeft(v[1:], "<>")), true, true)
	case strings.HasPrefix(v, ">"):
		s.openEffects(path(strings.TrimLeft(v, ">")), false, true)
	case strings.HasPrefix(v, "<"):
		s.openEffects(path(v[1:]), true, false)
	default:
		s.openEffects(path(v), true, false)
	}
}

// perlEval: eval STRING evaluates code; eval BLOCK is ordinary code; a
// bare eval evaluates $_.
func perlEval(s *scanner, c *call) val {
	if !c.ref && len(c.args) > 0 && s.punctAt(c.args[0].lo) == "{" {
		return val{}
	}
	return evalAt(0, "")(s, c)
}

// perlDo: do FILE runs a file (read here as reading it); do BLOCK is code.
func perlDo(s *scanner, c *call) val {
	if len(c.args) > 0 && s.punctAt(c.args[0].lo) == "{" {
		return val{}
	}
	return onPath(Read, false, 0, "")(s, c)
}

// perlRequire: require Module is a module; require "file.pl" reads a file.
func perlRequire(s *scanner, c *call) val {
	if a, ok := c.pos(0); ok && !a.spread && (s.toks[a.lo].kind == tIdent || s.toks[a.lo].kind == tNum) {
		return val{}
	}
	return onPath(Read, false, 0, "")(s, c)
}

// perlCan: ->can("name") hands out a function by name.
func perlCan(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	w := s.word(a)
	if !w.Known {
		s.opaque("a function looked up by a name computed at run time", c.lo, c.hi)
		return val{}
	}
	if k, ok := s.spec.sinks[perlResolve(w.Value)]; ok {
		k.h(s, &call{name: w.Value, lo: c.lo, hi: c.hi, ref: true})
	}
	return val{}
}

// perlSpec builds Perl's tables, on the first scan of Perl code.
func perlSpec() *langSpec {
	t := map[string]sink{}
	sinks(t, kRisky, onPaths(Delete, false, 0), "unlink", "rmdir")
	sinks(t, kRisky, onPaths(Delete, true, 0), "rmtree", "remove_tree", "File.Path.rmtree", "File.Path.remove_tree")
	sinks(t, kRisky, movePaths(0, "", 1, ""), "rename", "File.Copy.move", "File.Copy.mv")
	sinks(t, kFile, copyPaths(0, "", 1, "", false), "File.Copy.copy", "File.Copy.cp")
	sinks(t, kFile, onPaths(Meta, false, 1), "chmod")
	sinks(t, kFile, onPaths(Meta, false, 2), "chown", "utime")
	sinks(t, kFile, onPath(Write, false, 0, ""), "truncate", "mkdir")
	sinks(t, kFile, onPaths(Write, false, 0), "make_path", "mkpath", "File.Path.make_path", "File.Path.mkpath")
	sinks(t, kFile, linkPaths(0, 1, "", "", false), "symlink")
	sinks(t, kFile, linkPaths(0, 1, "", "", true), "link")
	sinks(t, kRisky, perlOpen, "open")
	sinks(t, kFile, func(s *scanner, c *call) val {
		if a, ok := c.pos(1); ok {
			read, write := true, true
			if f, ok := c.pos(2); ok && !f.spread && !s.hasText(f, "O_WRONLY") && !s.hasText(f, "O_RDWR") &&
				!s.hasText(f, "O_CREAT") && !s.hasText(f, "O_TRUNC") && !s.hasText(f, "O_APPEND") {
				write = false
			}
			s.openEffects(s.word(a), read, write)
		}
		return val{}
	}, "sysopen")
	sinks(t, kFile, pathObject, "path", "Path.Tiny.path")
	sinks(t, kRisky, perlSystem, "system", "exec", "IPC.System.Simple.system", "IPC.System.Simple.capture",
		"IPC.System.Simple.run")
	sinks(t, kRisky, func(s *scanner, c *call) val {
		ws, known := s.flat(c.positional(0))
		s.runArgv(c.name, ws, known)
		return val{}
	}, "systemx", "capturex", "runx", "IPC.System.Simple.systemx", "IPC.System.Simple.capturex", "IPC.System.Simple.runx")
	sinks(t, kRisky, shellAt(0, ""), "readpipe")
	sinks(t, kRisky, perlCmdFrom(3), "open3", "IPC.Open3.open3")
	sinks(t, kRisky, perlCmdFrom(2), "open2", "IPC.Open2.open2")
	sinks(t, kRisky, perlCmdFrom(0), "IPC.Run3.run3", "run3", "IPC.Run.run", "IPC.Run.start", "IPC.Cmd.run",
		"IPC.Cmd.run_forked")
	sinks(t, kRisky, perlEval, "eval")
	sinks(t, kFile, perlDo, "do")
	sinks(t, kFile, perlRequire, "require")
	sinks(t, kRisky, cannotFollow("a system call by number"), "syscall")

	pm := map[string]sink{}
	sinks(pm, kFile, onSubject(Read, false), "slurp", "slurp_utf8", "slurp_raw", "lines", "lines_utf8", "lines_raw")
	sinks(pm, kFile, onSubject(Write, false), "spew", "spew_utf8", "spew_raw", "append", "append_utf8", "touch")
	sinks(pm, kRisky, onSubject(Delete, false), "remove")
	sinks(pm, kRisky, onSubject(Delete, true), "remove_tree")

	m := map[string]sink{"can": {h: perlCan, kind: kRisky}}
	for _, n := range []string{"slurp", "slurp_utf8", "slurp_raw", "spew", "spew_utf8", "spew_raw", "remove_tree"} {
		m[n] = pm[n]
	}

	return (&langSpec{
		member: map[string]bool{"->": true}, concat: ".", parenless: true,
		sinks: t, methods: m, pathMethods: pm,
		resolve:   perlResolve,
		statement: perlStatement,
		terminators: map[string]bool{"if": true, "unless": true, "while": true, "until": true, "for": true,
			"foreach": true, "or": true, "and": true, "xor": true},
	}).finish()
}
