package shellcmd

import (
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// JavaScript (node -e, deno eval, bun -e): quotes, template literals
// with ${} tokenized as code, comments, regular expression literals
// (told from division by what precedes them), and \u escapes in names.

// jsOps are the words after which an operand comes, so / opens a pattern.
var jsOps = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
		"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
		"yield": true, "await": true, "default": true,
	}
}}

func (l *lexer) jsAtom() bool {
	c := l.src[l.i]
	switch c {
	case '/':
		switch {
		case l.at(l.i+1, "/"):
			l.skipLine()
			return true
		case l.at(l.i+1, "*"):
			l.blockComment()
			return true
		case l.termPos(jsOps.Get()):
			return l.slashPattern()
		}
		return false
	case '\'', '"':
		l.jsString()
		return true
	case '`':
		l.jsTemplate()
		return true
	case '#':
		if l.i+1 < len(l.src) && isIdentStart(l.src[l.i+1]) {
			l.jsIdent()
			return true
		}
		return false
	}
	if isIdentStart(c) || c == '$' || c == '\\' && l.at(l.i+1, "u") {
		l.jsIdent()
		return true
	}
	return false
}

// blockComment skips /* ... */.
func (l *lexer) blockComment() {
	if j := strings.Index(l.src[l.i+2:], "*/"); j >= 0 {
		l.i += 2 + j + 2
	} else {
		l.i = len(l.src)
	}
	l.sp = true
}

// slashPattern reads a /pattern/flags literal on one line; it reports
// false (the / divides) when the line has no end for it.
func (l *lexer) slashPattern() bool {
	start := l.i
	j := l.i + 1
	class := false
	for ; j < len(l.src) && l.tick(1); j++ {
		c := l.src[j]
		switch {
		case c == '\\':
			j++
			continue
		case c == '\n':
			return false
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			j++
			for j < len(l.src) && isIdentByte(l.src[j]) {
				j++
			}
			l.i = j
			l.emit(token{kind: tRegex, text: l.src[start:j], pos: start})
			return true
		}
	}
	return false
}

// jsIdent reads a name, decoding \u escapes (\u0065val is eval).
func (l *lexer) jsIdent() {
	start := l.i
	var b strings.Builder
	if l.src[l.i] == '#' {
		b.WriteByte('#')
		l.i++
	}
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case isIdentByte(c) || c == '$':
			b.WriteByte(c)
			l.i++
			continue
		case c == '\\' && l.at(l.i+1, "u"):
			var v rune
			n := 0
			if l.at(l.i+2, "{") {
				v, n = braced(l.src, l.i+2)
			} else if v, n = hexRun(l.src, l.i+2, 4, true); n > 0 {
				n = 4
			}
			if n == 0 || !writeRune(&b, v) {
				l.notes = append(l.notes, Opaque{What: "a name with an escape the scan cannot read", Raw: cut(l.src[start:min(l.i+8, len(l.src))])})
			}
			l.i += 2 + max(n, 0)
			continue
		}
		break
	}
	l.emit(token{kind: tIdent, text: b.String(), pos: start})
}

func (l *lexer) jsString() {
	start := l.i
	q := l.src[l.i]
	l.i++
	var b strings.Builder
	known := true
	for l.i < len(l.src) {
		c := l.src[l.i]
		if c == q {
			l.i++
			l.emit(token{kind: tStr, val: b.String(), known: known, pos: start})
			return
		}
		if c == '\n' {
			break
		}
		if c == '\\' {
			n, ok := jsEscape(&b, l.src, l.i+1)
			known = known && ok
			l.i += 1 + n
			continue
		}
		b.WriteByte(c)
		l.i++
	}
	l.emit(token{kind: tStr, val: b.String(), pos: start}) // unterminated
}

// jsTemplate reads `...`, its ${} fields tokenized as code.
func (l *lexer) jsTemplate() {
	start := l.i
	l.i++
	tok := l.emit(token{kind: tStr, tmpl: true, pos: start})
	var b strings.Builder
	known := true
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '`':
			l.i++
			t := &l.toks[tok]
			t.val, t.known, t.end = b.String(), known, l.i
			return
		case c == '\\':
			n, ok := jsEscape(&b, l.src, l.i+1)
			known = known && ok
			l.i += 1 + n
			continue
		case c == '$' && l.at(l.i+1, "{"):
			known = false
			l.i += 2
			if !l.nested(stopBrace) {
				break
			}
			if l.at(l.i, "}") {
				l.i++
			}
			continue
		}
		b.WriteByte(c)
		l.i++
	}
	t := &l.toks[tok]
	t.val, t.known, t.end = b.String(), false, l.i
}

