package shellcmd

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// opaqueRuns is why f, parsed from src, holds text the parser keeps as
// plain but bash or zsh would run, so that the walk would not see the
// command in it; "" when it holds none. Each was a way to read .env
// unseen:
//   - an extended glob's inside (see extGlobRuns);
//   - a single-quoted string in arithmetic, which the shells read as
//     double-quoted: $(( '$(cat .env)' ));
//   - text with an array index that holds a command, which the shells run
//     when the text is used as a name or evaluated as a number later:
//     x='a[$(cat .env)]'; echo $((x)), test -v 'a[`cat .env`]';
//   - a here-document whose end line is split by a backslash-newline,
//     which the shells join and the parser does not: what the parser
//     takes for the rest of the body runs.
func opaqueRuns(f *syntax.File, src string) string {
	var why string
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.ExtGlob:
			if n.Pattern != nil && extGlobRuns(n.Pattern.Value) {
				why = fmt.Sprintf("the extended glob %s%s) holds what the shell may run (an expansion, or a zsh glob qualifier that runs code)", n.Op, n.Pattern.Value)
			}
		case *syntax.ArithmExp:
			why = quotedInArith(n.X)
		case *syntax.ArithmCmd:
			why = quotedInArith(n.X)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				if why == "" {
					why = quotedInArith(x)
				}
			}
		case *syntax.CStyleLoop:
			for _, x := range []syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
				if why == "" && x != nil {
					why = quotedInArith(x)
				}
			}
		case *syntax.ParamExp:
			if n.Index != nil {
				why = quotedInArith(n.Index)
			}
			if why == "" && n.Slice != nil {
				for _, x := range []syntax.ArithmExpr{n.Slice.Offset, n.Slice.Length} {
					if why == "" && x != nil {
						why = quotedInArith(x)
					}
				}
			}
		case *syntax.Assign:
			if n.Index != nil {
				why = quotedInArith(n.Index)
			}
		case *syntax.ArrayElem:
			if n.Index != nil {
				why = quotedInArith(n.Index)
			}
		case *syntax.Lit:
			why = indexRuns(n.Value)
		case *syntax.SglQuoted:
			why = indexRuns(n.Value)
		case *syntax.Redirect:
			why = heredocEndsEarly(n, src)
		}
		return why == ""
	})
	return why
}

// quotedInArith: a single-quoted string in arithmetic x that holds $ or
// a backquote, which the shell expands there.
func quotedInArith(x syntax.ArithmExpr) string {
	var why string
	syntax.Walk(x, func(n syntax.Node) bool {
		if q, ok := n.(*syntax.SglQuoted); ok && why == "" && strings.ContainsAny(q.Value, "$`") {
			why = fmt.Sprintf("the arithmetic holds '%s', which the shell expands as if double-quoted", q.Value)
		}
		return why == ""
	})
	return why
}

// indexRuns: text with an index [ ... ] that holds a command substitution,
// which the shell runs if the text is ever used as a variable's name or a
// number.
func indexRuns(v string) string {
	i := strings.IndexByte(v, '[')
	if i < 0 {
		return ""
	}
	if rest := v[i:]; strings.Contains(rest, "$(") || strings.Contains(rest, "`") || strings.Contains(rest, "<(") {
		return fmt.Sprintf("%q holds an array index with a command in it, which the shell runs if it is used as a name or a number", v)
	}
	return ""
}

// heredocEndsEarly: an unquoted here-document in which a line joined
// with the next by a trailing backslash is the end word, where the shell
// ends it and the parser does not.
func heredocEndsEarly(r *syntax.Redirect, src string) string {
	if r.Hdoc == nil || (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.Word == nil {
		return ""
	}
	if len(r.Word.Parts) != 1 || !strings.Contains(src, "\\\n") {
		return ""
	}
	lit, ok := r.Word.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsRune(lit.Value, '\\') {
		return "" // a quoted end word: the body is not read for backslashes
	}
	delim := lit.Value
	start, end := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	joined, parts := "", 0
	for _, line := range strings.Split(src[start:end], "\n") {
		if r.Op == syntax.DashHdoc && joined == "" {
			line = strings.TrimLeft(line, "\t")
		}
		parts++
		if trailing := len(line) - len(strings.TrimRight(line, `\`)); trailing%2 == 1 {
			joined += line[:len(line)-1]
			continue
		}
		joined += line
		if joined == delim && parts > 1 {
			return fmt.Sprintf("the here-document's end word %s is split across lines in its body, where the shell ends it early", delim)
		}
		joined, parts = "", 0
	}
	return ""
}
