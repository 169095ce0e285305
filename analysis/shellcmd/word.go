package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one word of a command as the program would receive it.
type Word struct {
	Raw string // source text
	// Value is the value the program receives: quotes removed; ~, ~/x,
	// $HOME, ${HOME}, $PWD, ${PWD} expanded from Options and the tracked
	// directory. Parts that cannot be known keep their source text
	// ("$FOO/x").
	Value string
	// Known reports that Value is exactly what the program receives: no
	// unknown parameter, command, process or arithmetic substitution, and
	// no known expansion that word splitting would cut apart.
	Known bool
	// Glob reports unquoted glob characters (* ? [...], extended globs) or
	// a brace expansion ({a,b}, {1..3}): Value is the pattern, and the
	// program may receive other words, or several.
	Glob bool
	// Temp reports a word that is not Known but is a path at or below a
	// fresh file or directory that mktemp made earlier in the line: its
	// random name is the unknown part, and the rest adds no "..", no glob
	// and no trailing slash, so it cannot lead anywhere else.
	Temp bool
	// proc is the output of the process substitution the word is, when
	// it is one: the text a shell or source reads from it.
	proc *stream
	// spliced marks a word that holds input of xargs or parallel: data a
	// shell must not take as code, whatever the data is.
	spliced bool
	// Below marks find's {} with no -name to narrow it: the path stands
	// for the starting point and anything below it, so what a command
	// does to it, it does to the whole tree (find ~ -type f -exec cat {}).
	Below bool
	// Inner lists the commands run by substitutions inside this word
	// ($(...), `...`, <(...), >(...)). They are in Script.Commands too.
	Inner []*Command
}

// IsFlag reports whether the word is known to start with "-" (and is not
// "-" alone, which programs read as stdin).
func (w Word) IsFlag() bool {
	return w.Known && len(w.Value) > 1 && w.Value[0] == '-'
}

