package shellcmd

import (
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Ruby: '...', "..." with #{} tokenized as code, `...`, the % literals
// (%q %Q %w %W %i %I %x %r %s and bare %()), here-documents (<<~, <<-,
// quoted terminators), symbols, ?c character literals, /patterns/,
// =begin/=end and __END__. Whether / or << after a name starts a literal
// is guessed as Ruby guesses: a blank before and none after.

// rubyOps are the words after which an operand comes.
var rubyOps = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"and": true, "or": true, "not": true, "if": true, "unless": true, "while": true, "until": true,
		"return": true, "when": true, "case": true, "then": true, "else": true, "elsif": true, "do": true,
		"yield": true, "in": true, "puts": true, "p": true, "print": true, "raise": true,
	}
}}

func (l *lexer) rubyAtom() bool {
	c := l.src[l.i]
	switch c {
	case '#':
		l.skipLine()
		return true
	case '\'':
		l.i++
		l.rubySingle(l.i-1, '\'', '\'', tStr)
		return true
	case '"':
		l.i++
		l.rubyDouble(l.i-1, '"', '"', tStr)
		return true
	case '`':
		l.i++
		l.rubyDouble(l.i-1, '`', '`', tCmd)
		return true
	case '$':
		l.rubyGlobal()
		return true
	case '@':
		start := l.i
		for l.i < len(l.src) && l.src[l.i] == '@' {
			l.i++
		}
		for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
			l.i++
		}
		l.emit(token{kind: tVar, text: l.src[start:l.i], pos: start})
		return true
	case '%':
		if l.termPos(rubyOps.Get()) {
			return l.rubyPercent()
		}
		return false
	case '/':
		if l.termPos(rubyOps.Get()) && l.slashAhead() {
			start := l.i
			l.i++
			l.rubyDouble(start, '/', '/', tRegex)
			l.flags()
			l.toks[len(l.toks)-1].end = l.i
			return true
		}
		return false
	case ':':
		if l.at(l.i, "::") || !l.termPos(rubyOps.Get()) || l.i+1 >= len(l.src) {
			return false
		}
		switch n := l.src[l.i+1]; {
		case n == '"':
			start := l.i
			l.i += 2
			l.rubyDouble(start, '"', '"', tStr)
			return true
		case n == '\'':
			start := l.i
			l.i += 2
			l.rubySingle(start, '\'', '\'', tStr)
			return true
		case isIdentStart(n):
			start := l.i
			l.i++
			name := l.rubyName()
			l.emit(token{kind: tStr, val: name, known: true, pos: start})
			return true
		}
		return false
	case '?':
		// ?a is the string "a" where an operand is expected.
		if l.termPos(rubyOps.Get()) && l.i+1 < len(l.src) && !isBlankByte(l.src[l.i+1]) &&
			(l.i+2 >= len(l.src) || !isIdentByte(l.src[l.i+2]) || l.src[l.i+1] == '\\') {
			start := l.i
			l.i++
			var b strings.Builder
			known := true
			if l.src[l.i] == '\\' && l.i+1 < len(l.src) {
				n, ok := rubyEscape(&b, l.src, l.i+1)
				known = ok
				l.i += 1 + n
			} else {
				b.WriteByte(l.src[l.i])
				l.i++
			}
			l.emit(token{kind: tStr, val: b.String(), known: known, pos: start})
			return true
		}
		return false
	case '<':
		if l.at(l.i, "<<") && (l.termPos(rubyOps.Get()) || l.afterNameWithBlank()) {
			return l.rubyHeredoc()
		}
		return false
	}
	if isIdentStart(c) {
		start := l.i
		l.emit(token{kind: tIdent, text: l.rubyName(), pos: start})
		return true
	}
	return false
}

// slashAhead reports a / later in the source, for a pattern to end at.
func (l *lexer) slashAhead() bool {
	j := strings.IndexByte(l.src[l.i+1:], '/')
	if j < 0 {
		j = len(l.src) - l.i
	}
	return l.tick(j) && j < len(l.src)-l.i-1
}

// afterNameWithBlank reports foo <<X: a name, a blank, and no blank after.
func (l *lexer) afterNameWithBlank() bool {
	n := len(l.toks)
	return n > 0 && l.toks[n-1].kind == tIdent && l.sp && l.i+2 < len(l.src) && !isBlankByte(l.src[l.i+2])
}

