package shellcmd

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// walker turns a syntax tree into Commands. One walker serves a whole Parse
// call, the strings of nested `bash -c` and eval included, so that every
// command lands in one list and pipeline ids stay unique.
type walker struct {
	opts     Options
	script   *Script
	nextPipe int
	depth    int   // how many `bash -c` and eval strings we are inside
	err      error // the first syntax error of an inner string
	// cdFuncs are the functions whose body runs cd: after a call to one
	// the shell's directory is no longer known.
	cdFuncs map[string]bool
	sawCd   bool // a cd ran in the function body being walked
}

// ctx is what a command inherits from the constructs around it.
type ctx struct {
	src      string     // source text the tree's positions point into, for Word.Raw
	wrappers []string   // outermost first; shared, so only ever extended by copy
	redirs   *inherited // redirections of enclosing compound commands and unlisted wrappers
	fn       string
	bg       bool
	loop     bool // in a loop body: a cd there leaves Dir unknown for later iterations
	pipe     int  // pipeline id, -1 while the statement has none
	stage    int
	stages   int
}

// with returns c with one more wrapper.
func (c ctx) with(wrapper string) ctx {
	c.wrappers = appendClip(c.wrappers, wrapper)
	return c
}

// sub returns the context of a substitution tagged tag: its output is
// captured, so it is in no pipeline and the enclosing redirections do not
// apply to it.
func (c ctx) sub(tag string) ctx {
	c = c.with(tag)
	c.redirs = nil
	c.pipe, c.stage, c.stages = -1, 0, 0
	return c
}

// text returns the source of n, or "" if its positions do not fit src.
func (c ctx) text(n syntax.Node) string {
	start, end := n.Pos().Offset(), n.End().Offset()
	if start > end || end > uint(len(c.src)) {
		return ""
	}
	return c.src[start:end]
}

// appendClip appends without writing into a backing array another slice
// may share.
func appendClip[T any](s []T, v ...T) []T {
	return append(slices.Clip(s), v...)
}

// ownPipe gives a statement that is not a pipeline stage its own
// one-stage pipeline.
func (w *walker) ownPipe(c ctx) ctx {
	if c.pipe < 0 {
		c.pipe, c.stage, c.stages = w.nextPipe, 0, 1
		w.nextPipe++
	}
	return c
}

func (w *walker) emit(name Word, args []Word, redirs []Redirect, wrappers []string, c ctx, dir string) *Command {
	c = w.ownPipe(c)
	cmd := &Command{
		Name: name, Args: args, Redirects: redirs, Wrappers: wrappers, Dir: dir,
		Pipeline: c.pipe, Stage: c.stage, Stages: c.stages, Background: c.bg, Func: c.fn,
	}
	w.script.Commands = append(w.script.Commands, cmd)
	return cmd
}

// stmts walks a list, each statement starting in the directory the one
// before left, and returns the directory after the list.
func (w *walker) stmts(list []*syntax.Stmt, c ctx, dir string) string {
	for _, s := range list {
		dir = w.stmt(s, c, dir)
	}
	return dir
}

func (w *walker) stmt(s *syntax.Stmt, c ctx, dir string) string {
	if s == nil {
		return dir
	}
	async := s.Background || s.Coprocess || s.Disown
	if async {
		c.bg = true
	}
	after := dir
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		after = w.callExpr(cmd, s.Redirs, c, dir)
	case nil:
		w.bare(nil, s.Redirs, c, dir)
	default:
		// Redirections of a compound command apply to everything in it.
		c.redirs = c.redirs.inherit(w.redirects(s.Redirs, c, dir))
		after = w.compound(cmd, c, dir)
	}
	if async {
		return dir // an asynchronous statement runs in a subshell
	}
	return after
}

func (w *walker) callExpr(ce *syntax.CallExpr, redirs []*syntax.Redirect, c ctx, dir string) string {
	if len(ce.Args) == 0 {
		w.bare(ce.Assigns, redirs, c, dir)
		return dir
	}
	for _, a := range ce.Assigns {
		w.assign(a, c, dir)
	}
	c = w.ownPipe(c)
	words := make([]Word, len(ce.Args))
	for i, a := range ce.Args {
		words[i] = w.word(a, c, dir)
	}
	return w.run(words, c.redirs.plus(w.redirects(redirs, c, dir)), c, dir)
}

