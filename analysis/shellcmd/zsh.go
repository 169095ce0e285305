package shellcmd

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zshFlagged makes each of zsh's flagged parameter expansions in f's
// words, which the parser keeps as plain text, the plain expansion it
// expands like: $~name (its value taken as a glob), $=name (split into
// words) and $^name (spread over an array), each flag possibly doubled or
// several, become $name. zsh, the shell Claude Code runs commands in on
// macOS, gives them the parameter's value, so v=.env; cat $=v reads .env,
// where the text says a file named "$=v". Read as $name, the value gets
// an unquoted expansion's globbing and splitting, which covers what the
// flags add; in double quotes, neither, as in zsh. To bash the text is a
// literal no command line writes.
//
// A plain text part that holds one is cut into its text and the
// expansion, each with its place in src, so that messages quote the
// command as written (a here-document's text included). One in a literal
// whose value is not its text in src (a line continuation inside it) is
// refused: the reason is returned, "" when there is none.
func zshFlagged(f *syntax.File, src string) (why string) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			n.Parts, why = splitFlagged(n.Parts, src)
		case *syntax.DblQuoted:
			n.Parts, why = splitFlagged(n.Parts, src)
		}
		return why == ""
	})
	return why
}

// splitFlagged is parts with each literal holding a flagged expansion cut
// up (see zshFlagged); parts itself when none does. The parser ends a
// literal at a $ it does not expand, so literals that follow each other in
// src are read as one first.
func splitFlagged(parts []syntax.WordPart, src string) ([]syntax.WordPart, string) {
	if !slices.ContainsFunc(parts, litWithDollar) {
		return parts, "" // most words: no allocation
	}
	var out []syntax.WordPart
	found := false
	for i := 0; i < len(parts); i++ {
		l, ok := parts[i].(*syntax.Lit)
		if !ok {
			out = append(out, parts[i])
			continue
		}
		first := i
		joined := *l
		for i+1 < len(parts) {
			next, ok := parts[i+1].(*syntax.Lit)
			if !ok || next.ValuePos.Offset() != joined.ValueEnd.Offset() {
				break
			}
			joined.Value += next.Value
			joined.ValueEnd = next.ValueEnd
			i++
		}
		cut, why := cutFlagged(&joined, src)
		if why != "" {
			return parts, why
		}
		if cut != nil {
			found = true
			out = append(out, cut...)
		} else {
			out = append(out, parts[first:i+1]...)
		}
	}
	if !found {
		return parts, ""
	}
	return out, ""
}

func litWithDollar(p syntax.WordPart) bool {
	l, ok := p.(*syntax.Lit)
	return ok && strings.Contains(l.Value, "$")
}

// cutFlagged cuts l into literals and the expansions of the flagged
// parameters in it; nil when it holds none.
func cutFlagged(l *syntax.Lit, src string) ([]syntax.WordPart, string) {
	v := l.Value
	start := l.ValuePos
	if o := int(start.Offset()); o+len(v) > len(src) || src[o:o+len(v)] != v {
		// A line continuation: offsets in v are not offsets in src.
		if d, _, _ := flagged(v, 0); d >= 0 {
			return nil, "it splits a zsh expansion ($~name, $=name, $^name) with a line continuation"
		}
		return nil, ""
	}
	at := func(i int) syntax.Pos {
		line, col := start.Line(), start.Col()+uint(i)
		if nl := strings.LastIndexByte(v[:i], '\n'); nl >= 0 {
			line += uint(strings.Count(v[:i], "\n"))
			col = uint(i - nl)
		}
		return syntax.NewPos(start.Offset()+uint(i), line, col)
	}
	var out []syntax.WordPart
	from := 0
	for {
		d, n, e := flagged(v, from)
		if d < 0 {
			break
		}
		if d > from {
			out = append(out, &syntax.Lit{ValuePos: at(from), ValueEnd: at(d), Value: v[from:d]})
		}
		out = append(out, &syntax.ParamExp{Dollar: at(d), Short: true,
			Param: &syntax.Lit{ValuePos: at(n), ValueEnd: at(e), Value: v[n:e]}})
		from = e
	}
	if out == nil {
		return nil, ""
	}
	if from < len(v) {
		out = append(out, &syntax.Lit{ValuePos: at(from), ValueEnd: at(len(v)), Value: v[from:]})
	}
	return out, ""
}

// flagged finds the first flagged expansion in v from i on, unescaped:
// its $ at d, its name from n to e; d is -1 when there is none.
func flagged(v string, i int) (d, n, e int) {
	for ; i < len(v); i++ {
		if v[i] == '\\' {
			i++ // an escaped character, $ included
			continue
		}
		if v[i] != '$' {
			continue
		}
		n = i + 1
		for n < len(v) && strings.IndexByte("~=^", v[n]) >= 0 {
			n++
		}
		e = n
		if e < len(v) && isDigit(v[e]) {
			e++ // a positional parameter, $~1
		} else {
			for e < len(v) && isNameByte(v[e], e == n) {
				e++
			}
		}
		if n > i+1 && e > n {
			return i, n, e
		}
	}
	return -1, 0, 0
}

// isNameByte reports whether c may stand in a parameter's name: a letter
// or _, or a digit after the first.
func isNameByte(c byte, first bool) bool { return c == '_' || isLetter(c) || !first && isDigit(c) }