// jsEscape decodes the escape after a backslash at s[i].
func jsEscape(b *strings.Builder, s string, i int) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	c := s[i]
	switch {
	case c == '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2, true
		}
		return 1, true
	case c == '\n':
		return 1, true
	case cEscape(b, s, i):
		return 1, true
	case c >= '0' && c <= '7':
		if c == '0' && (i+1 >= len(s) || !isDigit(s[i+1])) {
			b.WriteByte(0)
			return 1, true
		}
		v, n := octRun(s, i, 3) // legacy octal, sloppy mode
		if v > 0377 {
			v, n = octRun(s, i, 2)
		}
		return n, writeRune(b, v)
	case c == 'x':
		v, n := hexRun(s, i+1, 2, true)
		if n == 0 {
			return 1, false
		}
		return 3, writeRune(b, v)
	case c == 'u':
		if v, n := braced(s, i+1); n > 0 {
			return 1 + n, writeRune(b, v)
		}
		v, n := hexRun(s, i+1, 4, true)
		if n == 0 {
			return 1, false
		}
		return 5, writeRune(b, v)
	}
	b.WriteByte(c)
	return 1, true
}

// jsModule is a module's name as the tables spell it: node:fs is fs,
// fs/promises is fs.promises, bun is Bun.
func jsModule(name string) string {
	name = strings.TrimPrefix(name, "node:")
	switch name {
	case "bun":
		return "Bun"
	}
	return strings.ReplaceAll(name, "/", ".")
}

// jsResolve drops the global object: globalThis.require is require.
func jsResolve(name string) string {
	for _, g := range []string{"globalThis.", "global.", "window.", "self."} {
		for strings.HasPrefix(name, g) {
			name = name[len(g):]
		}
	}
	return name
}

// jsStatement reads import declarations, destructuring of a module
// (const {execSync: run} = require('child_process')), and the name after
// function and class.
func jsStatement(s *scanner, i int) int {
	t := &s.toks[i]
	if t.kind != tIdent {
		return i
	}
	switch t.text {
	case "function", "class":
		if i+1 < len(s.toks) && s.toks[i+1].kind == tIdent {
			s.done[i+1] = true
			return i + 2
		}
	case "import":
		if p := s.punctAt(i + 1); p == "(" || p == "." {
			return i // import('x'), import.meta
		}
		return jsImport(s, i)
	case "const", "let", "var":
		if s.punctAt(i+1) == "{" {
			return jsDestructure(s, i+1)
		}
	}
	return i
}

// jsImport reads import X, * as Y, {a, b as c} from 'm'.
func jsImport(s *scanner, i int) int {
	end := i + 1
	for end < len(s.toks) && s.toks[end].kind != tStr && s.punctAt(end) != ";" && s.budget.take(1) {
		if s.punctAt(end) == "{" {
			end = s.toks[end].match
		}
		end++
	}
	if end >= len(s.toks) || s.toks[end].kind != tStr || !s.toks[end].known {
		return i
	}
	mod := jsModule(s.toks[end].val)
	if jsRelative(s.toks[end].val) {
		s.effect(Read, false, s.tokWord(end))
	}
	for j := i + 1; j < end; j++ {
		s.done[j] = true
		t := &s.toks[j]
		switch {
		case t.kind == tIdent && (t.text == "from" || t.text == "type"):
		case s.punctAt(j) == "*" && j+2 < end && s.toks[j+1].text == "as":
			s.alias[s.toks[j+2].text] = val{kind: vName, name: mod}
			j += 2
		case s.punctAt(j) == "{":
			for _, e := range s.splitArgs(j+1, t.match, false) {
				name := s.toks[e.lo].text
				bound := name
				if e.hi-e.lo == 3 && s.toks[e.lo+1].text == "as" {
					bound = s.toks[e.lo+2].text
				}
				s.alias[bound] = s.resolve(mod + "." + name)
			}
			for k := j; k <= t.match && k < end; k++ {
				s.done[k] = true
			}
			j = t.match
		case t.kind == tIdent:
			s.alias[t.text] = val{kind: vName, name: mod} // the default export
		}
	}
	s.done[end] = true
	return end + 1
}

