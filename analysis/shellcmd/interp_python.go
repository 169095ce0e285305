package shellcmd

import (
	"strings"
	"unicode/utf8"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// Python 3: strings with every prefix (r, b, f, t and their mixes),
// triple quotes, f-string replacement fields tokenized as code (with
// 3.12's nested quotes), comments and line continuations.

var pyPrefixes = &lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"r": true, "u": true, "b": true, "f": true, "t": true,
		"br": true, "rb": true, "fr": true, "rf": true, "tr": true, "rt": true,
	}
}}

func (l *lexer) pyAtom() bool {
	c := l.src[l.i]
	switch {
	case c == '#':
		l.skipLine()
		return true
	case c == '\\' && (l.at(l.i+1, "\n") || l.at(l.i+1, "\r\n")):
		l.i++
		l.sp = true
		return true
	case c == '"' || c == '\'':
		l.pyString(l.i, "")
		return true
	case isIdentStart(c):
		start, j := l.i, l.i
		for j < len(l.src) && isIdentByte(l.src[j]) {
			j++
		}
		if j < len(l.src) && (l.src[j] == '"' || l.src[j] == '\'') && pyPrefixes.Get()[strings.ToLower(l.src[start:j])] {
			l.i = j
			l.pyString(start, l.src[start:j])
			return true
		}
		l.ident(start)
		if !asciiString(l.src[start:l.i]) {
			// Python reads names NFKC-normalized: ｅｘｅｃ is exec. The
			// scan does not normalize, so it cannot tell what such a name is.
			l.notes = append(l.notes, Opaque{What: "a name with non-ASCII letters, which Python may read as another name", Raw: l.src[start:l.i]})
		}
		return true
	}
	return false
}

func asciiString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// pyString reads a string literal whose prefix starts at start and whose
// quote is at l.i.
func (l *lexer) pyString(start int, prefix string) {
	p := strings.ToLower(prefix)
	raw := strings.Contains(p, "r")
	bytesLit := strings.Contains(p, "b")
	format := strings.ContainsAny(p, "ft")
	delim := l.src[l.i : l.i+1]
	if l.at(l.i, strings.Repeat(delim, 3)) {
		delim = strings.Repeat(delim, 3)
	}
	l.i += len(delim)
	tok := l.emit(token{kind: tStr, pos: start})
	var b strings.Builder
	known := true
	for l.i < len(l.src) {
		if l.at(l.i, delim) {
			l.i += len(delim)
			break
		}
		c := l.src[l.i]
		switch {
		case c == '\n' && len(delim) == 1:
			known = false // unterminated: a syntax error
			l.toks[tok].val, l.toks[tok].known, l.toks[tok].end = b.String(), known, l.i
			return
		case c == '\\' && l.i+1 < len(l.src):
			if raw {
				b.WriteString(l.src[l.i : l.i+2])
				l.i += 2
				continue
			}
			n, ok := pyEscape(&b, l.src, l.i+1, bytesLit)
			known = known && ok
			l.i += 1 + n
			continue
		case format && (c == '{' || c == '}'):
			if l.at(l.i+1, string(c)) {
				b.WriteByte(c)
				l.i += 2
				continue
			}
			l.i++
			if c == '{' {
				known = false
				if !l.fexpr() {
					return
				}
			}
			continue
		}
		b.WriteByte(c)
		l.i++
	}
	t := &l.toks[tok]
	t.val, t.known, t.end = b.String(), known, l.i
}

// fexpr reads an f-string replacement field after its {: the expression
// as code, a !conversion, a :format spec (whose own fields are code),
// and the closing }.
func (l *lexer) fexpr() bool {
	if !l.nested(stopFExpr) {
		return false
	}
	if l.at(l.i, "!") {
		l.i = min(l.i+2, len(l.src))
	}
	if l.at(l.i, ":") {
		l.i++
		for l.i < len(l.src) && l.src[l.i] != '}' {
			if l.src[l.i] == '{' {
				l.i++
				if !l.fexpr() {
					return false
				}
				continue
			}
			l.i++
		}
	}
	if l.at(l.i, "}") {
		l.i++
	}
	return true
}

