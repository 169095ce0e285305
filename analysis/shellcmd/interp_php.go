package shellcmd

import (
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// PHP (php -r, and code after ?> ... <?php): '...', "..." with $var,
// {$expr} and ${expr} (the expressions tokenized as code), `...`,
// heredocs and nowdocs, the three comment forms. Function names are
// matched without case and namespace, as PHP falls back to the global
// function.

func (l *lexer) phpAtom() bool {
	c := l.src[l.i]
	switch c {
	case '#':
		if l.at(l.i+1, "[") {
			return false // an attribute
		}
		l.skipLine()
		return true
	case '/':
		switch {
		case l.at(l.i+1, "/"):
			l.skipLine()
			return true
		case l.at(l.i+1, "*"):
			l.blockComment()
			return true
		}
		return false
	case '?':
		if l.at(l.i, "?>") {
			// Text until the next <?php is output, not code.
			j := strings.Index(l.src[l.i:], "<?")
			if j < 0 {
				l.i = len(l.src)
			} else {
				l.i += j + 2
				if l.at(l.i, "php") {
					l.i += 3
				} else if l.at(l.i, "=") {
					l.i++
				}
			}
			l.sp = true
			return true
		}
		return false
	case '\'':
		start := l.i
		l.i++
		var b strings.Builder
		l.quoted(0, '\'', len(l.src), l.singleQuoted(&b, 0, '\''))
		l.emit(token{kind: tStr, val: b.String(), known: true, pos: start})
		return true
	case '"', '`':
		start := l.i
		l.i++
		kind := tStr
		if c == '`' {
			kind = tCmd
		}
		tok := l.emit(token{kind: kind, pos: start})
		var b strings.Builder
		known := true
		l.quoted(0, c, len(l.src), l.phpDQ(&b, &known, c))
		t := &l.toks[tok]
		t.val, t.known, t.end = b.String(), known, l.i
		return true
	case '<':
		if l.at(l.i, "<<<") {
			return l.phpHeredoc()
		}
		return false
	case '$':
		start := l.i
		l.i++
		for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
			l.i++
		}
		l.emit(token{kind: tVar, text: l.src[start:l.i], pos: start})
		return true
	case '\\':
		if l.i+1 < len(l.src) && isIdentStart(l.src[l.i+1]) {
			l.phpName()
			return true
		}
		return false
	}
	if isIdentStart(c) {
		l.phpName()
		return true
	}
	return false
}

// phpName reads a name with its namespace: \Foo\bar.
func (l *lexer) phpName() {
	start := l.i
	for l.i < len(l.src) && (isIdentByte(l.src[l.i]) || l.src[l.i] == '\\' && l.i+1 < len(l.src) && isIdentStart(l.src[l.i+1])) {
		l.i++
	}
	l.emit(token{kind: tIdent, text: l.src[start:l.i], pos: start})
}

// phpDQ is the step of a double-quoted body, a heredoc or backticks.
func (l *lexer) phpDQ(b *strings.Builder, known *bool, close byte) func() int {
	return func() int {
		c := l.src[l.i]
		switch c {
		case '\\':
			if l.i+1 >= len(l.src) {
				b.WriteByte(c)
				return 1
			}
			n, ok := phpEscape(b, l.src, l.i+1, close)
			*known = *known && ok
			return 1 + n
		case '$':
			switch {
			case l.at(l.i+1, "{"):
				*known = false
				l.i += 2
				if l.nested(stopBrace) && l.at(l.i, "}") {
					l.i++
				}
				return 0
			case l.i+1 < len(l.src) && isIdentStart(l.src[l.i+1]):
				*known = false
				j := l.i + 1
				for j < len(l.src) && isIdentByte(l.src[j]) {
					j++
				}
				if j < len(l.src) && l.src[j] == '[' {
					if k := strings.IndexByte(l.src[j:], ']'); k > 0 {
						j += k + 1
					}
				} else if l.at(j, "->") && j+2 < len(l.src) && isIdentStart(l.src[j+2]) {
					j += 2
					for j < len(l.src) && isIdentByte(l.src[j]) {
						j++
					}
				}
				b.WriteString(l.src[l.i:j])
				return j - l.i
			}
		case '{':
			if l.at(l.i+1, "$") {
				*known = false
				l.i++
				if l.nested(stopBrace) && l.at(l.i, "}") {
					l.i++
				}
				return 0
			}
		}
		b.WriteByte(c)
		return 1
	}
}