// word expands sw the way the shell would, as far as that is possible
// without running anything, and walks the commands of its substitutions.
// It is one word: where the shell would split an expansion's value, the
// word is not known (see fields).
func (w *walker) word(sw *syntax.Word, c ctx, dir string) Word {
	if sw == nil || len(sw.Parts) == 0 {
		return Word{Known: true}
	}
	if len(sw.Parts) == 1 {
		// Most words are one plain literal or one quoted string: no
		// builder needed.
		raw := c.text(sw)
		switch p := sw.Parts[0].(type) {
		case *syntax.Lit:
			if !strings.ContainsAny(p.Value, `\*?[{~`) {
				return Word{Raw: raw, Value: p.Value, Known: true}
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return Word{Raw: raw, Value: p.Value, Known: true}
			}
		case *syntax.DblQuoted:
			if len(p.Parts) == 1 {
				if l, ok := p.Parts[0].(*syntax.Lit); ok && !strings.Contains(l.Value, `\`) {
					return Word{Raw: raw, Value: l.Value, Known: true}
				}
			}
		}
	}
	return w.expand(sw, c, dir, false)[0]
}

// fields expands sw into the words a command receives: an unquoted
// expansion whose value is known is split at blanks (and a word of only
// empty unquoted expansions is dropped), as the shell does with the
// default IFS.
func (w *walker) fields(sw *syntax.Word, c ctx, dir string) []Word {
	if sw == nil || len(sw.Parts) == 0 {
		return []Word{{Known: true}}
	}
	if w.mayBrace(sw) {
		if words, expands, ok := braceWords(sw); expands {
			raw := c.text(sw)
			if !ok {
				// Too many words, or a sequence bash leaves alone: the
				// command's operands are not known.
				return []Word{{Raw: raw, Value: raw}}
			}
			var out []Word
			for _, bw := range words {
				if len(bw.Parts) == 0 {
					continue // an empty element of an unquoted brace is no word
				}
				for _, f := range w.expand(bw, c, dir, true) {
					f.Raw = braceRaw(c, bw)
					out = append(out, f)
				}
			}
			return out
		}
	}
	if len(sw.Parts) == 1 {
		if _, ok := sw.Parts[0].(*syntax.ParamExp); !ok {
			if _, ok := sw.Parts[0].(*syntax.CmdSubst); !ok {
				return []Word{w.word(sw, c, dir)}
			}
		}
	}
	return w.expand(sw, c, dir, true)
}

// expand expands sw; with split, into its fields.
func (w *walker) expand(sw *syntax.Word, c ctx, dir string, split bool) []Word {
	raw := c.text(sw)
	start := len(w.script.Commands)
	e := expander{w: w, c: c, dir: dir, known: true, split: split, ifs: " \t\n"}
	if w.assigned["IFS"] {
		// The line sets IFS: values split where its value says, or, when
		// that is not known, are not known themselves.
		ifs, set := w.lookup("IFS")
		switch {
		case !set:
		case ifs.Known:
			e.ifs = ifs.Value
		default:
			e.ifs, e.ifsUnknown = "", true
		}
	}
	for i, p := range sw.Parts {
		e.part(p, i == 0, i < len(sw.Parts)-1)
	}
	var inner []*Command
	if n := len(w.script.Commands); n > start {
		inner = w.script.Commands[start:n:n]
	}
	if len(e.done) > 0 || (e.split && e.dropped && e.b.Len() == 0 && !e.quoted) {
		// Split: each field is a word of its own, known as the whole was.
		vals := e.done
		if e.b.Len() > 0 || e.quoted {
			vals = append(vals, e.b.String())
		}
		out := make([]Word, 0, len(vals))
		for _, v := range vals {
			v, known := e.pattern(v)
			out = append(out, Word{Raw: raw, Value: v, Known: known, Glob: e.glob, Inner: inner})
		}
		return out
	}
	v, known := e.pattern(e.b.String())
	out := Word{Raw: raw, Value: v, Known: known, Glob: e.glob, Inner: inner, proc: e.proc}
	if e.brace && !out.Glob {
		out.Glob = hasBraceExp(sw)
	}
	if e.temp && !e.known && tempRest(e.b.String()[e.tempEnd:]) {
		out.Temp = true
	}
	if e.parts > 1 {
		out.proc = nil
	}
	return []Word{out}
}

// tempRest reports whether what follows a mktemp name keeps the path at
// or below it: nothing, or /name/name without "..", globs or a trailing
// slash (which would follow a link put there).
func tempRest(rest string) bool {
	if rest == "" {
		return true
	}
	if rest[0] != '/' || strings.HasSuffix(rest, "/") || strings.ContainsAny(rest, "*?[{\\") {
		return false
	}
	for _, el := range strings.Split(rest[1:], "/") {
		if el == ".." || el == "" {
			return false
		}
	}
	return true
}

// braceRaw is the text of one word brace expansion gave: its literals
// as they are, its other parts as written.
func braceRaw(c ctx, bw *syntax.Word) string {
	var b strings.Builder
	for _, p := range bw.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		} else {
			b.WriteString(c.text(p))
		}
	}
	return b.String()
}

// mayBrace reports whether sw has an unquoted { that brace expansion
// could start at, cheaply, before the parser's brace splitting is asked.
func (w *walker) mayBrace(sw *syntax.Word) bool {
	for _, p := range sw.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

// hasBraceExp reports whether bash would brace-expand sw. SplitBraces
// rewrites the word it is given, so it gets a copy.
func hasBraceExp(sw *syntax.Word) bool {
	tmp := syntax.Word{Parts: sw.Parts}
	syntax.SplitBraces(&tmp)
	for _, p := range tmp.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			return true
		}
	}
	return false
}

// pattern is v as Go matches it when the word is a glob (see goGlob), and
// whether it is known: a glob Go cannot match as bash does is not.
func (e *expander) pattern(v string) (string, bool) {
	if !e.glob || !e.known {
		return v, e.known
	}
	return goGlob(v)
}

// expander accumulates the value of one word.
type expander struct {
	w     *walker
	c     ctx
	dir   string
	b     strings.Builder
	known bool
	glob  bool
	open  bool // an unquoted [ waits for the ] that makes it a glob
	brace bool // an unquoted { was seen: the word may brace-expand
	// split: unquoted known values are split into fields (done holds
	// those finished); dropped notes an empty unquoted expansion, quoted
	// any quoted part (which keeps an empty word).
	split bool
	ifs   string // the characters values split at: IFS
	// ifsUnknown: the line sets IFS to a value not known, so where an
	// unquoted value splits is not known.
	ifsUnknown bool
	done       []string
	dropped    bool
	quoted     bool
	// temp: the word began with a mktemp name, which ends at tempEnd.
	temp    bool
	tempEnd int
	parts   int
	proc    *stream // the output of the process substitution the word is
}

// part adds one word part; first and more say whether it starts the word
// and whether parts follow, which tilde expansion depends on.
func (e *expander) part(p syntax.WordPart, first, more bool) {
	e.parts++
	switch x := p.(type) {
	case *syntax.Lit:
		e.lit(x.Value, first, more)
	case *syntax.SglQuoted:
		e.quoted = true
		if x.Dollar {
			ansiC(&e.b, x.Value)
		} else {
			e.b.WriteString(x.Value)
		}
	case *syntax.DblQuoted:
		e.quoted = true
		for _, q := range x.Parts {
			if l, ok := q.(*syntax.Lit); ok {
				dqUnescape(&e.b, l.Value)
			} else {
				e.expansion(q, true)
			}
		}
	default:
		e.expansion(p, false)
	}
}

// value adds the value of an expansion: v, as the shell would put it in
// the word (quoted or not), or its source text when it is not known. A
// mktemp name at the start of the word starts a Temp word.
func (e *expander) value(v Word, quoted bool, src string) {
	if !v.Known {
		e.temp = v.Temp && e.known && e.parts == 1 && e.b.Len() == 0
		e.known = false
		e.b.WriteString(src)
		e.tempEnd = e.b.Len()
		return
	}
	if !e.w.expandBytes(len(v.Value)) {
		e.known = false
		return
	}
	if quoted {
		e.b.WriteString(v.Value)
		return
	}
	if strings.ContainsAny(v.Value, "*?[") {
		e.glob = true
	}
	if e.ifsUnknown && v.Value != "" {
		e.known = false // where it splits is not known
		e.b.WriteString(v.Value)
		return
	}
	if !strings.ContainsAny(v.Value, e.ifs) {
		if v.Value == "" {
			e.dropped = true
		}
		e.b.WriteString(v.Value)
		return
	}
	if !e.split {
		e.known = false // word splitting would change it
		e.b.WriteString(v.Value)
		return
	}
	fs := strings.FieldsFunc(v.Value, func(r rune) bool { return strings.ContainsRune(e.ifs, r) })
	if len(fs) == 0 {
		e.dropped = true
		if e.b.Len() > 0 || e.quoted {
			e.done = append(e.done, e.b.String())
			e.b.Reset()
		}
		return
	}
	lead := strings.IndexAny(v.Value[:1], e.ifs) == 0
	trail := strings.IndexAny(v.Value[len(v.Value)-1:], e.ifs) == 0
	for i, f := range fs {
		if i > 0 || (lead && (e.b.Len() > 0 || e.quoted)) {
			if i > 0 || e.b.Len() > 0 || e.quoted {
				e.done = append(e.done, e.b.String())
			}
			e.b.Reset()
			e.quoted = false
		}
		e.b.WriteString(f)
	}
	if trail {
		e.done = append(e.done, e.b.String())
		e.b.Reset()
		e.quoted = false
	}
}

// lit adds unquoted literal text: backslashes quote the next character,
// glob characters make a pattern, and a leading ~ (or one after = or : in a
// word that looks like an assignment, as bash does for arguments) expands.
func (e *expander) lit(s string, first, more bool) {
	eq := -1
	if first {
		if i := strings.IndexByte(s, '='); i > 0 && syntax.ValidName(s[:i]) {
			eq = i
		}
	}
	for i := 0; i < len(s); {
		ch := s[i]
		if ch == '~' && first && (i == 0 || (eq >= 0 && (i == eq+1 || s[i-1] == ':'))) {
			if n := e.tilde(s[i:], more, eq >= 0); n > 0 {
				i += n
				continue
			}
		}
		switch ch {
		case '\\':
			if i+1 < len(s) {
				e.b.WriteByte(s[i+1])
				i += 2
				continue
			}
		case '*', '?':
			e.glob = true
		case '[':
			e.open = true
		case ']':
			e.glob = e.glob || e.open
		case '{':
			e.brace = true
		}
		e.b.WriteByte(ch)
		i++
	}
}

// tilde expands the tilde-prefix at the start of s and returns how many
// bytes it took, or 0 when bash would leave it alone. The prefix runs to
// the first slash (or colon, in an assignment); if it runs into a quoted or
// expanded part of the word, it is not expanded.
func (e *expander) tilde(s string, more, assign bool) int {
	end := len(s)
	for i := 1; i < len(s); i++ {
		if s[i] == '/' || (assign && s[i] == ':') {
			end = i
			break
		}
	}
	if end == len(s) && more {
		return 0
	}
	prefix := s[1:end]
	if strings.IndexByte(prefix, '\\') >= 0 {
		return 0
	}
	var v string
	switch prefix {
	case "":
		if h, _ := e.w.lookup("HOME"); h.Known {
			v = h.Value
		}
	case "+":
		v = e.dir
	default:
		if home, exists, ok := e.w.userHome(prefix); ok && !exists {
			return 0 // no such user: bash leaves the word as it is
		} else if ok {
			v = home
		}
	}
	if v == "" { // unknown home or directory, ~- ($OLDPWD), ~N, a user not looked up
		e.known = false
		v = s[:end]
	}
	e.b.WriteString(v)
	return end
}

// substOK says whether one more substitution may nest here; past
// maxSubst the walk is refused, and the word is unknown.
func (e *expander) substOK() bool {
	if e.c.substs >= maxSubst {
		e.w.refuse("it nests command substitutions more than %d deep", maxSubst)
	}
	if e.w.err != nil {
		e.known = false
		return false
	}
	return true
}

// expansion adds a parameter, command, process or arithmetic expansion,
// walking the commands it runs.
func (e *expander) expansion(p syntax.WordPart, quoted bool) {
	switch x := p.(type) {
	case *syntax.ParamExp:
		e.param(x, quoted)
		return
	case *syntax.CmdSubst:
		if !e.substOK() {
			return
		}
		tag := "$(...)"
		if x.Backquotes {
			tag = "`...`"
		}
		out := e.w.subshell(x.Stmts, e.c.sub(tag, newStream()), e.dir)
		v := out.word("")
		if v.Known {
			v.Value = strings.TrimRight(v.Value, "\n")
		}
		e.value(v, quoted, e.c.text(p))
		return
	case *syntax.ProcSubst:
		if !e.substOK() {
			return
		}
		tag := "<(...)"
		switch x.Op {
		case syntax.CmdOut:
			tag = ">(...)"
		case syntax.CmdInTemp:
			tag = "=(...)"
		}
		out := newStream()
		e.w.subshell(x.Stmts, e.c.sub(tag, out), e.dir)
		if x.Op != syntax.CmdOut {
			e.proc = out
		}
	case *syntax.ArithmExp:
		e.w.arith(x.X, e.c, e.dir)
	case *syntax.ExtGlob:
		e.glob = true
		e.b.WriteString(e.c.text(x))
		return
	}
	e.known = false
	e.b.WriteString(e.c.text(p))
}

// param adds a parameter expansion. Only $HOME and $PWD have a value we
// know; the words nested in any expansion (${x:-$(cmd)}) are walked for
// the commands they may run.
func (e *expander) param(p *syntax.ParamExp, quoted bool) {
	e.w.arith(p.Index, e.c, e.dir)
	if p.Slice != nil {
		e.w.arith(p.Slice.Offset, e.c, e.dir)
		e.w.arith(p.Slice.Length, e.c, e.dir)
	}
	if p.Repl != nil {
		e.w.word(p.Repl.Orig, e.c, e.dir)
		e.w.word(p.Repl.With, e.c, e.dir)
	}
	var alt Word
	if p.Exp != nil {
		alt = e.w.word(p.Exp.Word, e.c, e.dir)
	}
	if p.NestedParam != nil {
		e.w.word(&syntax.Word{Parts: []syntax.WordPart{p.NestedParam}}, e.c, e.dir)
	}
	e.value(e.paramValue(p, alt), quoted, e.c.text(p))
}

// paramValue returns the value of $NAME, ${NAME}, or of ${NAME:-alt} and
// the like given alt: Known false when it is not known.
func (e *expander) paramValue(p *syntax.ParamExp, alt Word) Word {
	plain := p.Param != nil && p.Flags == nil && p.NestedParam == nil &&
		!p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil && p.Repl == nil &&
		p.Names == 0
	if !plain || !syntax.ValidName(p.Param.Value) {
		return Word{}
	}
	name := p.Param.Value
	var v Word
	set := true
	if _, tracked := e.w.vars[name]; name == "PWD" && !tracked && !e.w.assigned[name] {
		v = Word{Value: e.dir, Known: e.dir != ""}
	} else {
		v, set = e.w.lookup(name)
	}
	if p.Exp == nil {
		return v
	}
	if !v.Known && !(v.Temp && isDefaultOp(p.Exp.Op)) {
		return Word{}
	}
	empty := !set || (v.Known && v.Value == "")
	unset := !set
	alt.Glob, alt.Raw, alt.Inner = false, "", nil
	switch p.Exp.Op {
	case syntax.DefaultUnsetOrNull, syntax.ErrorUnsetOrNull:
		if empty {
			return alt
		}
	case syntax.DefaultUnset, syntax.ErrorUnset:
		if unset {
			return alt
		}
	case syntax.AssignUnsetOrNull:
		if empty {
			e.w.setVar(name, alt)
			return alt
		}
	case syntax.AssignUnset:
		if unset {
			e.w.setVar(name, alt)
			return alt
		}
	case syntax.AlternateUnsetOrNull:
		if empty {
			return Word{Known: true}
		}
		return alt
	case syntax.AlternateUnset:
		if unset {
			return Word{Known: true}
		}
		return alt
	default:
		return Word{}
	}
	return v
}

// isDefaultOp reports the expansions that give the value itself when it
// is set and not empty (a mktemp name always is).
func isDefaultOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnsetOrNull, syntax.DefaultUnset, syntax.ErrorUnsetOrNull, syntax.ErrorUnset,
		syntax.AssignUnsetOrNull, syntax.AssignUnset:
		return true
	}
	return false
}

// userHome is the home directory of the user named in ~user, as bash
// looks it up; exists false when there is no such user. ok is false when
// it cannot be told (no look-up given, a name bash reads otherwise: ~-,
// ~2).
func (w *walker) userHome(name string) (home string, exists, ok bool) {
	if w.opts.UserHome == nil || name == "" || name == "-" || name[0] >= '0' && name[0] <= '9' || name[0] == '+' || name[0] == '-' {
		return "", false, false
	}
	home, exists, err := w.opts.UserHome(name)
	if err != nil || exists && home == "" {
		return "", false, false
	}
	return home, exists, true
}

// extGlobRuns reports whether the inside of an extended glob, @(...),
// *(...), which the parser keeps as plain text, may run something: bash
// expands a $(...), ${...}, `...`, <(...) or >(...) in it (in [[ ]]
// extended globs are always on), and zsh reads a (...) after a glob
// (afterGlob) as qualifiers, of which e with any delimiter and +function
// run code in the shell. Only a | outside quotes and inner groups makes
// the group an alternation to zsh rather than qualifiers.
func extGlobRuns(inner string, afterGlob bool) bool {
	if strings.ContainsAny(inner, "$`") || strings.Contains(inner, "<(") || strings.Contains(inner, ">(") {
		return true
	}
	return afterGlob && !topLevelBar(inner) && strings.ContainsAny(inner, "e+")
}

// topLevelBar reports whether s holds a | outside quotes, backslash
// escapes and parentheses.
func topLevelBar(s string) bool {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			return true
		}
	}
	return false
}