// pyEscape decodes the escape after a backslash at s[i]: the bytes taken,
// and false for one the scan does not decode (\N{name}).
func pyEscape(b *strings.Builder, s string, i int, bytesLit bool) (int, bool) {
	c := s[i]
	switch {
	case c == '\n':
		return 1, true
	case c == '\\' || c == '\'' || c == '"':
		b.WriteByte(c)
		return 1, true
	case cEscape(b, s, i):
		return 1, true
	case c >= '0' && c <= '7':
		v, n := octRun(s, i, 3)
		if bytesLit {
			b.WriteByte(byte(v))
			return n, true
		}
		return n, writeRune(b, v)
	case c == 'x':
		v, n := hexRun(s, i+1, 2, true)
		if n == 0 {
			return 1, false
		}
		if bytesLit {
			b.WriteByte(byte(v))
			return 3, true
		}
		return 3, writeRune(b, v)
	case (c == 'u' || c == 'U') && !bytesLit:
		size := 4
		if c == 'U' {
			size = 8
		}
		v, n := hexRun(s, i+1, size, true)
		if n == 0 {
			return 1, false
		}
		return 1 + n, writeRune(b, v)
	case c == 'N' && !bytesLit:
		if j := strings.IndexByte(s[i:], '}'); j > 0 {
			return j + 1, false
		}
		return 1, false
	}
	b.WriteByte('\\') // an unknown escape keeps its backslash
	b.WriteByte(c)
	return 1, true
}

// pyStatement reads import statements (recording what they bind) and
// the name after def and class (a definition, not a call).
func pyStatement(s *scanner, i int) int {
	t := &s.toks[i]
	if t.kind != tIdent {
		return i
	}
	switch t.text {
	case "def", "class":
		if i+1 < len(s.toks) && s.toks[i+1].kind == tIdent {
			s.done[i+1] = true
			return i + 2
		}
	case "import":
		return pyImport(s, i+1, "")
	case "from":
		j := i + 1
		mod, j := dottedName(s, j)
		if mod == "" || j >= len(s.toks) || s.toks[j].text != "import" {
			return i
		}
		return pyImport(s, j+1, mod)
	}
	return i
}

// pyImport reads the names after import (from mod): a, b.c as d, (x as
// y), *. It returns the index after the statement.
func pyImport(s *scanner, j int, from string) int {
	if j < len(s.toks) && s.punctAt(j) == "(" {
		j++
	}
	for j < len(s.toks) {
		if s.punctAt(j) == "*" && from != "" {
			// Every function of the module becomes a bare name.
			for name := range s.spec.sinks {
				if rest, ok := strings.CutPrefix(name, from+"."); ok && !strings.Contains(rest, ".") {
					s.alias[rest] = val{kind: vName, name: name}
				}
			}
			j++
		} else {
			name, k := dottedName(s, j)
			if name == "" {
				break
			}
			j = k
			bound, full := name, name
			if from != "" {
				full = from + "." + name
			}
			if j+1 < len(s.toks) && s.toks[j].text == "as" && s.toks[j].kind == tIdent {
				bound = s.toks[j+1].text
				j += 2
			} else if from == "" {
				bound, _, _ = strings.Cut(name, ".")
				full = bound // import a.b binds a
			}
			if bound != full {
				s.alias[bound] = s.resolve(full)
			} else {
				delete(s.alias, bound)
			}
		}
		if s.punctAt(j) != "," {
			break
		}
		j++
	}
	if s.punctAt(j) == ")" {
		j++
	}
	return j
}

// dottedName reads a.b.c at j.
func dottedName(s *scanner, j int) (string, int) {
	if j >= len(s.toks) || s.toks[j].kind != tIdent {
		return "", j
	}
	name := s.toks[j].text
	j++
	for j+1 < len(s.toks) && s.punctAt(j) == "." && s.toks[j+1].kind == tIdent {
		name += "." + s.toks[j+1].text
		j += 2
	}
	return name, j
}

// pyResolve: __builtins__ is builtins, and posix and nt are os.
func pyResolve(name string) string {
	root, rest, dotted := strings.Cut(name, ".")
	switch root {
	case "__builtins__":
		root = "builtins"
	case "posix", "nt":
		root = "os"
	default:
		return name
	}
	if dotted {
		return root + "." + rest
	}
	return root
}

// pySubprocess: subprocess.run and its kin take a list (argv) or a
// string: with shell=True a command line, without it a program's name.
func pySubprocess(s *scanner, c *call) val {
	a, ok := c.argOr(0, "args")
	if !ok {
		if c.ref {
			s.runArgv(c.name, nil, false)
		}
		return val{}
	}
	shell := false
	if k, ok := c.kwArg("shell"); ok {
		v, known := s.boolArg(k)
		shell = v || !known
	}
	if a.spread {
		s.runArgv(c.name, nil, false)
		return val{}
	}
	if ws, known, isList := s.list(a); isList {
		if shell && len(ws) > 0 {
			// Popen(["cmd", "x"], shell=True) runs sh -c cmd x.
			s.runShell(c.name, Word{Raw: ws[0].Raw, Value: ws[0].Value, Known: ws[0].Known && known})
			return val{}
		}
		s.runArgv(c.name, ws, known)
		return val{}
	}
	w := s.word(a)
	if shell {
		s.runShell(c.name, w)
	} else {
		s.runArgv(c.name, []Word{w}, w.Known)
	}
	return val{}
}

