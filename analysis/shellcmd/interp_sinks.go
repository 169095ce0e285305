package shellcmd

import "strings"

// Handlers shared by the languages' tables. Each reads its call's
// arguments by position (and, for Python, by keyword), and records what
// the call does. A mention without a call (c.ref) has arguments not
// known: every path it would touch is a path not known.

// onPath: the argument at i (or keyword kw) is a path the call does op to.
func onPath(op Op, tree bool, i int, kw string) handler {
	return func(s *scanner, c *call) val {
		if a, ok := c.argOr(i, kw); ok && !s.isFD(a) {
			s.effect(op, tree, s.word(a))
		}
		return val{}
	}
}

// isFD reports an argument that is a number: a file descriptor
// (readFileSync(0) reads stdin), not a path.
func (s *scanner) isFD(a arg) bool {
	return !a.spread && a.hi == a.lo+1 && s.toks[a.lo].kind == tNum
}

// onPaths: every positional argument from i on is a path, or a list of
// paths (unlink LIST, FileUtils.rm_rf([a, b])). An options hash is not.
func onPaths(op Op, tree bool, from int) handler {
	return func(s *scanner, c *call) val {
		for _, a := range c.positional(from) {
			if s.punctAt(a.lo) == "{" && s.toks[a.lo].match == a.hi-1 {
				continue // remove_tree('x', {verbose => 1})
			}
			if ws, _, ok := s.list(a); ok {
				for _, w := range ws {
					s.effect(op, tree, w)
				}
				continue
			}
			s.effect(op, tree, s.word(a))
		}
		return val{}
	}
}

// onOptPath: fs.rmSync(path, {recursive: true}): a delete of a tree when
// the option at position opt is true or cannot be read.
func onOptPath(op Op, i, opt int, key string) handler {
	return func(s *scanner, c *call) val {
		if a, ok := c.pos(i); ok {
			s.effect(op, c.ref || s.flag(c, opt, key), s.word(a))
		}
		return val{}
	}
}

// subjectWord is the path a path method is called on: known for a path
// object made from a literal, not known for any other receiver.
func (s *scanner) subjectWord(c *call) Word {
	if c.subject != nil {
		return *c.subject
	}
	return s.unknownWord(c.lo, c.hi)
}

// onSubject: the path object the method is called on gets op.
func onSubject(op Op, tree bool) handler {
	return func(s *scanner, c *call) val {
		s.effect(op, tree, s.subjectWord(c))
		return val{}
	}
}

// copyPaths: src is read and dst written (a whole tree when tree).
func copyPaths(src int, srcKw string, dst int, dstKw string, tree bool) handler {
	return func(s *scanner, c *call) val {
		if a, ok := c.argOr(dst, dstKw); ok {
			s.effect(Write, tree, s.word(a))
		}
		if a, ok := c.argOr(src, srcKw); ok {
			s.effect(Read, tree, s.word(a))
		}
		return val{}
	}
}

// movePaths: src is moved to dst, as mv's effects say: src taken away
// and read, dst written.
func movePaths(src int, srcKw string, dst int, dstKw string) handler {
	return func(s *scanner, c *call) val {
		var from Word
		if a, ok := c.argOr(src, srcKw); ok {
			from = s.word(a)
			s.effect(Move, true, from)
		}
		if a, ok := c.argOr(dst, dstKw); ok {
			s.effect(Write, true, s.word(a))
		}
		if from.Raw != "" || from.Known {
			s.effect(Read, true, from)
		}
		return val{}
	}
}

// moveSubject: Path("x").rename(dst).
func moveSubject(dst int, dstKw string) handler {
	return func(s *scanner, c *call) val {
		from := s.subjectWord(c)
		s.effect(Move, true, from)
		if a, ok := c.argOr(dst, dstKw); ok {
			s.effect(Write, true, s.word(a))
		}
		s.effect(Read, true, from)
		return val{}
	}
}

// linkPaths: a hard link (or symlink, when !hard) named dst to src.
func linkPaths(src, dst int, srcKw, dstKw string, hard bool) handler {
	return func(s *scanner, c *call) val {
		if a, ok := c.argOr(dst, dstKw); ok {
			s.effect(Write, false, s.word(a))
		}
		if a, ok := c.argOr(src, srcKw); ok && hard {
			s.effect(Link, false, s.word(a))
		}
		return val{}
	}
}

// openPath: open(path, mode): read, written, or both when the mode is not
// known; modeOp says what a literal mode does.
func openPath(i int, kw string, mode int, modeKw string, modeOp func(string) (read, write bool)) handler {
	return func(s *scanner, c *call) val {
		a, ok := c.argOr(i, kw)
		if !ok || s.isFD(a) {
			return val{}
		}
		read, write := true, false
		if m, ok := c.argOr(mode, modeKw); ok {
			w := s.word(m)
			read, write = true, true
			if w.Known {
				read, write = modeOp(w.Value)
			}
		}
		s.openEffects(s.word(a), read, write)
		return val{}
	}
}

func (s *scanner) openEffects(w Word, read, write bool) {
	if write {
		s.effect(Write, false, w)
	}
	if read {
		s.effect(Read, false, w)
	}
}