// phpEscape decodes the escape after a backslash at s[i]; an unknown one
// keeps its backslash.
func phpEscape(b *strings.Builder, s string, i int, close byte) (int, bool) {
	d := s[i]
	switch {
	case d == 'n' || d == 't' || d == 'r' || d == 'v' || d == 'f':
		cEscape(b, s, i)
		return 1, true
	case d == 'e':
		b.WriteByte(0x1b)
		return 1, true
	case d == '\\' || d == '$' || d == close && close != 0:
		b.WriteByte(d)
		return 1, true
	case d >= '0' && d <= '7':
		v, n := octRun(s, i, 3)
		b.WriteByte(byte(v))
		return n, true
	case d == 'x' && i+1 < len(s) && isHex(s[i+1]):
		v, n := hexRun(s, i+1, 2, false)
		b.WriteByte(byte(v))
		return 1 + n, true
	case d == 'u' && i+1 < len(s) && s[i+1] == '{':
		if v, n := braced(s, i+1); n > 0 {
			return 1 + n, writeRune(b, v)
		}
		return 1, false
	}
	b.WriteByte('\\')
	b.WriteByte(d)
	return 1, true
}

// phpHeredoc reads <<<ID, <<<"ID" and <<<'ID' (a nowdoc).
func (l *lexer) phpHeredoc() bool {
	start := l.i
	j := l.i + 3
	for j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t') {
		j++
	}
	interp := true
	if j < len(l.src) && (l.src[j] == '"' || l.src[j] == '\'') {
		interp = l.src[j] == '"'
		j++
	}
	e := j
	for e < len(l.src) && isIdentByte(l.src[e]) {
		e++
	}
	if e == j {
		return false
	}
	term := l.src[j:e]
	if e < len(l.src) && (l.src[e] == '"' || l.src[e] == '\'') {
		e++
	}
	l.i = e
	tok := l.emit(token{kind: tStr, pos: start, known: true})
	l.heredocs = append(l.heredocs, heredoc{tok: tok, term: term, interp: interp, indent: true, strip: true})
	return true
}

// phpHeredocEnd finds a heredoc's closing marker: on a line of its own
// after optional indentation, followed by anything but a name's letter
// (EOT; and EOT) end it too). The code after it goes on.
func phpHeredocEnd(src string, from int, term string) (bodyEnd, next int) {
	for i := from; i < len(src); {
		t := strings.TrimLeft(src[i:], " \t")
		ind := len(src[i:]) - len(t)
		if strings.HasPrefix(t, term) && (len(t) == len(term) || !isIdentByte(t[len(term)])) {
			return i, i + ind + len(term)
		}
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return len(src), len(src)
}

// phpResolve: function names ignore case and fall back from any
// namespace to the global one.
func phpResolve(name string) string {
	name = strings.ToLower(name)
	if i := strings.LastIndexByte(name, '\\'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// phpStatement skips the name after function, use and namespace
// statements, and reads include and require.
func phpStatement(s *scanner, i int) int {
	t := &s.toks[i]
	if t.kind != tIdent {
		return i
	}
	switch strings.ToLower(t.text) {
	case "function":
		if i+1 < len(s.toks) && s.toks[i+1].kind == tIdent {
			s.done[i+1] = true
			return i + 2
		}
	case "use", "namespace":
		j := i
		for j < len(s.toks) && s.punctAt(j) != ";" && s.punctAt(j) != "{" {
			s.done[j] = true
			j++
		}
		return j
	case "include", "include_once", "require", "require_once": // see phpIncludes
		// The path runs to the end of the statement, or to another
		// include, whose value it then is.
		j := i + 1
		for j < len(s.toks) && s.punctAt(j) != ";" && !phpIncludes.Get()[strings.ToLower(s.toks[j].text)] && s.budget.take(1) {
			if t := &s.toks[j]; t.kind == tPunct && (t.text == "(" || t.text == "[") {
				j = t.match
			}
			j++
		}
		if j == i+1 {
			return i + 1
		}
		s.effect(Read, false, s.word(arg{lo: i + 1, hi: min(j, len(s.toks))}))
		s.done[i] = true
		return i + 1
	}
	return i
}

var phpIncludes = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"include": true, "include_once": true, "require": true, "require_once": true}
}}