// rubyName reads a name, with a method's ? or ! (exist?, save!).
func (l *lexer) rubyName() string {
	start := l.i
	for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
		l.i++
	}
	if l.i < len(l.src) && (l.src[l.i] == '?' || l.src[l.i] == '!') && !l.at(l.i+1, "=") {
		l.i++
	}
	return l.src[start:l.i]
}

// rubyGlobal reads $x, $0, $!, $-w.
func (l *lexer) rubyGlobal() {
	start := l.i
	l.i++
	switch {
	case l.i >= len(l.src):
	case isIdentByte(l.src[l.i]):
		for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
			l.i++
		}
	case l.src[l.i] == '-' && l.i+1 < len(l.src) && isIdentByte(l.src[l.i+1]):
		l.i += 2
	case !isBlankByte(l.src[l.i]):
		l.i++
	}
	l.emit(token{kind: tVar, text: l.src[start:l.i], pos: start})
}

// rubySingle reads a body without interpolation, l.i just past its opening
// delimiter.
func (l *lexer) rubySingle(start int, open, close byte, kind tokKind) {
	var b strings.Builder
	l.quoted(open, close, len(l.src), l.singleQuoted(&b, open, close))
	t := token{kind: kind, val: b.String(), known: true, pos: start}
	if kind == tList {
		t.vals = strings.Fields(t.val)
	}
	l.emit(t)
}

// rubyDouble reads an interpolating body, l.i just past its opening
// delimiter.
func (l *lexer) rubyDouble(start int, open, close byte, kind tokKind) {
	tok := l.emit(token{kind: kind, pos: start})
	var b strings.Builder
	known := true
	l.quoted(open, close, len(l.src), l.rubyDQ(&b, &known, open))
	t := &l.toks[tok]
	t.val, t.known, t.end = b.String(), known, l.i
	if kind == tList {
		t.vals = strings.Fields(t.val)
	}
}

// rubyDQ is the step of an interpolating body.
func (l *lexer) rubyDQ(b *strings.Builder, known *bool, open byte) func() int {
	return func() int {
		c := l.src[l.i]
		switch c {
		case '\\':
			if l.i+1 >= len(l.src) {
				b.WriteByte(c)
				return 1
			}
			if open == '/' {
				b.WriteString(l.src[l.i : l.i+2])
				return 2
			}
			n, ok := rubyEscape(b, l.src, l.i+1)
			*known = *known && ok
			return 1 + n
		case '#':
			switch {
			case l.at(l.i+1, "{"):
				*known = false
				l.i += 2
				if l.nested(stopBrace) && l.at(l.i, "}") {
					l.i++
				}
				return 0
			case l.at(l.i+1, "@") || l.at(l.i+1, "$"):
				if l.i+2 < len(l.src) && (isIdentStart(l.src[l.i+2]) || l.src[l.i+2] == '@') {
					*known = false
				}
			}
		}
		b.WriteByte(c)
		return 1
	}
}

// rubyEscape decodes the escape after a backslash at s[i].
func rubyEscape(b *strings.Builder, s string, i int) (int, bool) {
	d := s[i]
	switch {
	case d == '\n':
		return 1, true
	case cEscape(b, s, i):
		return 1, true
	case d == 'e':
		b.WriteByte(0x1b)
		return 1, true
	case d == 's':
		b.WriteByte(' ')
		return 1, true
	case d >= '0' && d <= '7':
		v, n := octRun(s, i, 3)
		return n, writeRune(b, v)
	case d == 'x':
		v, n := hexRun(s, i+1, 2, false)
		if n == 0 {
			return 1, false
		}
		return 1 + n, writeRune(b, v)
	case d == 'u':
		if v, n := braced(s, i+1); n > 0 {
			return 1 + n, writeRune(b, v)
		}
		v, n := hexRun(s, i+1, 4, true)
		if n == 0 {
			return 1, false
		}
		return 5, writeRune(b, v)
	case d == 'c' || d == 'C' || d == 'M':
		return 1, false
	}
	b.WriteByte(d)
	return 1, true
}