// bare handles a statement without a command word: its assignments run
// their substitutions, and its redirections still open files, so those are
// listed as a command with a zero Name.
func (w *walker) bare(assigns []*syntax.Assign, redirs []*syntax.Redirect, c ctx, dir string) {
	for _, a := range assigns {
		w.assign(a, c, dir)
	}
	if len(redirs) == 0 {
		return
	}
	if rs := c.redirs.plus(w.redirects(redirs, c, dir)); len(rs) > 0 {
		w.emit(Word{}, nil, rs, c.wrappers, c, dir)
	}
}

func (w *walker) compound(cmd syntax.Command, c ctx, dir string) string {
	switch x := cmd.(type) {
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.Pipe, syntax.PipeAll:
			id := w.nextPipe
			w.nextPipe++
			c.pipe, c.stages = id, countStages(x)
			w.stages(x, c, dir)
			return dir // every stage runs in a subshell
		case syntax.AndStmt:
			return w.stmt(x.Y, c, w.stmt(x.X, c, dir))
		case syntax.OrStmt:
			dx := w.stmt(x.X, c, dir)
			// Y runs when X failed, and a failed cd stays where it was.
			dy := w.stmt(x.Y, c, dir)
			if terminates(x.Y) {
				return dx
			}
			return merge(dx, dy)
		}
	case *syntax.Block:
		return w.stmts(x.Stmts, c, dir)
	case *syntax.Subshell:
		w.stmts(x.Stmts, c, dir)
	case *syntax.IfClause:
		return w.ifClause(x, c, dir)
	case *syntax.WhileClause:
		c.loop = true
		d := w.stmts(x.Cond, c, dir)
		return merge(dir, w.stmts(x.Do, c, d))
	case *syntax.ForClause:
		switch l := x.Loop.(type) {
		case *syntax.WordIter:
			for _, it := range l.Items {
				w.word(it, c, dir)
			}
		case *syntax.CStyleLoop:
			w.arith(l.Init, c, dir)
			w.arith(l.Cond, c, dir)
			w.arith(l.Post, c, dir)
		}
		c.loop = true
		return merge(dir, w.stmts(x.Do, c, dir))
	case *syntax.CaseClause:
		w.word(x.Word, c, dir)
		out := dir // no pattern may match
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				w.word(p, c, dir)
			}
			out = merge(out, w.stmts(it.Stmts, c, dir))
		}
		return out
	case *syntax.FuncDecl:
		w.funcDecl(x, c)
	case *syntax.ArithmCmd:
		w.arith(x.X, c, dir)
	case *syntax.TestClause:
		w.test(x.X, c, dir)
	case *syntax.DeclClause:
		w.decl(x, c, dir)
	case *syntax.LetClause:
		for _, e := range x.Exprs {
			w.arith(e, c, dir)
		}
	case *syntax.TimeClause:
		return w.stmt(x.Stmt, c.with("time"), dir)
	case *syntax.CoprocClause:
		w.word(x.Name, c, dir)
		c.bg = true
		w.stmt(x.Stmt, c, dir)
	case *syntax.TestDecl:
		w.word(x.Description, c, dir)
		w.stmt(x.Body, c, dir)
	}
	return dir
}

// countStages returns the length of the pipeline x heads. Pipelines parse
// left-associative: a | b | c is (a | b) | c.
func countStages(x *syntax.BinaryCmd) int {
	n := 1
	for {
		if x.X == nil {
			return n + 1
		}
		left, ok := x.X.Cmd.(*syntax.BinaryCmd)
		if !ok || (left.Op != syntax.Pipe && left.Op != syntax.PipeAll) {
			return n + 1
		}
		n++
		x = left
	}
}

// stages walks the stages of the pipeline x, each from dir, and returns the
// index of the next stage.
func (w *walker) stages(x *syntax.BinaryCmd, c ctx, dir string) int {
	i := 0
	if left, ok := x.X.Cmd.(*syntax.BinaryCmd); ok && (left.Op == syntax.Pipe || left.Op == syntax.PipeAll) {
		i = w.stages(left, c, dir)
	} else {
		c.stage = i
		w.stmt(x.X, c, dir)
		i++
	}
	c.stage = i
	w.stmt(x.Y, c, dir)
	return i + 1
}

func (w *walker) ifClause(x *syntax.IfClause, c ctx, dir string) string {
	if !x.ThenPos.IsValid() { // a plain else
		return w.stmts(x.Then, c, dir)
	}
	d := w.stmts(x.Cond, c, dir)
	then := w.stmts(x.Then, c, d)
	if x.Else == nil {
		return merge(then, d)
	}
	return merge(then, w.ifClause(x.Else, c, d))
}

