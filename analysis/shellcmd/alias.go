package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases defined in the command line are expanded where they are used:
// Claude Code's shell runs with expand_aliases, so `alias x='rm -rf /'`
// followed by x on a later line runs rm -rf /. An alias is taken to apply
// from the command after its definition on (bash applies it from the next
// line: judging it earlier only judges more). Aliases of the user's own
// shell are not known.

// defineAliases records `alias NAME=VALUE` operands.
func (w *walker) defineAliases(args []Word) {
	for _, a := range args {
		name, value, ok := strings.Cut(a.Value, "=")
		if !ok || (a.Known && name == "") {
			continue
		}
		if w.aliases == nil {
			w.aliases = map[string]Word{}
		}
		if !a.Known {
			// Which name it defines may not be known either: every later
			// command name could be it.
			if !syntax.ValidName(name) || strings.ContainsAny(a.Raw[:min(len(name), len(a.Raw))], "$`") {
				w.aliases["\x00any"] = Word{}
				continue
			}
			w.aliases[name] = Word{}
			continue
		}
		w.aliases[name] = Word{Value: value, Known: true}
	}
}

// alias returns the alias a simple command's first word names, if the
// line defined one: the word must be a plain unquoted literal, as bash
// requires.
func (w *walker) alias(ce *syntax.CallExpr, c ctx) (Word, bool) {
	if len(w.aliases) == 0 || len(ce.Args[0].Parts) != 1 {
		return Word{}, false
	}
	lit, ok := ce.Args[0].Parts[0].(*syntax.Lit)
	if !ok {
		return Word{}, false
	}
	if v, ok := w.aliases[lit.Value]; ok {
		return v, true
	}
	if _, any := w.aliases["\x00any"]; any {
		return Word{}, true
	}
	return Word{}, false
}

// runAlias lists the command an alias makes: the alias text followed by
// the rest of the command's source, read again as shell code. An alias
// whose text is not known makes the program unknown.
func (w *walker) runAlias(ce *syntax.CallExpr, alias Word, redirs []*syntax.Redirect, c ctx, dir string) string {
	io := w.redirects(redirs, c, dir)
	if io.stdin != nil {
		c.stdin = io.stdin
	}
	out, commit := w.sink(io, c)
	c.out = out
	defer commit()
	rs := c.redirs.plus(io.redirs)
	if !alias.Known || w.depth >= maxDepth { // too deep: the program is not known
		words := []Word{{Raw: c.text(ce.Args[0]), Value: c.text(ce.Args[0])}}
		for _, a := range ce.Args[1:] {
			words = append(words, w.fields(a, c, dir)...)
		}
		w.emit(words[0], words[1:], rs, c.wrappers, c, dir)
		return dir
	}
	rest := ""
	if start, end := ce.Args[0].End().Offset(), ce.End().Offset(); start <= end && end <= uint(len(c.src)) {
		rest = c.src[start:end]
	}
	name := ce.Args[0].Lit()
	saved := w.aliases[name]
	delete(w.aliases, name) // an alias is not expanded inside itself
	defer func() { w.aliases[name] = saved }()
	return w.inner("alias "+name, alias.Value+rest, syntax.LangBash, w.innerCtx("alias "+name, rs, c, c.wrappers), dir)
}