// phpCallable: call_user_func('system', 'ls'), array_map('unlink', $f):
// a function named by a string is that function, called with the
// arguments after it (rest), the elements of a list (list), or arguments
// the scan does not see.
func phpCallable(i int, how string) handler {
	return func(s *scanner, c *call) val {
		a, ok := c.pos(i)
		if !ok {
			return val{}
		}
		t := &s.toks[a.lo]
		if t.kind == tIdent {
			switch strings.ToLower(t.text) {
			case "function", "fn", "static", "null":
				return val{} // a closure, or none
			}
		}
		w := s.word(a)
		if !w.Known {
			s.opaque("a function named at run time", c.lo, c.hi)
			return val{}
		}
		s.done[a.lo] = true
		name := phpResolve(w.Value)
		k, ok := s.spec.sinks[name]
		if !ok {
			return val{}
		}
		inner := &call{name: name, lo: c.lo, hi: c.hi, ref: true}
		switch how {
		case "rest":
			inner.ref = false
			for _, r := range c.args {
				if r.lo > a.lo {
					inner.args = append(inner.args, r)
				}
			}
		case "list":
			if l, ok := c.pos(i + 1); ok && !l.spread && s.punctAt(l.lo) == "[" && s.toks[l.lo].match == l.hi-1 {
				inner.ref = false
				inner.args = s.splitArgs(l.lo+1, l.hi-1, false)
			}
		}
		k.h(s, inner)
		return val{}
	}
}

// phpProcOpen: proc_open(cmd, ...): a string for the shell, an array
// for a program (PHP 7.4).
func phpProcOpen(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	if ws, known, isList := s.list(a); isList {
		s.runArgv(c.name, ws, known)
		return val{}
	}
	s.runShell(c.name, s.word(a))
	return val{}
}

// phpAssert: assert("code") evaluates a string (before PHP 8); a
// variable may hold one.
func phpAssert(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	switch {
	case a.hi == a.lo+1 && s.toks[a.lo].kind == tStr:
		s.evalCode(s.word(a), s.text(c.lo, c.hi))
	case a.hi == a.lo+1 && s.toks[a.lo].kind == tVar:
		s.opaque("assert of a variable, which may hold code", c.lo, c.hi)
	}
	return val{}
}

// phpPregReplace: a pattern with the e modifier (before PHP 7)
// evaluates its replacement.
func phpPregReplace(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	w := s.word(a)
	if !w.Known {
		return val{}
	}
	v := w.Value
	if len(v) > 1 {
		d := closerOf(v[0])
		if j := strings.LastIndexByte(v, d); j > 0 && strings.Contains(v[j+1:], "e") {
			s.opaque("a replacement evaluated as code (the e modifier)", c.lo, c.hi)
		}
	}
	return val{}
}

// phpString flags a string that names a risky function: PHP calls a
// function by a string holding its name ($f = 'system'; $f('id')).
func phpString(s *scanner, i int) {
	t := &s.toks[i]
	if !t.known || s.punctAt(i+1) == "=>" || s.punctAt(i-1) == "[" && s.punctAt(i+1) == "]" {
		return // a key
	}
	name := phpResolve(t.val)
	k, ok := s.spec.sinks[name]
	if !ok || k.kind != kRisky || name == "eval" {
		return
	}
	if i >= 2 && s.punctAt(i-1) == "(" && s.toks[i-2].kind == tIdent {
		switch strings.ToLower(s.toks[i-2].text) {
		case "function_exists", "is_callable":
			return // asking whether it exists calls nothing
		}
	}
	s.opaque("the function "+name+" named in a string, which PHP can call by that name", i, i+1)
}

// phpPcntlExec: pcntl_exec(path, [args]).
func phpPcntlExec(s *scanner, c *call) val {
	p, ok := c.pos(0)
	if !ok {
		return val{}
	}
	argv := []Word{s.word(p)}
	known := !p.spread
	if a, ok := c.pos(1); ok {
		ws, k, isList := s.list(a)
		argv = append(argv, ws...)
		known = known && k && isList
	}
	s.runArgv(c.name, argv, known)
	return val{}
}

