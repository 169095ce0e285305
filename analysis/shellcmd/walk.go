package shellcmd

import (
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker turns a syntax tree into Commands. One walker serves a whole Parse
// call, the strings of nested `bash -c` and eval included, so that every
// command lands in one list and pipeline ids stay unique.
type walker struct {
	opts     Options
	script   *Script
	nextPipe int
	depth    int // how many `bash -c` and eval strings we are inside
	// zsh: the shell running the code being walked may be zsh (see
	// Options.Zsh); a `bash -c` inside is bash, a `zsh -c` zsh.
	zsh bool
	err error // the first syntax error of an inner string
	// cdFuncs are the functions whose body runs cd: after a call to one
	// the shell's directory is no longer known.
	cdFuncs map[string]bool
	sawCd   bool // a cd ran in the function body being walked
	// vars are the variables of the shell at the point being walked
	// (vars.go); assigned names every variable the line may assign.
	vars     map[string]Word
	assigned map[string]bool
	// fromData names the variables the line may assign from data
	// (runtime_name.go).
	fromData map[string]bool
	// unknownVars: something ran that may have set any variable (a
	// script sourced from disk, read with an unknown name).
	unknownVars bool
	// files are the files this command line wrote, by absolute path, with
	// their text where it is known (stream.go).
	files map[string]*stream
	// aliases are the aliases the line defined, by name: the text, or an
	// unknown Word.
	aliases map[string]Word
	// passes is how many times the loops being unrolled around the point
	// walked run its body: their item counts multiplied (forClause).
	passes int
	// spent is what the walk has spent of its bounds (budget.go).
	spent walkBudget
}

// ctx is what a command inherits from the constructs around it.
type ctx struct {
	src      string     // source text the tree's positions point into, for Word.Raw
	wrappers []string   // outermost first; shared, so only ever extended by copy
	redirs   *inherited // redirections of enclosing compound commands and unlisted wrappers
	fn       string
	bg       bool
	loop     bool // in a loop body: a cd there leaves Dir unknown for later iterations
	// out is where the command's standard output goes when it is
	// followed (a pipe, a substitution, a file); nil when it is not.
	out *stream
	// stdin is what the command reads on stdin, when the line gives it.
	stdin  *Input
	pipe   int // pipeline id, -1 while the statement has none
	stage  int
	stages int
	env    []Word // NAME=VALUE put in the environment; shared, so only ever extended by copy
	// absent are the paths whose existence a test around the command
	// rules it out (absent.go); shared, so only ever extended by copy.
	absent []Absent
	// substs is how deep command and process substitutions nest here.
	substs int
}

// with returns c with one more wrapper.
func (c ctx) with(wrapper string) ctx {
	c.wrappers = appendClip(c.wrappers, wrapper)
	return c
}

// sub returns the context of a substitution tagged tag: its output is
// captured, so it is in no pipeline and the enclosing redirections do not
// apply to it.
func (c ctx) sub(tag string, out *stream) ctx {
	c = c.with(tag)
	c.substs++
	c.redirs = nil
	c.env = nil
	c.out = out
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
	return w.emitCode(name, args, redirs, wrappers, c, dir, nil)
}

// emitCode lists a command that runs code, and follows what it prints and
// writes.
func (w *walker) emitCode(name Word, args []Word, redirs []Redirect, wrappers []string, c ctx, dir string, code *Code) *Command {
	c = w.ownPipe(c)
	cmd := &Command{
		Name: name, Args: args, Redirects: redirs, Wrappers: wrappers, Dir: dir,
		Pipeline: c.pipe, Stage: c.stage, Stages: c.stages, Background: c.bg, Func: c.fn,
		Stdin: c.stdin, Code: code, Env: c.env, OnlyIfAbsent: c.absent,
	}
	w.script.Commands = append(w.script.Commands, cmd)
	if len(w.script.Commands) > maxCommands {
		w.refuse("it runs more than %d commands", maxCommands)
	}
	if c.out != nil {
		c.out.write(w.output(cmd))
	}
	w.wrote(cmd)
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
	if s == nil || w.err != nil {
		return dir
	}
	async := s.Background || s.Coprocess || s.Disown
	var saved map[string]Word
	if async {
		c.bg = true
		saved = w.saveVars()
	}
	after := dir
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		after = w.callExpr(cmd, s.Redirs, c, dir)
	case nil:
		w.bare(nil, s.Redirs, c, dir)
	default:
		// Redirections of a compound command apply to everything in it.
		io := w.redirects(s.Redirs, c, dir)
		c.redirs = c.redirs.inherit(io.redirs)
		if io.stdin != nil {
			c.stdin = io.stdin
		}
		var commit func()
		c.out, commit = w.sink(io, c)
		after = w.compound(cmd, c, dir)
		commit()
	}
	if async {
		w.vars = saved
		return dir // an asynchronous statement runs in a subshell
	}
	return after
}