// pyExecl: os.execl(path, arg0, arg1, ...); os.execle ends with env.
// skip is how many arguments come before path (spawnl's mode).
func pyExecl(skip int, env bool) handler {
	return func(s *scanner, c *call) val {
		args := c.positional(skip)
		if len(args) == 0 {
			s.runArgv(c.name, nil, false)
			return val{}
		}
		argv := []Word{s.word(args[0])}
		known := !args[0].spread
		rest := args[1:]
		if len(rest) > 0 {
			rest = rest[1:] // arg0 names the program
		}
		if env && len(rest) > 0 {
			rest = rest[:len(rest)-1]
		}
		for _, a := range rest {
			w := s.word(a)
			argv = append(argv, w)
			known = known && !a.spread
		}
		s.runArgv(c.name, argv, known)
		return val{}
	}
}

// pyOsOpen: os.open(path, flags): written when the flags name a writing
// mode or are not a plain read.
func pyOsOpen(s *scanner, c *call) val {
	a, ok := c.argOr(0, "path")
	if !ok {
		return val{}
	}
	read, write := true, true
	if f, ok := c.argOr(1, "flags"); ok && !f.spread {
		write = false
		for k := f.lo; k < f.hi && s.budget.take(1); k++ {
			switch s.toks[k].text {
			case "O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND":
				write = true
			}
		}
		read = !s.hasText(f, "O_WRONLY")
	}
	s.openEffects(s.word(a), read, write)
	return val{}
}

func (s *scanner) hasText(a arg, text string) bool {
	for k := a.lo; k < a.hi && s.budget.take(1); k++ {
		if s.toks[k].text == text {
			return true
		}
	}
	return false
}