// rubyPercent reads a % literal at l.i, or reports false (a modulo).
func (l *lexer) rubyPercent() bool {
	start := l.i
	j := l.i + 1
	typ := byte('Q')
	if j+1 < len(l.src) && strings.IndexByte("qQwWiIxrs", l.src[j]) >= 0 && !isIdentByte(l.src[j+1]) && !isBlankByte(l.src[j+1]) {
		typ = l.src[j]
		j++
	}
	if j >= len(l.src) || isIdentByte(l.src[j]) || isBlankByte(l.src[j]) || l.src[j] == '=' {
		return false
	}
	open := l.src[j]
	close := closerOf(open)
	l.i = j + 1
	switch typ {
	case 'q', 's':
		l.rubySingle(start, open, close, tStr)
	case 'w', 'i':
		l.rubySingle(start, open, close, tList)
	case 'W', 'I':
		l.rubyDouble(start, open, close, tList)
	case 'x':
		l.rubyDouble(start, open, close, tCmd)
	case 'r':
		l.rubyDouble(start, open, close, tRegex)
		l.flags()
	default:
		l.rubyDouble(start, open, close, tStr)
	}
	return true
}

// rubyHeredoc reads <<~ID, <<-ID, <<ID and quoted terminators.
func (l *lexer) rubyHeredoc() bool {
	start := l.i
	j := l.i + 2
	squiggly, dash := l.at(j, "~"), l.at(j, "-")
	if squiggly || dash {
		j++
	}
	return l.heredocStart(start, j, j, true, squiggly || dash, squiggly)
}

// rubyResolve: Kernel's functions are the bare ones.
func rubyResolve(name string) string {
	return strings.TrimPrefix(name, "Kernel.")
}

// rubyStatement reads def NAME (def self.NAME), alias NEW OLD.
func rubyStatement(s *scanner, i int) int {
	t := &s.toks[i]
	if t.kind != tIdent {
		return i
	}
	switch t.text {
	case "def":
		j := i + 1
		if j+2 < len(s.toks) && s.toks[j].text == "self" && s.punctAt(j+1) == "." {
			s.done[j], s.done[j+1] = true, true
			j += 2
		}
		if j < len(s.toks) && s.toks[j].kind == tIdent {
			s.done[j] = true
			return j + 1
		}
	case "include", "extend", "prepend":
		// include FileUtils makes its functions bare names, which the
		// tables know bare already.
		if i+1 < len(s.toks) && s.toks[i+1].kind == tIdent {
			s.done[i+1] = true
			return i + 2
		}
	case "alias":
		if i+2 < len(s.toks) {
			s.alias[symbolName(&s.toks[i+1])] = s.resolve(symbolName(&s.toks[i+2]))
			s.done[i+1], s.done[i+2] = true, true
			return i + 3
		}
	}
	return i
}

// symbolName is a name written bare or as a :symbol.
func symbolName(t *token) string {
	if t.kind == tStr {
		return t.val
	}
	return t.text
}

// rubyArgs drops the environment hash before a command and the options
// hash after it.
func (s *scanner) rubyArgs(args []arg) []arg {
	if len(args) > 0 && !args[0].spread && s.punctAt(args[0].lo) == "{" {
		args = args[1:]
	}
	if n := len(args); n > 0 && !args[n-1].spread && s.punctAt(args[n-1].lo) == "{" {
		args = args[:n-1]
	}
	return args
}

// rubySystem: system, exec, spawn, Open3 and PTY run one string through
// the shell, or a list as a program and its arguments (the first may be
// [program, argv0]).
func rubySystem(s *scanner, c *call) val {
	args := s.rubyArgs(c.positional(0))
	if len(args) == 0 {
		if c.ref || c.more {
			s.runArgv(c.name, nil, false)
		}
		return val{}
	}
	var argv []Word
	known := true
	for i, a := range args {
		if ws, k, isList := s.list(a); isList && i == 0 {
			if len(ws) > 0 {
				argv = append(argv, ws[0]) // [program, argv0]
			}
			known = known && k && len(ws) > 0
			continue
		}
		w := s.word(a)
		argv = append(argv, w)
		known = known && w.Known && !a.spread
	}
	if len(args) == 1 && !args[0].spread {
		if _, _, isList := s.list(args[0]); !isList {
			s.runShell(c.name, argv[0])
			return val{}
		}
	}
	s.runArgv(c.name, argv, known)
	return val{}
}

// rubyPopen: IO.popen(cmd): a string for the shell, a list for a program.
func rubyPopen(s *scanner, c *call) val {
	args := s.rubyArgs(c.positional(0))
	if len(args) == 0 {
		if c.ref {
			s.runArgv(c.name, nil, false)
		}
		return val{}
	}
	if ws, known, isList := s.list(args[0]); isList {
		s.runArgv(c.name, ws, known)
		return val{}
	}
	s.runShell(c.name, s.word(args[0]))
	return val{}
}

