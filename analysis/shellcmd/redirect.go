package shellcmd

import "mvdan.cc/sh/v3/syntax"

// Redirect is a redirection to or from a file.
type Redirect struct {
	// Op is one of ">", ">>", ">|", "&>", "&>>", "<", "<>", or ">&" (only
	// when its target is a file: `2>&1` and `>&-` are not listed). zsh's
	// >>|, &>| and &>>| are reported as >>, &> and &>>.
	Op     string
	Fd     string // explicit fd ("2" in 2>x), "" if none
	Target Word
}

// inherited links the redirections that enclosing compound commands and
// unlisted wrappers hand down. A link is flattened only when a command
// needs it, and only once, so deeply nested blocks stay linear; commands
// may therefore share one Redirects backing array.
type inherited struct {
	up   *inherited
	own  []Redirect
	flat []Redirect
	done bool
}

func (h *inherited) all() []Redirect {
	if h == nil {
		return nil
	}
	if h.done {
		return h.flat
	}
	// Copy the links up to the nearest one already flattened, in one pass.
	n, top := 0, h
	for ; top != nil && !top.done; top = top.up {
		n += len(top.own)
	}
	var base []Redirect
	if top != nil {
		base = top.flat
	}
	flat := make([]Redirect, len(base)+n)
	copy(flat, base)
	end := len(flat)
	for l := h; l != top; l = l.up {
		end -= len(l.own)
		copy(flat[end:], l.own)
	}
	h.flat, h.done = flat, true
	return flat
}

// plus returns the inherited redirections followed by own.
func (h *inherited) plus(own []Redirect) []Redirect {
	all := h.all()
	if len(all) == 0 {
		return own
	}
	if len(own) == 0 {
		return all
	}
	return appendClip(all, own...)
}

// inherit returns h with own added below it.
func (h *inherited) inherit(own []Redirect) *inherited {
	if len(own) == 0 {
		return h
	}
	return &inherited{up: h, own: own}
}

// writes reports whether the redirection opens its target for writing.
func (r Redirect) writes() bool {
	return r.Op != "<"
}

// reads reports whether the redirection feeds its target to the command.
func (r Redirect) reads() bool {
	return r.Op == "<" || r.Op == "<>"
}

// stmtIO is what a statement's redirections do.
type stmtIO struct {
	redirs []Redirect
	// stdin is what fd 0 reads when a redirection sets it: a heredoc, a
	// here-string, a file; nil when none does.
	stdin *Input
	// moved: a redirection takes fd 1 (to a file, another fd or
	// /dev/null); outPath is that file, absolute, when it can be named, and
	// appends tells >> from >.
	moved   bool
	outPath string
	appends bool
}

// redirects lists the file redirections of a statement and walks the
// commands their words run. Heredocs and here-strings are data, not files:
// they are left out of the list but become the statement's stdin, and the
// substitutions in a here-string and in the body of a heredoc with an
// unquoted delimiter run, so those are walked. (The parser keeps a
// quoted-delimiter body as one literal.)
func (w *walker) redirects(rs []*syntax.Redirect, c ctx, dir string) stmtIO {
	var io stmtIO
	for _, r := range rs {
		if r == nil {
			continue
		}
		fd0 := r.N == nil || r.N.Value == "0"
		fd1 := r.N == nil || r.N.Value == "1"
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body := w.heredoc(r, c, dir)
			if fd0 {
				io.stdin = &Input{From: "heredoc", Text: body}
			}
			continue
		case syntax.WordHdoc:
			t := w.word(r.Word, c, dir)
			if fd0 {
				if t.Glob {
					t.Known = false
				}
				t.Value += "\n"
				io.stdin = &Input{From: "here-string", Text: t}
			}
			continue
		case syntax.DplIn:
			t := w.word(r.Word, c, dir)
			if fd0 && !(t.Known && t.Value == "0") {
				io.stdin = &Input{From: "file", Text: Word{Raw: t.Raw, Value: t.Raw}}
			}
			continue
		}
		target := w.word(r.Word, c, dir)
		op := redirOp(r.Op)
		if op == "" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut:
			if fd0 {
				in := &Input{From: "file", Text: Word{Raw: target.Raw, Value: target.Raw}, disk: true}
				if s := w.file(target, dir); s != nil {
					in.Text, in.disk = s.word(target.Raw), false
				} else if target.proc != nil {
					// < <(cmd): what cmd prints, known or not.
					in.From, in.Text, in.disk = "<(...)", target.proc.word(target.Raw), false
				}
				io.stdin = in
			}
		case syntax.DplOut:
			if fd1 {
				io.moved, io.outPath, io.appends = true, "", false
			}
		default:
			if fd1 || r.Op == syntax.RdrAll || r.Op == syntax.AppAll || r.Op == syntax.RdrAllClob || r.Op == syntax.AppAllClob {
				io.moved, io.outPath = true, ""
				io.appends = op == ">>" || op == "&>>"
				if p, ok := absPath(target, dir); ok {
					io.outPath = p
				}
			}
		}
		if r.Op == syntax.DplOut && target.Known && isFd(target.Value) {
			continue
		}
		red := Redirect{Op: op, Target: target}
		if r.N != nil {
			red.Fd = r.N.Value
		}
		io.redirs = append(io.redirs, red)
	}
	return io
}

func redirOp(op syntax.RedirOperator) string {
	switch op {
	case syntax.RdrOut:
		return ">"
	case syntax.AppOut, syntax.AppClob:
		return ">>"
	case syntax.RdrClob:
		return ">|"
	case syntax.RdrAll, syntax.RdrAllClob:
		return "&>"
	case syntax.AppAll, syntax.AppAllClob:
		return "&>>"
	case syntax.RdrIn:
		return "<"
	case syntax.RdrInOut:
		return "<>"
	case syntax.DplOut:
		return ">&"
	}
	return ""
}

// isFd reports whether the target of >& names a file descriptor: a number,
// "-" (close it), or a number followed by "-" (move it).
func isFd(s string) bool {
	if s == "-" {
		return true
	}
	if len(s) > 1 && s[len(s)-1] == '-' {
		s = s[:len(s)-1]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