// cMode reads an fopen-style mode: r, w, a, x, with + for both.
func cMode(m string) (read, write bool) {
	plus := strings.Contains(m, "+")
	switch {
	case strings.ContainsAny(m, "wax"):
		return plus, true
	case strings.Contains(m, "r") || m == "" || strings.Trim(m, "bt") == "":
		return true, plus
	}
	return true, true
}

// shellAt: the argument at i (or keyword kw) is a command line for the
// shell.
func shellAt(i int, kw string) handler {
	return func(s *scanner, c *call) val {
		if a, ok := c.argOr(i, kw); ok {
			s.runShell(c.name, s.word(a))
		} else if c.ref {
			s.runShell(c.name, s.unknownWord(c.lo, c.hi))
		}
		return val{}
	}
}

// argvFrom: the positional arguments from i on are a program and its
// arguments (asyncio.create_subprocess_exec(prog, *args)).
func argvFrom(i int) handler {
	return func(s *scanner, c *call) val {
		args := c.positional(i)
		var argv []Word
		known := true
		for _, a := range args {
			w := s.word(a)
			argv = append(argv, w)
			known = known && w.Known && !a.spread
		}
		s.runArgv(c.name, argv, known)
		return val{}
	}
}

// argvList: the argument at i is a list: the program and its arguments.
func argvList(i int, kw string) handler {
	return func(s *scanner, c *call) val {
		a, ok := c.argOr(i, kw)
		if !ok {
			return val{}
		}
		ws, known, isList := s.list(a)
		if !isList {
			ws, known = nil, false
		}
		s.runArgv(c.name, ws, known)
		return val{}
	}
}

// progAndList: exec*(path, argv): the program is path, its arguments
// argv after argv[0] (which only names it).
func progAndList(prog, list int) handler {
	return func(s *scanner, c *call) val {
		p, ok := c.pos(prog)
		if !ok {
			return val{}
		}
		argv := []Word{s.word(p)}
		known := true
		if a, ok := c.pos(list); ok {
			ws, k, isList := s.list(a)
			known = known && k && isList
			if len(ws) > 0 {
				argv = append(argv, ws[1:]...)
			}
		} else {
			known = false
		}
		s.runArgv(c.name, argv, known)
		return val{}
	}
}

// evalAt: the argument at i is code, evaluated.
func evalAt(i int, kw string) handler {
	return func(s *scanner, c *call) val {
		if c.ref {
			s.handedOn(c)
			return val{}
		}
		if a, ok := c.argOr(i, kw); ok {
			s.evalCode(s.word(a), s.text(c.lo, c.hi))
		}
		return val{}
	}
}

// evalLast: the last positional argument is code (new Function(a, b, body)).
func evalLast(s *scanner, c *call) val {
	if c.ref {
		s.handedOn(c)
		return val{}
	}
	args := c.positional(0)
	if len(args) > 0 {
		s.evalCode(s.word(args[len(args)-1]), s.text(c.lo, c.hi))
	}
	return val{}
}

// loadAt: the argument at i names a module to load; its value is the
// module, under the name norm gives it. A name not known cannot be
// followed.
func loadAt(i int, kw string, norm func(string) string) handler {
	return func(s *scanner, c *call) val {
		if c.ref {
			s.handedOn(c)
			return val{}
		}
		a, ok := c.argOr(i, kw)
		if !ok {
			return val{}
		}
		w := s.word(a)
		if !w.Known {
			s.opaque("a module loaded by a name computed at run time", c.lo, c.hi)
			return val{}
		}
		name := w.Value
		if norm != nil {
			name = norm(name)
		}
		return val{kind: vName, name: name}
	}
}

// handedOn records a function that evaluates or loads code, named
// rather than called: what it will be called with is not known.
func (s *scanner) handedOn(c *call) {
	s.opaque(c.name+" named without a call, so what it runs is not known", c.lo, c.hi)
}

// cannotFollow: any use of it is a construct the scan cannot follow.
func cannotFollow(what string) handler {
	return func(s *scanner, c *call) val {
		s.opaque(what, c.lo, c.hi)
		return val{}
	}
}

// pathObject: Path("x"): a path object, its path the argument (segments
// joined: Path("a", "b") is a/b).
func pathObject(s *scanner, c *call) val {
	if c.ref {
		return val{}
	}
	args := c.positional(0)
	if len(args) == 0 {
		return val{}
	}
	w := s.word(args[0])
	for _, a := range args[1:] {
		seg := s.word(a)
		switch {
		case !w.Known || !seg.Known:
			w = Word{Raw: s.text(args[0].lo, args[len(args)-1].hi), Value: s.text(args[0].lo, args[len(args)-1].hi)}
		case strings.HasPrefix(seg.Value, "/"):
			w.Value = seg.Value
		default:
			w.Value = strings.TrimSuffix(w.Value, "/") + "/" + seg.Value
		}
	}
	return val{kind: vPath, path: &w}
}

// sinks builds a table: each name gets h, of kind k.
func sinks(t map[string]sink, k sinkKind, h handler, names ...string) {
	for _, n := range names {
		t[n] = sink{h: h, kind: k}
	}
}