// pythonSpec builds Python's tables, on the first scan of Python code.
func pythonSpec() *langSpec {
	t := map[string]sink{}
	// Deletes.
	sinks(t, kRisky, onPath(Delete, false, 0, "path"), "os.remove", "os.unlink", "os.rmdir")
	sinks(t, kRisky, onPath(Delete, false, 0, "name"), "os.removedirs")
	sinks(t, kRisky, onPath(Delete, true, 0, "path"), "shutil.rmtree")
	sinks(t, kRisky, onPaths(Delete, true, 0), "send2trash.send2trash", "send2trash")
	// Moves, copies, links, modes.
	sinks(t, kRisky, movePaths(0, "src", 1, "dst"), "os.rename", "os.replace", "os.renames", "shutil.move")
	sinks(t, kFile, copyPaths(0, "src", 1, "dst", false), "shutil.copy", "shutil.copy2", "shutil.copyfile")
	sinks(t, kFile, copyPaths(0, "src", 1, "dst", true), "shutil.copytree")
	sinks(t, kFile, linkPaths(0, 1, "src", "dst", false), "os.symlink")
	sinks(t, kFile, linkPaths(0, 1, "src", "dst", true), "os.link")
	sinks(t, kFile, onPath(Meta, false, 0, "path"), "os.chmod", "os.lchmod", "os.chown", "os.lchown", "os.utime", "shutil.chown")
	sinks(t, kFile, onPath(Write, false, 0, "path"), "os.truncate", "os.mkdir", "os.makedirs", "os.mkfifo")
	// Reads and writes.
	sinks(t, kFile, openPath(0, "file", 1, "mode", cMode), "open", "io.open", "codecs.open")
	sinks(t, kFile, pyOsOpen, "os.open")
	sinks(t, kFile, onPath(Read, false, 0, "filename"), "linecache.getline", "linecache.getlines")
	sinks(t, kFile, onPaths(Read, false, 0), "fileinput.input")
	sinks(t, kFile, onPath(Read, false, 0, "path_name"), "runpy.run_path")
	sinks(t, kFile, pathObject, "pathlib.Path", "pathlib.PosixPath", "pathlib.PurePath", "pathlib.PurePosixPath",
		"pathlib.WindowsPath", "Path", "PosixPath")
	// Commands.
	sinks(t, kRisky, shellAt(0, "command"), "os.system")
	sinks(t, kRisky, shellAt(0, "cmd"), "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput",
		"commands.getoutput", "commands.getstatusoutput", "asyncio.create_subprocess_shell")
	sinks(t, kRisky, pySubprocess, "subprocess.run", "subprocess.call", "subprocess.check_call",
		"subprocess.check_output", "subprocess.Popen")
	sinks(t, kRisky, progAndList(0, 1), "os.execv", "os.execve", "os.execvp", "os.execvpe",
		"os.posix_spawn", "os.posix_spawnp")
	sinks(t, kRisky, progAndList(1, 2), "os.spawnv", "os.spawnve", "os.spawnvp", "os.spawnvpe")
	sinks(t, kRisky, pyExecl(0, false), "os.execl", "os.execlp")
	sinks(t, kRisky, pyExecl(0, true), "os.execle", "os.execlpe")
	sinks(t, kRisky, pyExecl(1, false), "os.spawnl", "os.spawnlp")
	sinks(t, kRisky, pyExecl(1, true), "os.spawnle", "os.spawnlpe")
	sinks(t, kRisky, argvFrom(0), "asyncio.create_subprocess_exec")
	sinks(t, kRisky, func(s *scanner, c *call) val {
		if a, ok := c.argOr(0, "argv"); ok {
			if _, _, isList := s.list(a); !isList {
				w := s.word(a)
				s.runArgv(c.name, []Word{w}, w.Known)
				return val{}
			}
		}
		return argvList(0, "argv")(s, c)
	}, "pty.spawn")
	// Code.
	sinks(t, kRisky, evalAt(0, "source"), "exec", "eval", "compile")
	sinks(t, kRisky, loadAt(0, "name", nil), "__import__", "importlib.import_module", "importlib.__import__")
	sinks(t, kRisky, loadAt(0, "mod_name", nil), "runpy.run_module")
	sinks(t, kOpaque, cannotFollow("C functions called through ctypes"), "ctypes.CDLL", "ctypes.cdll",
		"ctypes.PyDLL", "ctypes.pydll", "ctypes.pythonapi", "ctypes.LibraryLoader", "ctypes.util.find_library")
	sinks(t, kOpaque, cannotFollow("a module taken from sys.modules"), "sys.modules")
	for _, b := range []string{"exec", "eval", "compile", "open", "__import__"} {
		t["builtins."+b] = t[b]
	}

	// Path objects and the methods only they have.
	pm := map[string]sink{}
	sinks(pm, kRisky, onSubject(Delete, false), "unlink", "rmdir")
	sinks(pm, kFile, onSubject(Read, false), "read_text", "read_bytes")
	sinks(pm, kFile, onSubject(Write, false), "write_text", "write_bytes", "touch", "mkdir", "symlink_to")
	sinks(pm, kFile, onSubject(Meta, false), "chmod", "lchmod")
	sinks(pm, kRisky, moveSubject(0, "target"), "rename", "replace")
	sinks(pm, kFile, func(s *scanner, c *call) val {
		s.effect(Write, false, s.subjectWord(c))
		if a, ok := c.argOr(0, "target"); ok {
			s.effect(Link, false, s.word(a))
		}
		return val{}
	}, "hardlink_to")
	sinks(pm, kFile, func(s *scanner, c *call) val {
		w := s.subjectWord(c)
		read, write := true, false
		if m, ok := c.argOr(0, "mode"); ok {
			mw := s.word(m)
			read, write = true, true
			if mw.Known {
				read, write = cMode(mw.Value)
			}
		}
		s.openEffects(w, read, write)
		return val{}
	}, "open")

	// Methods known by name on any receiver: an alias the scan lost
	// (a, b = os, shutil is caught as a lost module; this catches the
	// rest), ctypes' libc.system.
	m := map[string]sink{}
	for _, n := range []string{"unlink", "rmdir", "read_text", "read_bytes", "write_text", "write_bytes",
		"symlink_to", "hardlink_to"} {
		m[n] = pm[n]
	}
	for _, n := range []string{"system", "popen", "removedirs", "rmtree", "getoutput", "getstatusoutput",
		"check_output", "check_call", "Popen", "execv", "execve", "execvp", "execvpe", "execl", "execlp",
		"execle", "execlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnlp", "spawnle",
		"spawnlpe", "posix_spawn", "posix_spawnp", "send2trash", "import_module"} {
		for _, mod := range []string{"os.", "shutil.", "subprocess.", "send2trash.", "importlib."} {
			if k, ok := t[mod+n]; ok {
				m[n] = k
			}
		}
	}

	return (&langSpec{
		member: map[string]bool{".": true}, concat: "+", adjacent: true, values: true,
		sinks: t, methods: m, pathMethods: pm,
		known: map[string]bool{"platform": true, "sys": true, "json": true, "re": true, "math": true,
			"time": true, "datetime": true, "string": true, "random": true, "itertools": true,
			"collections": true, "functools": true, "hashlib": true, "base64": true, "csv": true},
		resolve:   pyResolve,
		statement: pyStatement,
		attrs: map[string]string{
			"__globals__": "a function's globals", "__subclasses__": "the class tree",
			"__builtins__": "the builtins", "__getattribute__": "attribute lookup by name",
			"__code__": "a function's code", "__closure__": "a function's closure",
			"__loader__": "a module's loader", "__import__": "the import function",
		},
	}).finish()
}
