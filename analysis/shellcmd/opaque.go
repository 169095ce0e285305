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
//   - an extended glob's inside (see extGlobsRun);
//   - a single-quoted string in arithmetic, which the shells read as
//     double-quoted: $(( '$(cat .env)' ));
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
		case *syntax.Word:
			why = extGlobsRun(n)
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
		case *syntax.Redirect:
			why = heredocEndsEarly(n, src)
		}
		return why == ""
	})
	return why
}

// quotedInArith: a single-quoted string in arithmetic x that holds $ or
// a backquote, which the shell expands there, or a $'...' string with an
// escape, which may spell one ($'\x24(cmd)').
func quotedInArith(x syntax.ArithmExpr) string {
	var why string
	syntax.Walk(x, func(n syntax.Node) bool {
		if q, ok := n.(*syntax.SglQuoted); ok && why == "" && (strings.ContainsAny(q.Value, "$`") || q.Dollar && strings.Contains(q.Value, `\`)) {
			why = fmt.Sprintf("the arithmetic holds '%s', which the shell expands as if double-quoted", q.Value)
		}
		return why == ""
	})
	return why
}

// extGlobsRun: an extended glob of w whose inside the shell may run (see
// extGlobRuns). zsh takes a group for glob qualifiers only after a glob
// (a*(e:cmd:), *(+f)): there an e or a + may run code, whatever follows
// it; elsewhere (!(node_modules), @(a|b)) only an expansion in the group
// runs.
func extGlobsRun(w *syntax.Word) string {
	globBefore := false
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") {
				globBefore = true
			}
		case *syntax.ExtGlob:
			if p.Pattern == nil {
				continue
			}
			afterGlob := globBefore || p.Op == syntax.GlobZeroOrMore || p.Op == syntax.GlobZeroOrOne
			if extGlobRuns(p.Pattern.Value, afterGlob) {
				return fmt.Sprintf("the extended glob %s%s) holds what the shell may run (an expansion, or a zsh glob qualifier that runs code)", p.Op, p.Pattern.Value)
			}
			globBefore = true
		}
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