func (w *walker) callExpr(ce *syntax.CallExpr, redirs []*syntax.Redirect, c ctx, dir string) string {
	if len(ce.Args) == 0 {
		w.bare(ce.Assigns, redirs, c, dir)
		return dir
	}
	c = w.ownPipe(c)
	if alias, ok := w.alias(ce, c); ok {
		for _, a := range ce.Assigns {
			w.assign(a, c, dir)
		}
		return w.runAlias(ce, alias, redirs, c, dir)
	}
	// Assignments in front of a command are in its environment only,
	// and its words are expanded before they are made: a variable that
	// one sets is not known in the words.
	type prev struct {
		v   Word
		set bool
	}
	var prefix map[string]prev
	var env []Word
	for _, a := range ce.Assigns {
		v := w.assign(a, c, dir)
		if a != nil && a.Name != nil && a.Index == nil && a.Array == nil && !a.Append {
			env = append(env, Word{Raw: c.text(a), Value: a.Name.Value + "=" + v.Value, Known: v.Known})
		}
		if a.Name != nil {
			if prefix == nil {
				prefix = map[string]prev{}
			}
			if _, seen := prefix[a.Name.Value]; !seen {
				old, ok := w.vars[a.Name.Value]
				prefix[a.Name.Value] = prev{old, ok}
			}
			w.setVar(a.Name.Value, Word{})
		}
	}
	words := make([]Word, 0, len(ce.Args))
	for _, a := range ce.Args {
		words = append(words, w.fields(a, c, dir)...)
	}
	io := w.redirects(redirs, c, dir)
	for name, old := range prefix {
		if old.set {
			w.vars[name] = old.v
		} else {
			delete(w.vars, name)
		}
	}
	if io.stdin != nil {
		c.stdin = io.stdin
	}
	out, commit := w.sink(io, c)
	c.out = out
	defer commit()
	if len(words) == 0 {
		// Every word expanded to nothing: only the redirections remain.
		if len(io.redirs) > 0 {
			w.emit(Word{}, nil, c.redirs.plus(io.redirs), c.wrappers, c, dir)
		}
		return dir
	}
	if len(env) > 0 {
		c.env = appendClip(c.env, env...)
	}
	if !words[0].Known && w.dataName(ce.Args[0]) {
		w.emitCode(words[0], words[1:], c.redirs.plus(io.redirs), c.wrappers, c, dir,
			&Code{Lang: "sh", From: "command name", Text: words[0]})
		return dir
	}
	return w.run(words, c.redirs.plus(io.redirs), c, dir)
}

// bare handles a statement without a command word: its assignments run
// their substitutions, and its redirections still open files, so those are
// listed as a command with a zero Name.
func (w *walker) bare(assigns []*syntax.Assign, redirs []*syntax.Redirect, c ctx, dir string) {
	for _, a := range assigns {
		w.setAssign(a, w.assign(a, c, dir))
	}
	if len(redirs) == 0 {
		return
	}
	io := w.redirects(redirs, c, dir)
	if rs := c.redirs.plus(io.redirs); len(rs) > 0 {
		out, commit := w.sink(io, c)
		c.out = out
		w.emit(Word{}, nil, rs, c.wrappers, c, dir)
		commit()
	}
}

// setAssign records the assignment a of the value v in the current shell.
func (w *walker) setAssign(a *syntax.Assign, v Word) {
	if a == nil || a.Name == nil {
		return
	}
	switch {
	case a.Index != nil || a.Array != nil || a.Naked:
		v = Word{}
	case a.Append:
		old, set := w.lookup(a.Name.Value)
		if !set {
			old = Word{Known: true}
		}
		v = Word{Value: old.Value + v.Value, Known: old.Known && v.Known}
	}
	w.setVar(a.Name.Value, v)
}