// funcDecl walks a function body where it is defined. It runs where it is
// called, so its Dir starts unknown, and it is not part of the pipeline or
// background job of the definition.
func (w *walker) funcDecl(x *syntax.FuncDecl, c ctx) {
	var names []*syntax.Lit
	if x.Name != nil {
		names = []*syntax.Lit{x.Name}
	} else {
		names = x.Names
	}
	c.fn = ""
	if len(names) > 0 {
		c.fn = names[0].Value
	}
	c.bg, c.loop = false, false
	c.pipe, c.stage, c.stages = -1, 0, 0
	saw := w.sawCd
	w.sawCd = false
	w.stmt(x.Body, c, "")
	if w.sawCd {
		if w.cdFuncs == nil {
			w.cdFuncs = make(map[string]bool)
		}
		for _, n := range names {
			w.cdFuncs[n.Value] = true
		}
	}
	w.sawCd = w.sawCd || saw
}

// decl lists a declaration builtin with each of its assignments as a word.
func (w *walker) decl(x *syntax.DeclClause, c ctx, dir string) {
	if x.Variant == nil {
		return
	}
	c = w.ownPipe(c)
	args := make([]Word, 0, len(x.Args))
	for _, a := range x.Args {
		if a == nil {
			continue
		}
		if a.Naked {
			if a.Name != nil {
				args = append(args, Word{Raw: c.text(a.Name), Value: a.Name.Value, Known: true})
			} else {
				args = append(args, w.word(a.Value, c, dir))
			}
			continue
		}
		args = append(args, w.assignWord(a, c, dir))
	}
	name := Word{Raw: c.text(x.Variant), Value: x.Variant.Value, Known: true}
	w.emit(name, args, c.redirs.all(), c.wrappers, c, dir)
}

// assignWord renders NAME=VALUE as the single word a declaration builtin
// receives. Its value is not globbed.
func (w *walker) assignWord(a *syntax.Assign, c ctx, dir string) Word {
	start := len(w.script.Commands)
	w.arith(a.Index, c, dir)
	w.array(a.Array, c, dir)
	v := w.word(a.Value, c, dir)
	raw := c.text(a)
	out := Word{Raw: raw, Value: raw}
	if a.Name != nil && a.Index == nil && a.Array == nil {
		op := "="
		if a.Append {
			op = "+="
		}
		out.Value, out.Known = a.Name.Value+op+v.Value, v.Known
	}
	if n := len(w.script.Commands); n > start {
		out.Inner = w.script.Commands[start:n:n]
	}
	return out
}

// assign walks the substitutions of an assignment; the assignment itself
// runs nothing.
func (w *walker) assign(a *syntax.Assign, c ctx, dir string) {
	if a == nil {
		return
	}
	w.arith(a.Index, c, dir)
	w.word(a.Value, c, dir)
	w.array(a.Array, c, dir)
}

func (w *walker) array(a *syntax.ArrayExpr, c ctx, dir string) {
	if a == nil {
		return
	}
	for _, e := range a.Elems {
		if e != nil {
			w.arith(e.Index, c, dir)
			w.word(e.Value, c, dir)
		}
	}
}

// arith walks the substitutions inside an arithmetic expression.
func (w *walker) arith(x syntax.ArithmExpr, c ctx, dir string) {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if x != nil {
			w.arith(x.X, c, dir)
			w.arith(x.Y, c, dir)
		}
	case *syntax.UnaryArithm:
		if x != nil {
			w.arith(x.X, c, dir)
		}
	case *syntax.ParenArithm:
		if x != nil {
			w.arith(x.X, c, dir)
		}
	case *syntax.FlagsArithm:
		if x != nil {
			w.arith(x.X, c, dir)
		}
	case *syntax.Word:
		w.word(x, c, dir)
	}
}

// test walks the substitutions inside a [[ ]] expression.
func (w *walker) test(x syntax.TestExpr, c ctx, dir string) {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		if x != nil {
			w.test(x.X, c, dir)
			w.test(x.Y, c, dir)
		}
	case *syntax.UnaryTest:
		if x != nil {
			w.test(x.X, c, dir)
		}
	case *syntax.ParenTest:
		if x != nil {
			w.test(x.X, c, dir)
		}
	case *syntax.Word:
		w.word(x, c, dir)
	}
}