// rubyPipePath: Kernel#open and IO's readers run "|cmd" as a command;
// open reads URLs through open-uri; anything else is a file.
func rubyPipePath(op Op, mode int) handler {
	return func(s *scanner, c *call) val {
		a, ok := c.pos(0)
		if !ok {
			return val{}
		}
		w := s.word(a)
		switch {
		case !w.Known:
			s.runShell(c.name, w) // it may be a pipe
		case strings.HasPrefix(w.Value, "|"):
			s.runShell(c.name, Word{Raw: w.Raw, Value: w.Value[1:], Known: true})
			return val{}
		case strings.HasPrefix(w.Value, "http://") || strings.HasPrefix(w.Value, "https://") ||
			strings.HasPrefix(w.Value, "ftp://"):
			return val{}
		}
		if op == Write {
			s.effect(Write, false, w)
			return val{}
		}
		read, write := true, false
		if m, ok := c.pos(mode); ok && mode > 0 {
			mw := s.word(m)
			read, write = true, true
			if mw.Known {
				read, write = cMode(mw.Value)
			}
		}
		s.openEffects(w, read, write)
		return val{}
	}
}

// rubySend: send(:name, args) calls name.
func rubySend(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	w := s.word(a)
	if !w.Known {
		s.opaque("a method called by a name computed at run time", c.lo, c.hi)
		return val{}
	}
	k, ok := s.spec.sinks[w.Value]
	if !ok {
		k, ok = s.spec.methods[w.Value]
	}
	if ok {
		s.done[a.lo] = true
		rest := append([]arg(nil), c.args...)
		for i, r := range rest {
			if r.lo == a.lo {
				rest = append(rest[:i], rest[i+1:]...)
				break
			}
		}
		k.h(s, &call{name: w.Value, lo: c.lo, hi: c.hi, args: rest, ref: c.ref})
	}
	return val{}
}

// rubyMethodRef: method(:name) hands out a method by name.
func rubyMethodRef(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	w := s.word(a)
	if !w.Known {
		s.opaque("a method looked up by a name computed at run time", c.lo, c.hi)
		return val{}
	}
	k, ok := s.spec.sinks[w.Value]
	if !ok {
		k, ok = s.spec.methods[w.Value]
	}
	if ok {
		k.h(s, &call{name: w.Value, lo: c.lo, hi: c.hi, ref: true})
	}
	return val{}
}

// rubyAliasMethod: alias_method :new, :old.
func rubyAliasMethod(s *scanner, c *call) val {
	n, ok1 := c.pos(0)
	o, ok2 := c.pos(1)
	if ok1 && ok2 {
		nw, ow := s.word(n), s.word(o)
		if nw.Known && ow.Known {
			s.alias[nw.Value] = s.resolve(ow.Value)
		} else {
			s.opaque("a method aliased by a name computed at run time", c.lo, c.hi)
		}
	}
	return val{}
}