func (w *walker) compound(cmd syntax.Command, c ctx, dir string) string {
	switch x := cmd.(type) {
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.Pipe, syntax.PipeAll:
			id := w.nextPipe
			w.nextPipe++
			c.pipe, c.stages = id, countStages(x)
			saved := w.saveVars()
			w.stages(x, c, dir)
			w.vars = saved
			return dir // every stage runs in a subshell
		case syntax.AndStmt:
			d := w.stmt(x.X, c, dir)
			saved := w.saveVars()
			cy := c
			if a, negated, ok := existsTest(x.X, dir); ok && negated {
				cy = c.withAbsent(a) // [ ! -f P ] && Y: Y runs only without P
			}
			d = w.stmt(x.Y, cy, d)
			w.mergeVars(saved)
			return d
		case syntax.OrStmt:
			dx := w.stmt(x.X, c, dir)
			// Y runs when X failed, and a failed cd stays where it was.
			c.out.unknown()
			saved := w.saveVars()
			cy := c
			if a, negated, ok := existsTest(x.X, dir); ok && !negated {
				cy = c.withAbsent(a) // [ -f P ] || Y: Y runs only without P
			}
			dy := w.stmt(x.Y, cy, dir)
			if terminates(x.Y) {
				w.vars = saved
				return dx
			}
			w.mergeVars(saved)
			return merge(dx, dy)
		}
	case *syntax.Block:
		return w.stmts(x.Stmts, c, dir)
	case *syntax.Subshell:
		saved := w.saveVars()
		w.stmts(x.Stmts, c, dir)
		w.vars = saved
	case *syntax.IfClause:
		c.out.unknown()
		return w.ifClause(x, c, dir)
	case *syntax.WhileClause:
		c.loop = true
		c.out.unknown()
		w.forget(assignedIn(x))
		start := dir
		if changesDir(x) {
			start = "" // a later pass starts where the one before left
		}
		d := w.stmts(x.Cond, c, start)
		return merge(dir, w.stmts(x.Do, c, d))
	case *syntax.ForClause:
		return w.forClause(x, c, dir)
	case *syntax.CaseClause:
		w.word(x.Word, c, dir)
		c.out.unknown()
		out := dir // no pattern may match
		before := w.saveVars()
		after := w.saveVars()
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				w.word(p, c, dir)
			}
			w.vars = maps.Clone(before)
			out = merge(out, w.stmts(it.Stmts, c, dir))
			w.mergeVars(after)
			after = w.saveVars()
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
		saved := w.saveVars()
		w.stmt(x.Stmt, c, dir)
		w.vars = saved
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
	last := c.out
	pipe := newStream()
	left := c
	left.out = pipe
	if l, ok := x.X.Cmd.(*syntax.BinaryCmd); ok && (l.Op == syntax.Pipe || l.Op == syntax.PipeAll) {
		i = w.stages(l, left, dir)
	} else {
		left.stage = i
		saved := w.saveVars()
		w.stmt(x.X, left, dir)
		w.vars = saved
		i++
	}
	c.stage = i
	c.out = last
	c.stdin = &Input{From: "pipe", Text: pipe.word(c.text(x.X))}
	saved := w.saveVars()
	w.stmt(x.Y, c, dir)
	w.vars = saved
	return i + 1
}