// jsDestructure reads {a, b: c, ...rest} = value at the brace at i.
func jsDestructure(s *scanner, i int) int {
	close := s.toks[i].match
	if close+1 >= len(s.toks) || s.punctAt(close+1) != "=" || close+2 >= len(s.toks) {
		return i
	}
	for k := i; k <= close; k++ {
		s.done[k] = true
	}
	v := s.chain(close+2, true)
	if v.kind != vName {
		return close + 2
	}
	for _, e := range s.splitArgs(i+1, close, false) {
		switch {
		case s.punctAt(e.lo) == "..." && e.lo+1 < e.hi:
			s.alias[s.toks[e.lo+1].text] = v
		case s.toks[e.lo].kind == tIdent:
			name, bound := s.toks[e.lo].text, s.toks[e.lo].text
			if e.lo+2 < e.hi && s.punctAt(e.lo+1) == ":" && s.toks[e.lo+2].kind == tIdent {
				bound = s.toks[e.lo+2].text
			}
			s.alias[bound] = s.resolve(v.name + "." + name)
		}
	}
	return close + 2
}

// jsRun: execFile, spawn and execa take a program, an optional list of
// arguments and options; with {shell: true} the words are one command
// line for the shell.
func jsRun(s *scanner, c *call) val {
	p, ok := c.pos(0)
	if !ok {
		return val{}
	}
	prog := s.word(p)
	argv := []Word{prog}
	known := prog.Known && !p.spread
	opt := 1
	if a, ok := c.pos(1); ok && !(s.punctAt(a.lo) == "{" && !a.spread) {
		ws, k, isList := s.list(a)
		argv = append(argv, ws...)
		known = known && k && isList
		opt = 2
	}
	if c.ref || s.flag(c, opt, "shell") {
		vals := make([]string, len(argv))
		for i, w := range argv {
			vals[i] = w.Value
		}
		line := strings.Join(vals, " ")
		s.runShell(c.name, Word{Raw: s.text(c.lo, c.hi), Value: line, Known: known})
		return val{}
	}
	s.runArgv(c.name, argv, known)
	return val{}
}

// jsArgvField: Bun.spawn(["ls"]) or Bun.spawn({cmd: ["ls"]}), Deno.run({cmd: [...]}).
func jsArgvField(s *scanner, c *call) val {
	a, ok := c.pos(0)
	if !ok {
		return val{}
	}
	if f, found, _ := s.field(a, "cmd"); found {
		a = f
	}
	ws, known, isList := s.list(a)
	if !isList {
		ws, known = nil, false
	}
	s.runArgv(c.name, ws, known)
	return val{}
}

// jsDenoCommand: new Deno.Command(prog, {args: [...]}).
func jsDenoCommand(s *scanner, c *call) val {
	p, ok := c.pos(0)
	if !ok {
		return val{}
	}
	argv := []Word{s.word(p)}
	known := !p.spread
	if o, ok := c.pos(1); ok {
		f, found, readable := s.field(o, "args")
		switch {
		case found && readable:
			ws, k, isList := s.list(f)
			argv = append(argv, ws...)
			known = known && k && isList
		case found || !readable:
			known = false
		}
	}
	s.runArgv(c.name, argv, known)
	return val{}
}

// jsShellRm: shelljs rm([options,] ...paths): -r or -R deletes trees.
func jsShellRm(s *scanner, c *call) val {
	args := c.positional(0)
	tree := false
	if len(args) > 0 {
		if w := s.word(args[0]); w.Known && strings.HasPrefix(w.Value, "-") {
			tree = strings.ContainsAny(w.Value, "rR")
			args = args[1:]
		} else if !w.Known {
			tree = true
		}
	}
	for _, a := range args {
		if ws, _, ok := s.list(a); ok {
			for _, w := range ws {
				s.effect(Delete, tree, w)
			}
			continue
		}
		s.effect(Delete, tree || a.spread, s.word(a))
	}
	return val{}
}

// jsTimer: setTimeout("code", ms) evaluates a string; a function is
// the caller's business.
func jsTimer(s *scanner, c *call) val {
	if a, ok := c.pos(0); ok && !a.spread && s.toks[a.lo].kind == tStr {
		s.evalCode(s.word(a), s.text(c.lo, c.hi))
	}
	return val{}
}