// phpStream reads a PHP stream name as the file it opens:
// php://filter/.../resource=.env is .env, file:///x is /x, and php://stdin
// and a URL are no file. ok is false for no file.
func phpStream(w Word) (Word, bool) {
	if !w.Known {
		return w, true
	}
	v := w.Value
	switch {
	case strings.HasPrefix(v, "php://"):
		if _, rest, found := strings.Cut(v, "resource="); found {
			w.Value = rest
			return w, true
		}
		return w, false // stdin, memory, temp, output, fd
	case strings.HasPrefix(v, "file://"):
		w.Value = strings.TrimPrefix(v, "file://")
	case strings.HasPrefix(v, "compress.zlib://"), strings.HasPrefix(v, "compress.bzip2://"):
		w.Value = v[strings.Index(v, "://")+3:]
	case strings.Contains(v, "://"), strings.HasPrefix(v, "data:"):
		return w, false // a URL
	}
	return w, true
}

// phpFile: the argument at i is a file, or a stream that names one.
func phpFile(op Op, i int) handler {
	return func(s *scanner, c *call) val {
		if a, ok := c.pos(i); ok {
			if w, ok := phpStream(s.word(a)); ok {
				s.effect(op, false, w)
			}
		}
		return val{}
	}
}

// phpOpen: fopen(path, mode), new SplFileObject(path, mode).
func phpOpen(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	w, ok := phpStream(s.word(a))
	if !ok {
		return val{}
	}
	read, write := true, false
	if m, ok := c.pos(1); ok {
		mw := s.word(m)
		read, write = true, true
		if mw.Known {
			read, write = cMode(mw.Value)
		}
	}
	s.openEffects(w, read, write)
	return val{}
}

// phpSpec builds PHP's tables, on the first scan of PHP code.
func phpSpec() *langSpec {
	t := map[string]sink{}
	sinks(t, kRisky, onPath(Delete, false, 0, ""), "unlink", "rmdir")
	sinks(t, kRisky, movePaths(0, "", 1, ""), "rename")
	sinks(t, kFile, copyPaths(0, "", 1, "", false), "copy")
	sinks(t, kFile, phpFile(Read, 0), "file_get_contents", "file", "readfile", "highlight_file",
		"show_source", "php_strip_whitespace", "parse_ini_file", "md5_file", "sha1_file", "gzfile",
		"gzopen", "readgzfile", "simplexml_load_file")
	sinks(t, kFile, phpFile(Read, 1), "hash_file")
	sinks(t, kFile, phpFile(Write, 0), "file_put_contents", "touch", "mkdir", "tempnam")
	sinks(t, kFile, onPath(Meta, false, 0, ""), "chmod", "chown", "chgrp", "lchown", "lchgrp")
	sinks(t, kFile, linkPaths(0, 1, "", "", false), "symlink")
	sinks(t, kFile, linkPaths(0, 1, "", "", true), "link")
	sinks(t, kFile, phpOpen, "fopen", "splfileobject")
	// Commands.
	sinks(t, kRisky, shellAt(0, ""), "system", "exec", "shell_exec", "passthru", "popen", "expect_popen")
	sinks(t, kRisky, phpProcOpen, "proc_open")
	sinks(t, kRisky, phpPcntlExec, "pcntl_exec")
	// Code.
	sinks(t, kRisky, evalAt(0, ""), "eval")
	sinks(t, kRisky, evalAt(1, ""), "create_function")
	sinks(t, kRisky, phpAssert, "assert")
	sinks(t, kFile, phpPregReplace, "preg_replace")
	sinks(t, kRisky, phpCallable(0, "rest"), "call_user_func", "forward_static_call")
	sinks(t, kRisky, phpCallable(0, "list"), "call_user_func_array", "forward_static_call_array")
	sinks(t, kRisky, phpCallable(0, "ref"), "array_map", "register_shutdown_function", "register_tick_function",
		"set_error_handler", "set_exception_handler", "spl_autoload_register", "ob_start", "header_register_callback")
	sinks(t, kRisky, phpCallable(1, "ref"), "array_filter", "array_walk", "array_walk_recursive", "array_reduce",
		"usort", "uasort", "uksort", "iterator_apply", "preg_replace_callback")
	sinks(t, kOpaque, cannotFollow("C functions called through FFI"), "ffi")
	sinks(t, kRisky, cannotFollow("a PHP extension loaded at run time"), "dl")

	return (&langSpec{
		member: map[string]bool{"->": true, "?->": true, "::": true}, concat: ".",
		sinks: t, methods: map[string]sink{}, pathMethods: map[string]sink{},
		resolve:   phpResolve,
		statement: phpStatement,
		str:       phpString,
		noRefs:    true,
	}).finish()
}