func (w *walker) ifClause(x *syntax.IfClause, c ctx, dir string) string {
	if !x.ThenPos.IsValid() { // a plain else
		return w.stmts(x.Then, c, dir)
	}
	d := w.stmts(x.Cond, c, dir)
	cond := w.saveVars()
	cThen, cElse := c, c
	if len(x.Cond) == 1 {
		// if [ ! -f P ]; then Y; fi, if [ -f P ]; then ...; else Y; fi
		if a, negated, ok := existsTest(x.Cond[0], dir); ok && negated {
			cThen = c.withAbsent(a)
		} else if ok {
			cElse = c.withAbsent(a)
		}
	}
	then := w.stmts(x.Then, cThen, d)
	if x.Else == nil {
		w.mergeVars(cond)
		return merge(then, d)
	}
	afterThen := w.saveVars()
	w.vars = cond
	other := w.ifClause(x.Else, cElse, d)
	w.mergeVars(afterThen)
	return merge(then, other)
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
	// The body runs where it is called, with the variables of then.
	saved := w.saveVars()
	w.vars = nil
	w.stmt(x.Body, c, "")
	w.vars = saved
	w.forget(assignedIn(x.Body))
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
	plain := true // only -x, -r, -g: a NAME=VALUE sets a plain variable
	type set struct {
		a *syntax.Assign
		v Word
	}
	var sets []set
	for _, a := range x.Args {
		if a == nil {
			continue
		}
		if a.Naked {
			if a.Name != nil {
				args = append(args, Word{Raw: c.text(a.Name), Value: a.Name.Value, Known: true})
				if x.Variant.Value != "export" && x.Variant.Value != "readonly" {
					w.forget(map[string]bool{a.Name.Value: true})
				}
			} else {
				f := w.word(a.Value, c, dir)
				args = append(args, f)
				if !f.Known || strings.Trim(f.Value, "-xrg") != "" {
					plain = false
				}
			}
			continue
		}
		aw, v := w.assignWord(a, c, dir)
		args = append(args, aw)
		sets = append(sets, set{a, v})
	}
	for _, s := range sets {
		if plain {
			w.setAssign(s.a, s.v)
		} else if s.a.Name != nil {
			w.forget(map[string]bool{s.a.Name.Value: true})
		}
	}
	name := Word{Raw: c.text(x.Variant), Value: x.Variant.Value, Known: true}
	w.emit(name, args, c.redirs.all(), c.wrappers, c, dir)
}

// assignWord renders NAME=VALUE as the single word a declaration builtin
// receives. Its value is not globbed.
func (w *walker) assignWord(a *syntax.Assign, c ctx, dir string) (Word, Word) {
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
	v.Glob = false
	return out, v
}

// assign walks the substitutions of an assignment and returns the value
// it assigns; the assignment itself runs nothing.
func (w *walker) assign(a *syntax.Assign, c ctx, dir string) Word {
	if a == nil {
		return Word{}
	}
	w.arith(a.Index, c, dir)
	v := w.word(a.Value, c, dir)
	w.array(a.Array, c, dir)
	v.Glob = false // an assignment does not glob
	return v
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

// maxIterations bounds the passes of a for loop whose body is walked once
// per item, with the loop variable known, counting the passes of the
// loops around it that are walked so (nested loops multiply: eight of
// them with eight items each would walk their body 16 million times); a
// longer list, or one not known, walks the body once with the variable
// unknown.
const maxIterations = 8

func (w *walker) forClause(x *syntax.ForClause, c ctx, dir string) string {
	c.out.unknown()
	var name string
	var items []Word
	known := false
	switch l := x.Loop.(type) {
	case *syntax.WordIter:
		known = l.InPos.IsValid()
		for _, it := range l.Items {
			fs := w.fields(it, c, dir)
			items = append(items, fs...)
			for _, f := range fs {
				known = known && f.Known && !f.Glob
			}
		}
		if l.Name != nil {
			name = l.Name.Value
		}
	case *syntax.CStyleLoop:
		w.arith(l.Init, c, dir)
		w.arith(l.Cond, c, dir)
		w.arith(l.Post, c, dir)
	}
	c.loop = true
	body := map[string]bool{}
	for _, s := range x.Do {
		for n := range assignedIn(s) {
			body[n] = true
		}
	}
	start := dir
	if changesDir(x) {
		start = "" // a later pass starts where the one before left
	}
	passes := max(w.passes, 1) * len(items)
	if !known || name == "" || passes > maxIterations {
		w.forget(body)
		if name != "" {
			w.forget(map[string]bool{name: true})
		}
		return merge(dir, w.stmts(x.Do, c, start))
	}
	// Each pass starts from what the one before left: the body's own
	// assignments are not known across passes.
	w.forget(body)
	outer := w.passes
	w.passes = passes
	defer func() { w.passes = outer }()
	out, d := dir, dir
	for _, it := range items {
		w.setVar(name, it)
		d = w.stmts(x.Do, c, d)
		out = merge(out, d)
		w.forget(body)
	}
	return out
}

// changesDir reports whether a loop may change the directory: a cd,
// pushd or popd in it, or a call of a function that does.
func changesDir(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			switch ce.Args[0].Lit() {
			case "cd", "pushd", "popd", "builtin", "command", "eval", "source", ".":
				found = true
			}
		}
		return !found
	})
	return found
}
