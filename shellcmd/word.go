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
func (w *walker) word(sw *syntax.Word, c ctx, dir string) Word {
	if sw == nil || len(sw.Parts) == 0 {
		return Word{Known: true}
	}
	raw := c.text(sw)
	if len(sw.Parts) == 1 {
		// Most words are one plain literal or one quoted string: no
		// builder needed.
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
	start := len(w.script.Commands)
	e := expander{w: w, c: c, dir: dir, known: true}
	for i, p := range sw.Parts {
		e.part(p, i == 0, i < len(sw.Parts)-1)
	}
	out := Word{Raw: raw, Value: e.b.String(), Known: e.known, Glob: e.glob}
	if e.brace && !out.Glob {
		out.Glob = hasBraceExp(sw)
	}
	if n := len(w.script.Commands); n > start {
		out.Inner = w.script.Commands[start:n:n]
	}
	return out
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
}

// part adds one word part; first and more say whether it starts the word
// and whether parts follow, which tilde expansion depends on.
func (e *expander) part(p syntax.WordPart, first, more bool) {
	switch x := p.(type) {
	case *syntax.Lit:
		e.lit(x.Value, first, more)
	case *syntax.SglQuoted:
		if x.Dollar {
			ansiC(&e.b, x.Value)
		} else {
			e.b.WriteString(x.Value)
		}
	case *syntax.DblQuoted:
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
		v = e.w.opts.Home
	case "+":
		v = e.dir
	}
	if v == "" { // unknown home or directory, ~- ($OLDPWD), ~user
		e.known = false
		v = s[:end]
	}
	e.b.WriteString(v)
	return end
}

// expansion adds a parameter, command, process or arithmetic expansion,
// walking the commands it runs.
func (e *expander) expansion(p syntax.WordPart, quoted bool) {
	switch x := p.(type) {
	case *syntax.ParamExp:
		e.param(x, quoted)
		return
	case *syntax.CmdSubst:
		tag := "$(...)"
		if x.Backquotes {
			tag = "`...`"
		}
		e.w.stmts(x.Stmts, e.c.sub(tag), e.dir)
	case *syntax.ProcSubst:
		tag := "<(...)"
		switch x.Op {
		case syntax.CmdOut:
			tag = ">(...)"
		case syntax.CmdInTemp:
			tag = "=(...)"
		}
		e.w.stmts(x.Stmts, e.c.sub(tag), e.dir)
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
	if p.Exp != nil {
		e.w.word(p.Exp.Word, e.c, e.dir)
	}
	if p.NestedParam != nil {
		e.w.word(&syntax.Word{Parts: []syntax.WordPart{p.NestedParam}}, e.c, e.dir)
	}
	if v := e.paramValue(p); v != "" {
		if !quoted && strings.ContainsAny(v, " \t\n*?[") {
			e.known = false // word splitting or globbing would change it
		}
		e.b.WriteString(v)
		return
	}
	e.known = false
	e.b.WriteString(e.c.text(p))
}

// paramValue returns the value of a plain $HOME or $PWD, or "".
func (e *expander) paramValue(p *syntax.ParamExp) string {
	plain := p.Param != nil && p.Flags == nil && p.NestedParam == nil &&
		!p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil && p.Repl == nil &&
		p.Names == 0 && p.Exp == nil
	if !plain {
		return ""
	}
	switch p.Param.Value {
	case "HOME":
		return e.w.opts.Home
	case "PWD":
		return e.dir
	}
	return ""
}