// rubySpec builds Ruby's tables, on the first scan of Ruby code.
func rubySpec() *langSpec {
	t := map[string]sink{}
	fu := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, n, "FileUtils."+n)
		}
		return out
	}
	sinks(t, kRisky, onPaths(Delete, false, 0), fu("rm", "rm_f", "remove", "remove_file", "safe_unlink", "rmdir")...)
	sinks(t, kRisky, onPaths(Delete, true, 0), fu("rm_r", "rm_rf", "rmtree", "remove_dir", "remove_entry", "remove_entry_secure")...)
	sinks(t, kRisky, onPaths(Delete, false, 0), "File.delete", "File.unlink", "Dir.delete", "Dir.rmdir", "Dir.unlink")
	sinks(t, kRisky, movePaths(0, "", 1, ""), "FileUtils.mv", "FileUtils.move", "File.rename")
	sinks(t, kFile, copyPaths(0, "", 1, "", false), "FileUtils.cp", "FileUtils.copy", "FileUtils.copy_file", "FileUtils.install")
	sinks(t, kFile, copyPaths(0, "", 1, "", true), "FileUtils.cp_r", "FileUtils.copy_entry")
	sinks(t, kFile, onPaths(Meta, false, 1), "FileUtils.chmod", "FileUtils.chmod_R", "File.chmod", "File.lchmod")
	sinks(t, kFile, onPaths(Meta, false, 2), "FileUtils.chown", "FileUtils.chown_R", "File.chown", "File.lchown", "File.utime")
	sinks(t, kFile, onPaths(Write, false, 0), "FileUtils.touch", "FileUtils.mkdir", "FileUtils.mkdir_p", "FileUtils.makedirs", "Dir.mkdir")
	sinks(t, kFile, linkPaths(0, 1, "", "", false), "File.symlink", "FileUtils.ln_s", "FileUtils.ln_sf")
	sinks(t, kFile, linkPaths(0, 1, "", "", true), "File.link", "FileUtils.ln")
	sinks(t, kFile, onPath(Read, false, 0, ""), "File.read", "File.readlines", "File.binread", "File.foreach", "load")
	sinks(t, kFile, onPath(Write, false, 0, ""), "File.write", "File.binwrite", "File.truncate")
	sinks(t, kFile, openPath(0, "", 1, "", cMode), "File.open", "File.new")
	sinks(t, kRisky, rubyPipePath(Read, 1), "open", "URI.open")
	sinks(t, kRisky, rubyPipePath(Read, 0), "IO.read", "IO.readlines", "IO.binread", "IO.foreach")
	sinks(t, kRisky, rubyPipePath(Write, 0), "IO.write", "IO.binwrite")
	sinks(t, kFile, pathObject, "Pathname.new", "Pathname")
	// Commands.
	sinks(t, kRisky, rubySystem, "system", "exec", "spawn", "Process.spawn", "Process.exec", "PTY.spawn",
		"Open3.popen3", "Open3.popen2", "Open3.popen2e", "Open3.capture2", "Open3.capture2e", "Open3.capture3",
		"Open3.pipeline", "Open3.pipeline_r", "Open3.pipeline_w", "Open3.pipeline_rw", "Open3.pipeline_start")
	sinks(t, kRisky, rubyPopen, "IO.popen")
	// Code.
	sinks(t, kRisky, evalAt(0, ""), "eval", "instance_eval", "class_eval", "module_eval", "binding.eval")
	sinks(t, kRisky, rubySend, "send", "public_send", "__send__")
	sinks(t, kRisky, rubyMethodRef, "method", "public_method", "instance_method")
	sinks(t, kRisky, rubyAliasMethod, "alias_method")
	sinks(t, kRisky, loadAt(0, "", func(n string) string { return strings.ReplaceAll(n, "::", ".") }),
		"const_get", "Object.const_get")
	sinks(t, kOpaque, cannotFollow("C functions called through Fiddle"), "Fiddle")
	sinks(t, kRisky, cannotFollow("a system call by number"), "syscall")

	pm := map[string]sink{}
	sinks(pm, kRisky, onSubject(Delete, false), "delete", "unlink", "rmdir")
	sinks(pm, kRisky, onSubject(Delete, true), "rmtree")
	sinks(pm, kFile, onSubject(Read, false), "read", "binread", "readlines", "each_line")
	sinks(pm, kFile, onSubject(Write, false), "write", "binwrite", "mkpath", "mkdir")
	sinks(pm, kRisky, moveSubject(0, ""), "rename")

	m := map[string]sink{}
	for _, n := range []string{"rm_r", "rm_rf", "rmtree", "remove_dir", "remove_entry", "remove_entry_secure", "safe_unlink"} {
		m[n] = t[n]
	}
	m["unlink"] = pm["unlink"]
	for _, n := range []string{"popen3", "popen2", "popen2e", "capture2", "capture2e", "capture3"} {
		m[n] = t["Open3."+n]
	}
	m["popen"] = t["IO.popen"]
	for _, n := range []string{"instance_eval", "class_eval", "module_eval", "eval", "send", "public_send",
		"__send__", "method", "public_method", "instance_method", "const_get", "alias_method"} {
		m[n] = t[n]
	}

	return (&langSpec{
		member: map[string]bool{".": true, "&.": true, "::": true}, concat: "+", adjacent: true,
		parenless: true, values: true,
		sinks: t, methods: m, pathMethods: pm,
		resolve:   rubyResolve,
		statement: rubyStatement,
		terminators: map[string]bool{"if": true, "unless": true, "while": true, "until": true, "rescue": true,
			"and": true, "or": true, "then": true, "do": true, "end": true},
	}).finish()
}