// jsRequire: require('m') is the module m; a relative one is a file
// read (require('./config.json') prints it as well as any cat).
func jsRequire(s *scanner, c *call) val {
	v := loadAt(0, "", nil)(s, c)
	if v.kind != vName {
		return v
	}
	if jsRelative(v.name) {
		a, _ := c.pos(0)
		s.effect(Read, false, s.word(a))
	}
	return val{kind: vName, name: jsModule(v.name)}
}

func jsRelative(m string) bool {
	return strings.HasPrefix(m, "./") || strings.HasPrefix(m, "../") || strings.HasPrefix(m, "/")
}

// jsImportCall: import('m') hands the module to a promise, where the scan
// loses it; a module that can delete or run commands cannot be followed.
func jsImportCall(s *scanner, c *call) val {
	v := jsRequire(s, c)
	if s.lostModule(v) {
		s.opaque(v.name+" loaded asynchronously, where the scan cannot follow it", c.lo, c.hi)
		return val{}
	}
	return v
}

// javascriptSpec builds JavaScript's tables, on the first scan of JavaScript code.
func javascriptSpec() *langSpec {
	t := map[string]sink{}
	// The file functions of fs, by their synchronous names; each has an
	// asynchronous twin without "Sync", which fs/promises has alone.
	fsSync := map[string]sink{}
	sinks(fsSync, kRisky, onOptPath(Delete, 0, 1, "recursive"), "rmSync", "rmdirSync")
	sinks(fsSync, kRisky, onPath(Delete, false, 0, ""), "unlinkSync")
	sinks(fsSync, kFile, onPath(Read, false, 0, ""), "readFileSync")
	sinks(fsSync, kFile, onPath(Write, false, 0, ""), "writeFileSync", "appendFileSync", "truncateSync", "mkdirSync")
	sinks(fsSync, kFile, copyPaths(0, "", 1, "", false), "copyFileSync")
	sinks(fsSync, kFile, func(s *scanner, c *call) val {
		return copyPaths(0, "", 1, "", c.ref || s.flag(c, 2, "recursive"))(s, c)
	}, "cpSync")
	sinks(fsSync, kRisky, movePaths(0, "", 1, ""), "renameSync")
	sinks(fsSync, kFile, openPath(0, "", 1, "", cMode), "openSync")
	sinks(fsSync, kFile, onPath(Meta, false, 0, ""), "chmodSync", "lchmodSync", "chownSync", "lchownSync", "utimesSync", "lutimesSync")
	sinks(fsSync, kFile, linkPaths(0, 1, "", "", false), "symlinkSync")
	sinks(fsSync, kFile, linkPaths(0, 1, "", "", true), "linkSync")
	fsExtra := map[string]sink{}
	sinks(fsExtra, kRisky, onPaths(Delete, true, 0), "removeSync", "emptyDirSync", "emptydirSync")
	sinks(fsExtra, kFile, onPath(Write, false, 0, ""), "outputFileSync", "writeJsonSync", "outputJsonSync", "writeJSONSync", "ensureFileSync")
	sinks(fsExtra, kFile, onPath(Read, false, 0, ""), "readJsonSync", "readJSONSync")
	sinks(fsExtra, kRisky, movePaths(0, "", 1, ""), "moveSync")
	sinks(fsExtra, kFile, copyPaths(0, "", 1, "", true), "copySync")
	for name, k := range fsSync {
		async := strings.TrimSuffix(name, "Sync")
		t["fs."+name], t["fs."+async], t["fs.promises."+async] = k, k, k
		t["fs-extra."+name], t["fs-extra."+async] = k, k
	}
	for name, k := range fsExtra {
		t["fs-extra."+name], t["fs-extra."+strings.TrimSuffix(name, "Sync")] = k, k
	}
	sinks(t, kFile, onPath(Read, false, 0, ""), "fs.createReadStream", "fs-extra.createReadStream")
	sinks(t, kFile, onPath(Write, false, 0, ""), "fs.createWriteStream", "fs-extra.createWriteStream")
	sinks(t, kRisky, onPaths(Delete, true, 0), "rimraf", "rimraf.sync", "rimraf.rimraf", "rimraf.rimrafSync",
		"rimraf.native", "rimraf.nativeSync", "rimraf.manual", "rimraf.manualSync", "rimraf.moveRemove",
		"rimraf.moveRemoveSync", "del", "del.deleteSync", "del.deleteAsync", "del.sync")
	sinks(t, kRisky, jsShellRm, "shelljs.rm")
	sinks(t, kFile, onPaths(Read, false, 0), "shelljs.cat")
	// Commands.
	sinks(t, kRisky, shellAt(0, ""), "child_process.exec", "child_process.execSync", "shelljs.exec",
		"execa.execaCommand", "execa.execaCommandSync")
	sinks(t, kRisky, jsRun, "child_process.execFile", "child_process.execFileSync", "child_process.spawn",
		"child_process.spawnSync", "execa", "execa.execa", "execa.execaSync", "execa.execaNode")
	sinks(t, kFile, onPath(Read, false, 0, ""), "child_process.fork")
	sinks(t, kRisky, shellAt(0, ""), "Bun.$", "zx.$", "execa.$")
	sinks(t, kRisky, jsArgvField, "Bun.spawn", "Bun.spawnSync", "Deno.run")
	sinks(t, kRisky, jsDenoCommand, "Deno.Command")
	// Deno and Bun files.
	sinks(t, kRisky, onOptPath(Delete, 0, 1, "recursive"), "Deno.remove", "Deno.removeSync")
	sinks(t, kFile, onPath(Read, false, 0, ""), "Deno.readTextFile", "Deno.readTextFileSync", "Deno.readFile", "Deno.readFileSync")
	sinks(t, kFile, onPath(Write, false, 0, ""), "Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFile",
		"Deno.writeFileSync", "Deno.truncate", "Deno.truncateSync", "Deno.mkdir", "Deno.mkdirSync", "Deno.create",
		"Deno.createSync", "Bun.write")
	sinks(t, kFile, openPath(0, "", 1, "", cMode), "Deno.open", "Deno.openSync")
	sinks(t, kRisky, movePaths(0, "", 1, ""), "Deno.rename", "Deno.renameSync")
	sinks(t, kFile, copyPaths(0, "", 1, "", false), "Deno.copyFile", "Deno.copyFileSync")
	sinks(t, kFile, onPath(Meta, false, 0, ""), "Deno.chmod", "Deno.chmodSync", "Deno.chown", "Deno.chownSync")
	sinks(t, kFile, pathObject, "Bun.file")
	// Code.
	sinks(t, kRisky, evalAt(0, ""), "eval", "vm.runInThisContext", "vm.runInNewContext", "vm.runInContext",
		"vm.compileFunction", "vm.Script", "vm.SourceTextModule")
	sinks(t, kRisky, evalLast, "Function")
	sinks(t, kFile, jsTimer, "setTimeout", "setInterval", "setImmediate")
	sinks(t, kRisky, jsRequire, "require")
	sinks(t, kRisky, jsImportCall, "import")
	sinks(t, kOpaque, cannotFollow("node's internal bindings"), "process.binding", "process._linkedBinding",
		"process.dlopen", "module.constructor")

	pm := map[string]sink{}
	sinks(pm, kFile, onSubject(Read, false), "text", "json", "arrayBuffer", "bytes", "stream", "formData")
	sinks(pm, kRisky, onSubject(Delete, false), "delete", "unlink")
	sinks(pm, kFile, onSubject(Write, false), "write", "writer")

	m := map[string]sink{}
	for name, k := range fsSync {
		m[name] = k
	}
	for _, name := range []string{"removeSync", "emptyDirSync"} {
		m[name] = fsExtra[name]
	}
	for _, name := range []string{"execSync", "execFileSync", "spawnSync"} {
		m[name] = t["child_process."+name]
	}
	m["createReadStream"], m["createWriteStream"] = t["fs.createReadStream"], t["fs.createWriteStream"]
	m["require"] = t["require"]
	m["constructor"] = t["Function"] // x.constructor.constructor("code") is Function
	for _, name := range []string{"runInThisContext", "runInNewContext", "runInContext", "compileFunction"} {
		m[name] = t["vm."+name]
	}

	return (&langSpec{
		member: map[string]bool{".": true, "?.": true}, concat: "+", values: true,
		sinks: t, methods: m, pathMethods: pm,
		known: map[string]bool{"console": true, "JSON": true, "Math": true, "path": true, "os": true,
			"util": true, "crypto": true, "Buffer": true, "Object": true, "Array": true, "String": true,
			"Number": true, "Date": true, "Promise": true, "url": true, "assert": true},
		resolve:   jsResolve,
		statement: jsStatement,
	}).finish()
}
