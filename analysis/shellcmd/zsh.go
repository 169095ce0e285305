package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zshExpansions is why f, code that zsh runs, is refused: it uses one of
// zsh's expansions that take a value apart or run it in ways the walk does
// not follow; "" when it uses none. Each read .env unseen:
//   - $~name, $=name and $^name (each flag possibly doubled, or several),
//     which bash's grammar keeps as text: $= splits the value even inside
//     double quotes, $~ makes it a glob in zsh's own syntax, whose
//     qualifiers run code (v='/(e:cat .env:)'; : $~v), a split word after
//     < opens every file it names, and $^ spreads an array;
//   - a name with a non-ASCII letter, which zsh reads as a parameter;
//   - the same in braces, and the (e) flag, which runs the value as code,
//     where zsh's grammar reads them (zsh -c '${(e)v}').
//
// Subscripts and modifiers on a parameter written without braces
// ($v[1,4], $v:r) are values built at run time, as bash's ${v:0:4} is:
// the walk does not compute them (SECURITY.md).
func zshExpansions(f *syntax.File) (why string) {
	const refused = "it uses zsh's $~, $= or $^ expansion, a name zsh reads and bash does not ($é), or zsh's (e) flag, which the guards do not follow; write $name"
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			if flaggedIn(n.Parts) {
				why = refused
			}
		case *syntax.DblQuoted:
			if flaggedIn(n.Parts) {
				why = refused
			}
		case *syntax.ParamExp:
			if n.Split != syntax.OptUnset || n.GlobSubst != syntax.OptUnset || n.RcExpand != syntax.OptUnset ||
				n.Flags != nil && strings.ContainsRune(n.Flags.Value, 'e') {
				why = refused
			}
		}
		return why == ""
	})
	return why
}

// emulateRuns reports whether the arguments of zsh's emulate give it code
// to run (-c, alone or among other letters: it runs the code as eval
// does, in another shell's mode, as in emulate sh -o globdots -c 'cat *'),
// or may (a word not known). The walk, which sees the words as the shell
// expands them (builtin emulate, 'emulate', $e), refuses such a line where
// zsh may run it.
func emulateRuns(args []Word) bool {
	for _, a := range args {
		v := a.Value
		if !a.Known || len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsRune(v, 'c') {
			return true
		}
	}
	return false
}

// flaggedIn reports whether the literal text of parts holds a flagged
// expansion. The parser ends a literal at a $ it does not expand ($~v is
// the literals "$" and "~v"), so literals that follow each other are read
// as one.
func flaggedIn(parts []syntax.WordPart) bool {
	var text strings.Builder
	for i, p := range parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			if flagged(text.String()) {
				return true
			}
			text.Reset()
			continue
		}
		if i > 0 && !adjacent(parts[i-1], l) {
			if flagged(text.String()) {
				return true
			}
			text.Reset()
		}
		text.WriteString(l.Value)
	}
	return flagged(text.String())
}

// adjacent reports whether l starts where prev ends in the source.
func adjacent(prev syntax.WordPart, l *syntax.Lit) bool {
	return prev.End().Offset() == l.Pos().Offset()
}

// flagged reports whether v holds an unescaped $ followed by zsh's flags
// (~, =, ^) and a parameter (a name, a digit, or a brace), or by a
// non-ASCII letter, which zsh takes into a name (é=.env; cat $é) and
// bash's grammar does not.
func flagged(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' {
			i++ // an escaped character, $ included
			continue
		}
		if v[i] != '$' {
			continue
		}
		j := i + 1
		if j < len(v) && v[j] >= 0x80 {
			return true
		}
		for j < len(v) && strings.IndexByte("~=^", v[j]) >= 0 {
			j++
		}
		if j > i+1 && j < len(v) && (v[j] == '_' || v[j] == '{' || isLetter(v[j]) || isDigit(v[j])) {
			return true
		}
	}
	return false
}
